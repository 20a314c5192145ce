package scenario_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwsdev/dws/scenario"
)

// outcomes maps each scenario's name to its failures, joined ("" when it passed).
func outcomes(t *testing.T, s *scenario.Suite) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, o := range s.Outcomes {
		got := strings.Join(o.Failures, "; ")
		if o.Passed {
			got = ""
		} else if got == "" {
			got = "failed"
		}
		out[o.Scenario.Name] = got
	}
	return out
}

// expectOutcomes checks each scenario passed (want "") or failed with a failure holding
// want.
func expectOutcomes(t *testing.T, s *scenario.Suite, want map[string]string) {
	t.Helper()
	got := outcomes(t, s)
	if len(got) != len(want) {
		t.Errorf("ran %d scenarios, want %d: %q", len(got), len(want), got)
	}
	for name, w := range want {
		g, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s did not run", name)
		case w == "" && g != "":
			t.Errorf("%s failed: %s", name, g)
		case w != "" && !strings.Contains(g, w):
			t.Errorf("%s: failures %q, want one holding %q", name, g, w)
		}
	}
}

// noneLeft checks that no stub working directory is left in tmp.
func noneLeft(t *testing.T, tmp string) {
	t.Helper()
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("stub working directories left behind: %v", left)
	}
}

// pidsGone checks that the processes whose ids the files in dir hold are gone.
func pidsGone(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, f := range names {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("no pid file %s: %v", f, err)
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid <= 0 {
			t.Errorf("pid file %s holds %q", f, b)
			continue
		}
		if alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %s (%d) is still running", f, pid)
		}
	}
}

// The caps on what a stub prints bound what dws reads: past them the stub is killed at
// once and the scenario fails, naming the cap; up to them an answer passes.
func TestStubOutputCaps(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pids := t.TempDir()
	const answer = `{"ok": true}` + "\n"
	dir := project(t, map[string]string{
		"hello.json": hello,
		// Blanks before a valid answer: 3 MiB of them, or exactly up to the cap.
		"blanks.sh": "#!/bin/sh\ncat >/dev/null\nhead -c 3145728 /dev/zero | tr '\\0' ' '\necho '{\"ok\": true}'\n",
		"full.sh":   "#!/bin/sh\ncat >/dev/null\nhead -c " + strconv.Itoa(1<<20-len(answer)) + " /dev/zero | tr '\\0' ' '\necho '{\"ok\": true}'\n",
		"over.sh":   "#!/bin/sh\ncat >/dev/null\nhead -c " + strconv.Itoa(1<<20-len(answer)+1) + " /dev/zero | tr '\\0' ' '\necho '{\"ok\": true}'\n",
		// Printers of 64 MiB that then never exit, on stdout and on stderr: only the cap
		// can end them before the timeout.
		"flood.sh":               "#!/bin/sh\ncat >/dev/null\necho $$ > \"$1/flood\"\nyes 'all work and no play' | head -c 67108864\nexec sleep 300\n",
		"errflood.sh":            "#!/bin/sh\ncat >/dev/null\necho $$ > \"$1/errflood\"\nyes 'warning: something' | head -c 67108864 >&2\nexec sleep 300\n",
		"chatty.sh":              "#!/bin/sh\ncat >/dev/null\nhead -c 5000 /dev/zero | tr '\\0' 'w' >&2\necho '{\"ok\": true}'\n",
		"quiet.sh":               "#!/bin/sh\ncat >/dev/null\necho 'model loaded' >&2\necho '{\"ok\": true}'\n",
		"blanks.scenario.yaml":   "definition: hello.json\nstubs: { greet: [{ run: ./blanks.sh }] }\n",
		"full.scenario.yaml":     "definition: hello.json\nstubs: { greet: [{ run: ./full.sh }] }\nexpect: { status: succeeded }\n",
		"over.scenario.yaml":     "definition: hello.json\nstubs: { greet: [{ run: ./over.sh }] }\n",
		"flood.scenario.yaml":    "definition: hello.json\nstubs: { greet: [{ run: [./flood.sh, " + strconv.Quote(pids) + "] }] }\n",
		"errflood.scenario.yaml": "definition: hello.json\nstubs: { greet: [{ run: [./errflood.sh, " + strconv.Quote(pids) + "] }] }\n",
		"chatty.scenario.yaml":   "definition: hello.json\nstubs: { greet: [{ run: ./chatty.sh }] }\n",
		"quiet.scenario.yaml":    "definition: hello.json\nstubs: { greet: [{ run: ./quiet.sh }] }\nexpect: { status: succeeded }\n",
	})
	s := runSuite(t, dir, time.Minute)
	stdoutCap := "printed more than 1 MiB on stdout, the most dws reads of an answer, and was killed"
	stderrCap := "wrote more than 4 KiB to stderr, the most dws reads of a stub's messages, and was killed"
	expectOutcomes(t, s, map[string]string{
		"blanks":   stdoutCap,
		"full":     "",
		"over":     stdoutCap,
		"flood":    stdoutCap,
		"errflood": stderrCap,
		"chatty":   stderrCap,
		"quiet":    "",
	})
	pidsGone(t, pids, "flood", "errflood")
	noneLeft(t, tmp)
}

