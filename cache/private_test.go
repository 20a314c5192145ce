//go:build unix

package cache

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asRoot runs a part of a test that gives a file to another user, which only root can.
func asRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
}

// written opens dir's scope, puts key(1) and closes it: an index of the user's own.
func written(t *testing.T, dir string) (scope Key, index string) {
	t.Helper()
	scope = KeyOf([]byte("s"))
	c := Open(dir, scope)
	c.Put(key(1), Entry{Dialect: "cortex", Checksum: "sha256:01"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return scope, c.path
}

// A directory others can write is not used: nothing read from it, nothing written to
// it, and Refused says why.
func TestForeignDirectoryIsNotUsed(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		why   string
	}{
		{"writable by others", func(t *testing.T, dir string) { chmod(t, dir, 0o777) }, "writable by others"},
		{"writable by its group", func(t *testing.T, dir string) { chmod(t, dir, 0o770) }, "writable by others"},
		{"sticky and shared, as /tmp", func(t *testing.T, dir string) { chmod(t, dir, 0o1777) }, "writable by others"},
		{"another user's", func(t *testing.T, dir string) {
			asRoot(t)
			chmod(t, dir, 0o755)
			chown(t, dir, 65534)
		}, "owned by uid 65534"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			scope, index := written(t, dir)
			before, _ := os.ReadFile(index)
			tc.setup(t, dir)
			c := Open(dir, scope)
			if _, ok := c.Get(key(1)); ok {
				t.Error("an entry was read from the directory")
			}
			c.Put(key(2), Entry{Dialect: "cortex", Checksum: "sha256:02"})
			if err := c.Close(); err != nil {
				t.Fatalf("a refused directory is no failure: %v", err)
			}
			if err := c.Refused(); err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), dir) {
				t.Errorf("Refused: %v, want the directory, %q", err, tc.why)
			}
			if after, _ := os.ReadFile(index); !bytes.Equal(before, after) {
				t.Error("the index was written")
			}
			if names := list(t, dir); len(names) != 2 {
				t.Errorf("files were added: %v", names)
			}
		})
	}
}

// An index that is not the user's own is not read, and the run's index replaces it.
func TestForeignIndexIsNotRead(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, index string)
		why   string
	}{
		{"writable by others", func(t *testing.T, index string) { chmod(t, index, 0o666) }, "writable by others"},
		{"writable by its group", func(t *testing.T, index string) { chmod(t, index, 0o620) }, "writable by others"},
		{"another user's", func(t *testing.T, index string) { asRoot(t); chown(t, index, 65534) }, "owned by uid 65534"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			scope, index := written(t, dir)
			tc.setup(t, index)
			c := Open(dir, scope)
			if _, ok := c.Get(key(1)); ok {
				t.Error("an entry was read from the index")
			}
			if err := c.Refused(); err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), index) {
				t.Errorf("Refused: %v, want the index, %q", err, tc.why)
			}
			c.Put(key(2), Entry{Dialect: "cortex", Checksum: "sha256:02"})
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			c = Open(dir, scope)
			if err := c.Refused(); err != nil {
				t.Fatalf("the run's own index: %v", err)
			}
			if _, ok := c.Get(key(1)); ok {
				t.Error("the refused index's entry was merged into the new one")
			}
			if _, ok := c.Get(key(2)); !ok {
				t.Error("the run's entry was not written")
			}
		})
	}
}

// A journal that is not the user's own is not read, said, and merged away (not
// merged in) by the run that writes.
func TestForeignJournalIsNotRead(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, journal string)
		why   string
	}{
		{"writable by others", func(t *testing.T, journal string) { chmod(t, journal, 0o666) }, "writable by others"},
		{"writable by its group", func(t *testing.T, journal string) { chmod(t, journal, 0o620) }, "writable by others"},
		{"another user's", func(t *testing.T, journal string) { asRoot(t); chown(t, journal, 65534) }, "owned by uid 65534"},
		{"a link to a journal", func(t *testing.T, journal string) {
			other := journaled(t, t.TempDir())
			if err := os.Remove(journal); err != nil {
				t.Fatal(err)
			}
			symlink(t, other, journal)
		}, "a symbolic link"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			journal := journaled(t, dir)
			scope := KeyOf([]byte("s"))
			tc.setup(t, journal)
			c := Open(dir, scope)
			if _, ok := c.Get(key(3)); ok {
				t.Error("an entry was read from the journal")
			}
			if _, ok := c.Get(key(1)); !ok {
				t.Error("the index was not read")
			}
			if err := c.Refused(); err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), journal) {
				t.Errorf("Refused: %v, want the journal, %q", err, tc.why)
			}
			c.Put(key(2), Entry{Dialect: "cortex", Checksum: "sha256:02"})
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			c = Open(dir, scope)
			if err := c.Refused(); err != nil {
				t.Fatalf("after the run: %v", err)
			}
			if _, ok := c.Get(key(3)); ok {
				t.Error("the refused journal's entry was merged into the index")
			}
			for _, k := range []Key{key(1), key(2)} {
				if _, ok := c.Get(k); !ok {
					t.Error("an entry was lost")
				}
			}
		})
	}
}

