package canonical

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func sumOf(s string) string { return canonicalSum([]byte(s)) }

func TestLockRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dws.lock")
	l := &Lock{Files: map[string]string{
		"flows/b.yaml": sumOf("b"),
		"a.json":       sumOf("a"),
		"x&<y>.json":   sumOf("x"),
	}}
	if err := WriteLock(path, l); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, l) {
		t.Errorf("read back %v, wrote %v", got.Files, l.Files)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "files": {
    "a.json": "` + sumOf("a") + `",
    "flows/b.yaml": "` + sumOf("b") + `",
    "x&<y>.json": "` + sumOf("x") + `"
  }
}
`
	if string(data) != want {
		t.Errorf("lockfile is\n%s\nwant\n%s", data, want)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", info.Mode().Perm())
	}
	assertOnly(t, filepath.Dir(path), "dws.lock")
}

func TestLockEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dws.lock")
	if err := WriteLock(path, &Lock{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if want := "{\n  \"version\": 1,\n  \"files\": {}\n}\n"; string(data) != want {
		t.Errorf("empty lockfile is %q, want %q", data, want)
	}
	l, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if l.Files == nil || len(l.Files) != 0 {
		t.Errorf("Files = %#v, want an empty map", l.Files)
	}
}

func TestLockByteStable(t *testing.T) {
	dir := t.TempDir()
	var contents []string
	for i := range 2 {
		files := map[string]string{}
		// Insert in a different order each time.
		for j := range 50 {
			k := j
			if i == 1 {
				k = 49 - j
			}
			files[fmt.Sprintf("f%02d.yaml", k)] = sumOf(strconv.Itoa(k))
		}
		path := filepath.Join(dir, "dws.lock")
		if err := WriteLock(path, &Lock{Files: files}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, string(data))
	}
	if contents[0] != contents[1] {
		t.Errorf("two writes of the same entries differ:\n%s\n%s", contents[0], contents[1])
	}
}

func TestReadLockErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.lock")
	_, err := ReadLock(missing)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing lockfile: %v; want fs.ErrNotExist naming the path", err)
	}

	tests := []struct{ name, content, want string }{
		{"empty", "  \n", "file is empty"},
		{"not JSON", "version: 1\n", "not a lockfile"},
		{"an array", "[]", "not a lockfile"},
		{"truncated", `{"version":1,"files":{"a":`, "not a lockfile"},
		{"trailing data", `{"version":1,"files":{}} {}`, "after the top-level value"},
		{"no version", `{"files":{}}`, "no version"},
		{"future version", `{"version":2,"files":{}}`, "unsupported version 2"},
		{"no files", `{"version":1}`, `no "files" object`},
		{"null files", `{"version":1,"files":null}`, `no "files" object`},
		{"misspelt files", `{"version":1,"file":{}}`, `unknown key "file"`},
		{"case-variant key", `{"version":1,"files":{},"Files":{"a":"` + sumOf("") + `"}}`, `unknown key "Files"`},
		{"duplicate entry", `{"version":1,"files":{"a":"` + sumOf("") + `","a":"` + sumOf("x") + `"}}`, `duplicate key "a"`},
		{"bad checksum", `{"version":1,"files":{"b":"sha256:00","a":"md5:x"}}`, `entry "a": "md5:x" is not a checksum`},
		{"upper-case hex", `{"version":1,"files":{"a":"sha256:` + strings.Repeat("A", 64) + `"}}`, `entry "a"`},
		{"empty path", `{"version":1,"files":{"":"` + sumOf("") + `"}}`, "empty path"},
		{"checksum not a string", `{"version":1,"files":{"a":1}}`, "not a lockfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".lock")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadLock(path)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one naming %s and containing %q", err, path, tt.want)
			}
		})
	}
}

func TestWriteLockRejectsBadEntries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")
	if err := WriteLock(path, &Lock{Files: map[string]string{"a": "nope"}}); err == nil {
		t.Error("WriteLock accepted a malformed checksum")
	}
	if err := UpdateLock(path, map[string]string{"a": "nope"}); err == nil {
		t.Error("UpdateLock accepted a malformed checksum")
	}
	assertOnly(t, dir)
}

func TestWriteLockInMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "dws.lock")
	err := WriteLock(path, &Lock{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v, want one naming %s", err, path)
	}
}

func TestUpdateLockMerges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")
	if err := UpdateLock(path, map[string]string{"a": sumOf("a"), "b": sumOf("b")}); err != nil {
		t.Fatal(err)
	}
	if err := UpdateLock(path, map[string]string{"b": sumOf("b2"), "c": sumOf("c")}); err != nil {
		t.Fatal(err)
	}
	l, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": sumOf("a"), "b": sumOf("b2"), "c": sumOf("c")}
	if !reflect.DeepEqual(l.Files, want) {
		t.Errorf("Files = %v, want %v", l.Files, want)
	}

	bad := filepath.Join(dir, "bad.lock")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := UpdateLock(bad, map[string]string{"a": sumOf("a")}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("updating a malformed lockfile: %v, want an error naming it", err)
	}
	if data, _ := os.ReadFile(bad); string(data) != "{" {
		t.Errorf("a malformed lockfile was overwritten with %q", data)
	}
}

// The environment variables that turn the test binary into an UpdateLock
// writer for TestUpdateLockConcurrent.
const (
	helperEnv     = "DWS_CANONICAL_UPDATELOCK_HELPER"
	helperPathEnv = "DWS_CANONICAL_UPDATELOCK_PATH"
	updatesEach   = 20
)

// TestUpdateLockHelperProcess is not a test: it is the body of the writer
// processes that TestUpdateLockConcurrent starts.
func TestUpdateLockHelperProcess(t *testing.T) {
	id := os.Getenv(helperEnv)
	if id == "" {
		return
	}
	path := os.Getenv(helperPathEnv)
	for i := range updatesEach {
		k := fmt.Sprintf("proc%s/file%02d.yaml", id, i)
		if err := UpdateLock(path, map[string]string{k: sumOf(k)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	os.Exit(0)
}

// Real processes and goroutines update one lockfile at once, as pre-commit's
// parallel hooks do: no entry may be lost and no temporary file left behind.
func TestUpdateLockConcurrent(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("inside a helper process")
	}
	const processes, goroutines = 6, 8
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")

	var cmds []*exec.Cmd
	var outputs []*strings.Builder
	for p := range processes {
		cmd := exec.Command(os.Args[0], "-test.run=^TestUpdateLockHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperEnv+"="+strconv.Itoa(p), helperPathEnv+"="+path)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		outputs = append(outputs, out)
	}

	var wg sync.WaitGroup
	errs := make(chan error, goroutines*updatesEach)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range updatesEach {
				k := fmt.Sprintf("goroutine%d/file%02d.yaml", g, i)
				if err := UpdateLock(path, map[string]string{k: sumOf(k)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer process %d: %v\n%s", i, err, outputs[i])
		}
	}

	l, err := ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for p := range processes {
		for i := range updatesEach {
			k := fmt.Sprintf("proc%d/file%02d.yaml", p, i)
			want[k] = sumOf(k)
		}
	}
	for g := range goroutines {
		for i := range updatesEach {
			k := fmt.Sprintf("goroutine%d/file%02d.yaml", g, i)
			want[k] = sumOf(k)
		}
	}
	if !reflect.DeepEqual(l.Files, want) {
		var missing []string
		for k := range want {
			if _, ok := l.Files[k]; !ok {
				missing = append(missing, k)
			}
		}
		sort.Strings(missing)
		if len(missing) > 10 {
			missing = append(missing[:10], "…")
		}
		t.Errorf("lockfile has %d entries, want %d; missing %v", len(l.Files), len(want), missing)
	}
	// The lock is on the directory (see UpdateLock): nothing is left beside the
	// lockfile, no dws.lock.lock to be committed, no temporary file.
	assertOnly(t, dir, "dws.lock")
}

// Plain WriteLock calls racing each other and readers: every read sees one
// complete lockfile, whichever writer won.
func TestWriteLockReadersNeverSeeTornFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dws.lock")
	if err := WriteLock(path, &Lock{}); err != nil {
		t.Fatal(err)
	}
	const writers, writes = 4, 50
	var wg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, 1000)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files := map[string]string{}
			// Large enough that a torn write would show.
			for i := range 200 {
				files[fmt.Sprintf("writer%d/%03d.yaml", w, i)] = sumOf(fmt.Sprint(w, i))
			}
			for range writes {
				if err := WriteLock(path, &Lock{Files: files}); err != nil {
					errs <- err
				}
			}
		}()
	}
	var readers sync.WaitGroup
	readers.Add(1)
	go func() {
		defer readers.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			l, err := ReadLock(path)
			if err != nil {
				errs <- err
				return
			}
			if n := len(l.Files); n != 0 && n != 200 {
				errs <- fmt.Errorf("read a lockfile with %d entries", n)
				return
			}
		}
	}()
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assertOnly(t, dir, "dws.lock")
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	sort.Strings(names)
	if strings.Join(got, "\n") != strings.Join(names, "\n") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

func TestRelPath(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ lock, file, want string }{
		{"dws.lock", "a.yaml", "a.yaml"},
		{"dws.lock", "./flows/../flows/a.yaml", "flows/a.yaml"},
		{"repo/dws.lock", "repo/flows/a.yaml", "flows/a.yaml"},
		{"repo/dws.lock", "other/a.yaml", "../other/a.yaml"},
		{filepath.Join(wd, "repo", "dws.lock"), "repo/x/y.json", "x/y.json"},
		{"repo/dws.lock", filepath.Join(wd, "repo", "x", "y.json"), "x/y.json"},
		{"./repo//dws.lock", "repo/./a b.yaml", "a b.yaml"},
	}
	for _, tt := range tests {
		got, err := RelPath(filepath.FromSlash(tt.lock), filepath.FromSlash(tt.file))
		if err != nil {
			t.Errorf("RelPath(%q, %q): %v", tt.lock, tt.file, err)
			continue
		}
		if got != tt.want {
			t.Errorf("RelPath(%q, %q) = %q, want %q", tt.lock, tt.file, got, tt.want)
		}
	}
	if _, err := RelPath("repo/dws.lock", "repo"); err == nil {
		t.Error("RelPath accepted the lockfile's own directory")
	}
}