// A stub's child that calls setsid leaves the stub's process group; it is killed all
// the same when the stub ends, as is a grandchild whose parent exited (reparented).
func TestStubSessionKilled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pids := t.TempDir()
	// Each detached process writes its pid; the stub answers once both are written.
	detach := `#!/bin/sh
cat >/dev/null
setsid sh -c 'echo $$ > "$1/session.tmp" && mv "$1/session.tmp" "$1/session"; exec sleep 300' sh "$1" </dev/null >/dev/null 2>&1 &
( sh -c 'echo $$ > "$1/orphan.tmp" && mv "$1/orphan.tmp" "$1/orphan"; exec sleep 300' sh "$1" </dev/null >/dev/null 2>&1 & )
while [ ! -f "$1/session" ] || [ ! -f "$1/orphan" ]; do sleep 0.01; done
echo '{"ok": true}'
`
	dir := project(t, map[string]string{
		"hello.json":           hello,
		"detach.sh":            detach,
		"detach.scenario.yaml": "definition: hello.json\nstubs: { greet: [{ run: [./detach.sh, " + strconv.Quote(pids) + "] }] }\nexpect: { status: succeeded }\n",
	})
	s := runSuite(t, dir, 10*time.Minute)
	expectOutcomes(t, s, map[string]string{"detach": ""})
	pidsGone(t, pids, "session", "orphan")
	noneLeft(t, tmp)
}

// A signal that ends dws test (here SIGTERM, sent by the stub itself to the dws that
// runs it) first kills the stubs, also what they detached, and removes their directories;
// dws then dies of the signal.
func TestStubCleanupOnSignal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding a stub's detached processes needs /proc")
	}
	tmp := t.TempDir()
	pids := t.TempDir()
	stub := `#!/bin/sh
cat >/dev/null
echo $$ > "$1/stub"
setsid sh -c 'echo $$ > "$1/session.tmp" && mv "$1/session.tmp" "$1/session"; exec sleep 300' sh "$1" </dev/null >/dev/null 2>&1 &
while [ ! -f "$1/session" ]; do sleep 0.01; done
kill -TERM $PPID
exec sleep 300
`
	dir := project(t, map[string]string{
		"hello.json":         hello,
		"term.sh":            stub,
		"term.scenario.yaml": "definition: hello.json\nstubs: { greet: [{ run: [./term.sh, " + strconv.Quote(pids) + "] }] }\n",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "DWS_TEST_HELPER=suite", "DWS_TEST_DIR="+dir, "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("dws did not end after SIGTERM:\n%s", out)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("dws ended with %v, want it killed by SIGTERM:\n%s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("dws ended with %v, want it killed by SIGTERM:\n%s", err, out)
	}
	if strings.Contains(string(out), "scenario") {
		t.Errorf("dws reported the scenarios it cut short:\n%s", out)
	}
	pidsGone(t, pids, "stub", "session")
	noneLeft(t, tmp)
}

// TestHelperProcess is the dws a test runs as a process of its own (DWS_TEST_HELPER
// set); otherwise it does nothing.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv("DWS_TEST_HELPER") {
	case "suite":
		s := runSuite(t, os.Getenv("DWS_TEST_DIR"), 10*time.Minute)
		for _, o := range s.Outcomes {
			t.Logf("scenario %s: %v", o.Scenario.Name, o.Failures)
		}
	case "panic":
		scenario.PanicWhileStubRuns(os.Getenv("DWS_TEST_DIR"), os.Getenv("DWS_TEST_PIDS"))
	case "parallel-panic":
		scenario.PanicInParallel()
	}
}

