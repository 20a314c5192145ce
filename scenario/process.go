package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dwsdev/dws/sim"
)

// Stub worker processes (SPEC §8.3). run: CMD starts CMD (argv, no shell; a first word
// with a slash is relative to the scenario file) in a fresh temporary directory, with
// the call as JSON on stdin ({node, attempt, input, context, output_paths}); it prints
// one JSON answer on stdout: {"ok": true}, {"fail": "reason"}, {"decision": "approve"},
// each optionally with "output": {…}. The process runs in a process group of its own,
// with DWS_STUB_RUN set to a token of its own in its environment; when it exits or is
// killed at the stub timeout, every process of its group is killed, and on Linux every
// process it started, also one that called setsid, cleared its environment and lost
// its parent: each stub runs in a control group of its own where the system offers one,
// else dws is the child subreaper and kills the stubs' orphans (contain_linux.go says
// how, and when), and every process that inherited the token is killed as well; then
// the directory is removed (live.go says how a signal or a panic does the same).
//
// dws reads at most 1 MiB of a stub's stdout and 4 KiB of its stderr: a stub that
// writes more is killed at once and the scenario fails, naming the cap.
//
// For a call with files to write, output_paths are the precomputed paths under the
// call's root in that directory, and after the process and what it started are gone
// each is read back into the answer, for the dialect to judge (outputs.go).

const (
	maxStubStdout = 1 << 20
	maxStubStderr = 4 << 10
)

func (s *stubs) process(st *Stub, c sim.Call) (sim.Answer, error) {
	w, err := newWorker()
	if err != nil {
		return sim.Answer{}, err
	}
	defer w.close()
	dir := w.dir
	files := c.Files
	root := ""
	if len(files) > 0 {
		root = filepath.Join(dir, filepath.FromSlash(c.FilesRoot))
		if !inside(dir, root) {
			return sim.Answer{}, fmt.Errorf("the output root %s lies outside the stub's directory", c.FilesRoot)
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			return sim.Answer{}, err
		}
		c.Files = map[string]string{}
		for name, rel := range files {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if !inside(root, p) {
				return sim.Answer{}, fmt.Errorf("output %s resolves outside the step's output root (%s)", name, rel)
			}
			c.Files[name] = p
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return sim.Answer{}, err
			}
		}
	}
	in, err := json.Marshal(c)
	if err != nil {
		return sim.Answer{}, err
	}
	args := append([]string(nil), st.Run...)
	if strings.ContainsRune(args[0], '/') && !filepath.IsAbs(args[0]) {
		args[0] = filepath.Join(filepath.Dir(s.sc.Path), args[0])
		if abs, err := filepath.Abs(args[0]); err == nil {
			args[0] = abs
		}
	}
	r := w.run(args, in, s.opts.StubTimeout)
	name := st.Run[0]
	switch {
	case r.startErr != nil:
		return sim.Answer{}, fmt.Errorf("%s could not start: %w", name, r.startErr)
	case r.over == "stdout":
		return sim.Answer{}, fmt.Errorf("%s printed more than %s on stdout, the most dws reads of an answer, and was killed", name, size(maxStubStdout))
	case r.over == "stderr":
		return sim.Answer{}, fmt.Errorf("%s wrote more than %s to stderr, the most dws reads of a stub's messages, and was killed", name, size(maxStubStderr))
	case r.timedOut:
		return sim.Answer{}, fmt.Errorf("%s did not answer within %s and was killed", name, s.opts.StubTimeout)
	case r.waitErr != nil:
		var ee *exec.ExitError
		if errors.As(r.waitErr, &ee) {
			return sim.Answer{}, fmt.Errorf("%s exited with %s%s", name, ee.String(), tail(string(r.stderr)))
		}
		return sim.Answer{}, fmt.Errorf("%s: %w", name, r.waitErr)
	case r.readErr != nil:
		return sim.Answer{}, fmt.Errorf("%s exited, but its output stayed open (a process it started holds it) until the stub timeout", name)
	}
	a, err := parseAnswer(r.stdout)
	if err != nil {
		return sim.Answer{}, fmt.Errorf("%s printed %s: %w", name, clip(string(r.stdout)), err)
	}
	if root != "" && a.Kind != "fail" {
		a.Files, err = readFiles(w, root, c.Files)
		if err != nil {
			return sim.Answer{}, err
		}
	}
	return a, nil
}