// journaled writes an index of key(1) and a journal of key(3) in dir; it returns the
// journal's path.
func journaled(t *testing.T, dir string) string {
	t.Helper()
	scope, index := written(t, dir)
	c := Open(dir, scope)
	c.Put(key(3), Entry{Dialect: "cortex", Checksum: "sha256:03"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	journal := index + journalSuffix
	if _, err := os.Stat(journal); err != nil {
		t.Fatal(err)
	}
	return journal
}

// No file in the place of an index blocks a run or fills its memory: a named pipe, a
// link to /dev/zero, a link to an index, a directory. Each reads as empty, is said,
// and (but the directory) is replaced by the run's index.
func TestNoFileInPlaceOfTheIndexBlocks(t *testing.T) {
	cases := map[string]func(t *testing.T, index string){
		"a named pipe": func(t *testing.T, index string) {
			if err := syscall.Mkfifo(index, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"a link to /dev/zero": func(t *testing.T, index string) { symlink(t, "/dev/zero", index) },
		"a link to an index": func(t *testing.T, index string) {
			_, other := written(t, t.TempDir())
			symlink(t, other, index)
		},
		"a directory": func(t *testing.T, index string) {
			if err := os.Mkdir(index, 0o700); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, plant := range cases {
		for _, file := range []string{"index", "journal"} {
			t.Run(name+" as the "+file, func(t *testing.T) {
				testNoFileBlocks(t, name, file, plant)
			})
		}
	}
}

func testNoFileBlocks(t *testing.T, name, file string, plant func(t *testing.T, index string)) {
	dir := t.TempDir()
	scope, index := written(t, dir)
	path := index
	if file == "journal" {
		path = journaled(t, dir)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	plant(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	done := make(chan error, 1)
	var c *Cache
	go func() {
		c = Open(dir, scope)
		c.Put(key(2), Entry{Dialect: "cortex", Checksum: "sha256:02"})
		done <- c.Close()
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		t.Fatal("the run blocked on the file in the index's place")
	}
	if c.Refused() == nil {
		t.Error("not said")
	}
	if name == "a directory" {
		return // nothing replaces it: Close's error says why
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Open(dir, scope).Get(key(2)); !ok {
		t.Error("the run's index did not replace it")
	}
}

// A cache directory is created 0700.
func TestDirectoryIsCreatedPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "dws")
	written(t, dir)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		st, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %04o, want 0700", d, st.Mode().Perm())
		}
	}
}

// Trimming deletes only what a cache writes: indexes and journals by their name and
// first bytes, locks beside no index or journal, temporary files over an hour old, each the user's own. A
// directory the user named keeps everything else.
func TestTrimDeletesOnlyItsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	hour := time.Now().Add(-2 * time.Hour)
	big := func(name string, head string, mod time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, MaxBytes/2+1); err != nil { // sparse: no 32 MiB written
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		return name
	}
	head := func(name string, head string, mod time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		return name
	}
	small := func(name string, mod time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
		return name
	}
	gone := []string{
		// The oldest indexes, over MaxBytes, one of an older version of dws.
		big(fmt.Sprintf("%032x.idx", 1), magic, hour),
		big(fmt.Sprintf("%032x.idx", 2), "dws-cache 2\n", hour.Add(time.Minute)),
		small(fmt.Sprintf("%032x.idx.lock", 7), hour),                 // beside no index
		small(fmt.Sprintf("%032x.idx.tmp-123456", 7), hour),           // a killed run's
		head(fmt.Sprintf("%032x.idx.journal", 1), journalMagic, hour), // with its index
	}
	kept := []string{
		big(fmt.Sprintf("%032x.idx", 5), magic, hour.Add(2*time.Minute)), // within MaxBytes
		big("notes.idx", magic, hour),
		big(fmt.Sprintf("%032X.idx", 0xab3), magic, hour),     // not as dws names them
		big(fmt.Sprintf("%032x.idx", 4), "my own data", hour), // named so, but no index
		small(".tmp-123456", hour),
		small("x.idx.lock", hour),
		small(fmt.Sprintf("%032x.idx.tmp-123456", 8), time.Now()), // maybe still being written
		small(fmt.Sprintf("%032x.idx.tmp-notdigits", 8), hour),
		small("README", hour),
		head(fmt.Sprintf("%032x.idx.journal", 5), journalMagic, hour),                // with its index
		head(fmt.Sprintf("%032x.idx.journal", 6), journalMagic, hour.Add(time.Hour)), // newer than what was trimmed
		small(fmt.Sprintf("%032x.idx.lock", 6), hour),                                // beside a journal
		head(fmt.Sprintf("%032x.idx.journal", 3), "my own data", hour),               // named so, but no journal
	}
	if os.Geteuid() == 0 {
		name := small(fmt.Sprintf("%032x.idx.tmp-1", 9), hour)
		chown(t, filepath.Join(dir, name), 65534)
		kept = append(kept, name)
	}
	_, index := written(t, dir)
	kept = append(kept, filepath.Base(index), filepath.Base(index)+lockSuffix)
	have := map[string]bool{}
	for _, n := range list(t, dir) {
		have[n] = true
	}
	for _, n := range gone {
		if have[n] {
			t.Errorf("%s was kept", n)
		}
	}
	for _, n := range kept {
		if !have[n] {
			t.Errorf("%s was deleted", n)
		}
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, p string, uid int) {
	t.Helper()
	if err := os.Chown(p, uid, -1); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

func list(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	return names
}