// A panic in one scenario's goroutine ends dws with the panic: the other goroutines
// finishing never lets the run return (and dws exit 0) first.
func TestPanicInParallelEndsTheProcess(t *testing.T) {
	for range 200 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "DWS_TEST_HELPER=parallel-panic")
		out, err := cmd.CombinedOutput()
		if err == nil || strings.Contains(string(out), "parallel returned") || !strings.Contains(string(out), "panic: a bug in dws") {
			t.Fatalf("dws ended with %v, want the panic alone:\n%s", err, out)
		}
	}
}

// A panic in dws while a stub runs kills the stub, also what it detached, and removes
// its directory before dws dies of the panic.
func TestStubCleanupOnPanic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("finding a stub's detached processes needs /proc")
	}
	tmp := t.TempDir()
	pids := t.TempDir()
	dir := project(t, map[string]string{
		"hang.sh": `#!/bin/sh
cat >/dev/null
echo $$ > "$1/stub"
setsid sh -c 'echo $$ > "$1/session.tmp" && mv "$1/session.tmp" "$1/session"; exec sleep 300' sh "$1" </dev/null >/dev/null 2>&1 &
exec sleep 300
`,
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "DWS_TEST_HELPER=panic", "DWS_TEST_DIR="+dir, "DWS_TEST_PIDS="+pids, "TMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("dws did not end after its panic:\n%s", out)
	}
	if err == nil || !strings.Contains(string(out), "panic: a bug in dws") {
		t.Fatalf("dws ended with %v, want the panic:\n%s", err, out)
	}
	pidsGone(t, pids, "stub", "session")
	noneLeft(t, tmp)
}

// outputsStub is a DireClaw stub that writes its outputs with the shell commands body,
// where $decision and $summary are the output paths, then answers ok.
func outputsStub(body string) string {
	return "#!/bin/sh\ncall=$(cat)\np() { printf '%s' \"$call\" | sed -n \"s/.*\\\"$1\\\":\\\"\\([^\\\"]*\\)\\\".*/\\1/p\"; }\n" +
		"decision=$(p decision)\nsummary=$(p summary)\nroot=${summary%/review/summary.txt}\n" + body + "\necho '{\"ok\": true}'\n"
}

// A review's outputs are checked as DireClaw checks them, reading a bounded part of
// each file: a huge (sparse) output neither exhausts memory nor is read whole.
func TestDireClawOutputsRead(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const gib = "1073741824"
	stubs := map[string]string{
		// Decisions as DireClaw reads them.
		"upper":    `printf '  APPROVE \n' > "$decision"; echo done > "$summary"`,
		"json":     `printf '"Reject"' > "$decision"; echo done > "$summary"`,
		"quoted":   `printf "'approve'" > "$decision"; echo done > "$summary"`,
		"keyed":    `printf 'Decision: reject\n' > "$decision"; echo done > "$summary"`,
		"escaped":  `printf '"appr\\u006fve"' > "$decision"; echo done > "$summary"`,
		"object":   `printf '{"decision": "approve"}' > "$decision"; echo done > "$summary"`,
		"sentence": `echo 'I approve' > "$decision"; echo done > "$summary"`,
		// A huge output: its first bytes are read, and it is not empty.
		"huge": `echo approve > "$decision"; truncate -s ` + gib + ` "$summary"`,
		// A huge decision file is no decision.
		"hugedecision": `truncate -s ` + gib + ` "$decision"; echo done > "$summary"`,
		// Empty as DireClaw finds it: white space, or the JSON string "".
		"blank":       `echo approve > "$decision"; printf ' \n\t\n' > "$summary"`,
		"emptystring": `echo approve > "$decision"; printf '""' > "$summary"`,
		"binary":      `echo approve > "$decision"; printf 'ok \377\376' > "$summary"`,
		"fifo":        `echo approve > "$decision"; mkfifo "$summary"`,
		"directory":   `echo approve > "$decision"; mkdir "$summary"`,
	}
	want := map[string]string{
		"upper": "review=approve, publish", "json": "review=reject, publish", "quoted": "review=approve, publish",
		"keyed": "review=reject, publish", "escaped": "review=approve, publish", "object": "review=invalid", "sentence": "review=invalid",
		"huge": "review=approve, publish", "hugedecision": "review=invalid",
		"blank": "review=invalid", "emptystring": "review=invalid", "binary": "review=invalid",
		"fifo": "review=invalid", "directory": "review=invalid",
	}
	files := map[string]string{"orchestrator.yaml": newsroom}
	expect := map[string]string{}
	for name, body := range stubs {
		files[name+".sh"] = outputsStub(body)
		files[name+".scenario.yaml"] = "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./" + name + ".sh }] }\nexpect: { path: [" + want[name] + "] }\n"
		expect[name] = ""
	}
	dir := project(t, files)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := runSuite(t, dir, 10*time.Minute)
	runtime.ReadMemStats(&after)
	expectOutcomes(t, s, expect)
	// Two 1 GiB files read whole would allocate 2 GiB at least.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Errorf("the suite allocated %d MiB: the outputs were read whole", grew>>20)
	}
	noneLeft(t, tmp)
}