// ran is how a stub process went.
type ran struct {
	stdout, stderr []byte
	startErr       error
	waitErr        error // how it exited
	readErr        error // its output not read to the end
	timedOut       bool
	over           string // "stdout" or "stderr" when it wrote more than dws reads
}

// run runs the stub process with input on stdin, reading at most maxStubStdout and
// maxStubStderr of what it writes, and ends with it and everything it started killed.
// The process's three streams are pipes dws reads and writes itself, so that a cap
// bounds what is read, and everything ends by the timeout.
func (w *worker) run(args []string, input []byte, timeout time.Duration) ran {
	var r ran
	var pipes [3][2]*os.File // stdin, stdout, stderr: read end, write end
	for i := range pipes {
		pr, pw, err := os.Pipe()
		if err != nil {
			for _, p := range pipes[:i] {
				_ = p[0].Close()
				_ = p[1].Close()
			}
			r.startErr = err
			return r
		}
		pipes[i] = [2]*os.File{pr, pw}
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = w.dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0][0], pipes[1][1], pipes[2][1]
	cmd, err := w.start(cmd)
	// The child has its ends; dws keeps the others.
	_ = pipes[0][0].Close()
	_ = pipes[1][1].Close()
	_ = pipes[2][1].Close()
	stdin, stdout, stderr := pipes[0][1], pipes[1][0], pipes[2][0]
	if err != nil {
		_ = stdin.Close()
		_ = stdout.Close()
		_ = stderr.Close()
		r.startErr = err
		return r
	}
	deadline := time.Now().Add(timeout)
	kill := func() {
		_ = syscall.Kill(-w.pgid, syscall.SIGKILL)
		if w.cg != nil {
			w.cg.signal()
		}
	}
	var mu sync.Mutex
	timer := time.AfterFunc(timeout, func() {
		mu.Lock()
		r.timedOut = true
		mu.Unlock()
		kill()
	})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		_ = stdin.SetWriteDeadline(deadline)
		_, _ = stdin.Write(input) // a stub need not read its call
		_ = stdin.Close()
	}()
	read := func(f *os.File, name string, max int, into *[]byte) {
		defer wg.Done()
		_ = f.SetReadDeadline(deadline)
		b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
		_ = f.Close() // past the cap, what it writes next fails
		mu.Lock()
		defer mu.Unlock()
		switch {
		case len(b) > max:
			if r.over == "" {
				r.over = name
			}
			b = b[:max]
			kill()
		case err != nil:
			r.readErr = err
		}
		*into = b
	}
	go read(stdout, "stdout", maxStubStdout, &r.stdout)
	go read(stderr, "stderr", maxStubStderr, &r.stderr)
	r.waitErr = cmd.Wait()
	timer.Stop()
	w.finish() // what it started goes with it, and its pipes close
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return r
}

// size says a byte count the way the caps are known.
func size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// parseAnswer reads a stub process's answer: one JSON object, nothing after it.
func parseAnswer(b []byte) (sim.Answer, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return sim.Answer{}, errors.New("want one JSON object such as {\"ok\": true}")
	}
	if _, err := dec.Token(); err != io.EOF {
		return sim.Answer{}, errors.New("want one JSON object and nothing after it")
	}
	var a sim.Answer
	if out, ok := raw["output"]; ok {
		m, ok := out.(map[string]any)
		if !ok {
			return a, errors.New("output must be an object")
		}
		a.Output = m
	}
	n := 0
	for k, v := range raw {
		switch k {
		case "ok":
			if v != true {
				return a, errors.New("ok must be true")
			}
			a.Kind, n = "ok", n+1
		case "fail":
			r, ok := v.(string)
			if !ok || r == "" {
				return a, errors.New("fail must be a reason")
			}
			a.Kind, a.Reason, n = "fail", r, n+1
		case "decision":
			d, ok := v.(string)
			if !ok || d == "" {
				return a, errors.New("decision must be a word")
			}
			a.Kind, a.Decision, n = "decision", d, n+1
		case "output":
		default:
			return a, fmt.Errorf("unknown member %q (want ok, fail, decision, output)", k)
		}
	}
	switch {
	case n > 1:
		return a, errors.New("an answer is one of ok, fail or decision")
	case n == 0 && a.Output == nil:
		return a, errors.New("want ok, fail, decision or output")
	case n == 0:
		a.Kind = "ok"
	case a.Kind == "fail" && a.Output != nil:
		return a, errors.New("a failed invocation has no output")
	}
	return a, nil
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return ": " + clip(s)
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", s)
}
