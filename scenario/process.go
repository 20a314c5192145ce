package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/dwsdev/dws/sim"
)

// Stub worker processes (SPEC §8.3). run: CMD starts CMD (argv, no shell; a first word
// with a slash is relative to the scenario file) in a fresh temporary directory, with
// the call as JSON on stdin ({node, attempt, input, context, output_paths}); it prints
// one JSON answer on stdout: {"ok": true}, {"fail": "reason"}, {"decision": "approve"},
// each optionally with "output": {…}. The process, and every process it started (its
// process group), is killed at the stub timeout; the directory is removed afterwards.
//
// For a step with output files (DireClaw), output_paths are the precomputed paths under
// the step's output root in that directory, and after the process exits each is checked
// as DireClaw's runtime checks a worker's outputs: it exists, resolves inside the output
// root, is a readable regular file and is not empty. A missing or empty output fails the
// invocation (the step fails, as DireClaw's does); a path that resolves outside the
// root fails the scenario. A review's decision is the decision file, trimmed and
// lower-cased, when the step has one.

const maxStubOutput = 1 << 20

func (s *stubs) process(st *Stub, c sim.Call) (sim.Answer, error) {
	dir, err := os.MkdirTemp("", "dws-stub-")
	if err != nil {
		return sim.Answer{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	files := c.OutputPaths
	root := ""
	if len(files) > 0 {
		root = filepath.Join(dir, filepath.FromSlash(c.OutputRoot))
		if !inside(dir, root) {
			return sim.Answer{}, fmt.Errorf("the output root %s lies outside the stub's directory", c.OutputRoot)
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			return sim.Answer{}, err
		}
		c.OutputPaths = map[string]string{}
		for name, rel := range files {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if !inside(root, p) {
				return sim.Answer{}, fmt.Errorf("output %s resolves outside the step's output root (%s)", name, rel)
			}
			c.OutputPaths[name] = p
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
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.StubTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr limited
	stdout.max, stderr.max = maxStubOutput, 4096
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = s.opts.StubTimeout
	err = cmd.Run()
	if cmd.Process != nil {
		// Whatever the stub left running in its group goes with it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	switch {
	case ctx.Err() != nil:
		return sim.Answer{}, fmt.Errorf("%s did not answer within %s and was killed", st.Run[0], s.opts.StubTimeout)
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return sim.Answer{}, fmt.Errorf("%s exited with %s%s", st.Run[0], ee.String(), tail(stderr.String()))
		}
		return sim.Answer{}, fmt.Errorf("%s could not start: %w", st.Run[0], err)
	case stdout.over:
		return sim.Answer{}, fmt.Errorf("%s printed more than %d bytes", st.Run[0], maxStubOutput)
	}
	a, err := parseAnswer(stdout.Bytes())
	if err != nil {
		return sim.Answer{}, fmt.Errorf("%s printed %s: %w", st.Run[0], clip(stdout.String()), err)
	}
	if root != "" && a.Kind != "fail" {
		return checkOutputs(root, c.OutputPaths, a)
	}
	return a, nil
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

// checkOutputs checks the files a step had to write, as DireClaw does.
func checkOutputs(root string, paths map[string]string, a sim.Answer) (sim.Answer, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return a, err
	}
	names := make([]string, 0, len(paths))
	for n := range paths {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		p := paths[name]
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s was not written", name)}, nil
		}
		if !inside(realRoot, real) {
			return a, fmt.Errorf("output %s resolves outside the step's output root, to %s", name, real)
		}
		info, err := os.Stat(real)
		if err != nil || !info.Mode().IsRegular() {
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s is not a regular file", name)}, nil
		}
		data, err := os.ReadFile(real)
		switch {
		case err != nil:
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s is not readable", name)}, nil
		case len(data) == 0:
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s is empty", name)}, nil
		}
		if name == "decision" {
			a.Kind, a.Decision = "decision", strings.ToLower(strings.TrimSpace(string(data)))
		}
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

// limited is a buffer that keeps at most max bytes and notes that more came.
type limited struct {
	bytes.Buffer
	max  int
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.max - l.Len(); len(p) > room {
		l.over = true
		if room > 0 {
			l.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return l.Buffer.Write(p)
}