// An optional output ("name?") may be left unwritten or empty, as DireClaw allows.
func TestDireClawOptionalOutputs(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	optional := strings.Replace(newsroom, "outputs: [decision, summary]", "outputs: [decision, \"summary?\"]", 1)
	dir := project(t, map[string]string{
		"orchestrator.yaml":        optional,
		"absent.sh":                outputsStub(`echo approve > "$decision"`),
		"blank.sh":                 outputsStub(`echo approve > "$decision"; : > "$summary"`),
		"nodecision.sh":            outputsStub(`echo done > "$summary"`),
		"absent.scenario.yaml":     "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./absent.sh }] }\nexpect: { path: [review=approve, publish] }\n",
		"blank.scenario.yaml":      "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./blank.sh }] }\nexpect: { path: [review=approve, publish] }\n",
		"nodecision.scenario.yaml": "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./nodecision.sh }] }\nexpect: { path: [review=invalid] }\n",
	})
	expectOutcomes(t, runSuite(t, dir, 10*time.Minute), map[string]string{"absent": "", "blank": "", "nodecision": ""})
	noneLeft(t, tmp)
}

// The output root, and every directory above it in the stub's directory, must still
// be itself when the stub is done: a link there, to a place the stub filled, fails the
// scenario, as a linked output file does.
func TestDireClawOutputRootLinked(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	elsewhere := t.TempDir()
	fill := func(dst string) string {
		return `mkdir -p "` + dst + `/review" && echo approve > "` + dst + `/review/$(basename "$decision")" && echo done > "` + dst + `/review/summary.txt"`
	}
	stubs := map[string]string{
		// The output root itself, moved away and replaced by a link.
		"root": fill(elsewhere+"/root") + ` && rm -rf "$root" && ln -s "` + elsewhere + `/root" "$root"`,
		// runs/, far above the root, replaced by a link to a copy.
		"above": `top=${root%/runs/*}; cp -r "$top/runs" "` + elsewhere + `/above" && rm -rf "$top/runs" && ln -s "` + elsewhere + `/above" "$top/runs" && ` +
			fill(`$top/runs/${root#$top/runs/}`),
		// The stub's whole directory replaced by a link to a copy.
		"dir": `top=${root%/runs/*}; cp -r "$top" "` + elsewhere + `/dir" && rm -rf "$top" && ln -s "` + elsewhere + `/dir" "$top" && ` +
			fill(`$top/runs/${root#$top/runs/}`),
		// A directory inside the root replaced by a link.
		"inner": fill(elsewhere+"/inner") + ` && rm -rf "$root/review" && ln -s "` + elsewhere + `/inner/review" "$root/review"`,
		// A link inside the root to a file inside it is fine.
		"local": `echo approve > "$root/d.txt" && ln -s "$root/d.txt" "$decision" && echo done > "$summary"`,
		// The root removed: nothing was written.
		"removed": `rm -rf "$root"`,
	}
	want := map[string]string{
		"root":    "the step's output root was replaced by a link: it resolves to " + elsewhere + "/root",
		"above":   "the step's output root was replaced by a link: it resolves to " + elsewhere + "/above/",
		"dir":     "the step's output root was replaced by a link: it resolves to " + elsewhere + "/dir/",
		"inner":   "output decision resolves outside the step's output root",
		"local":   "",
		"removed": "",
	}
	files := map[string]string{"orchestrator.yaml": newsroom}
	for name, body := range stubs {
		files[name+".sh"] = outputsStub(body)
		files[name+".scenario.yaml"] = "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./" + name + ".sh }] }\n"
	}
	files["local.scenario.yaml"] += "expect: { path: [review=approve, publish] }\n"
	files["removed.scenario.yaml"] += "expect: { path: [review=invalid] }\n"
	dir := project(t, files)
	expectOutcomes(t, runSuite(t, dir, 10*time.Minute), want)
	noneLeft(t, tmp)
}
