//go:build unix

package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ReadPrivate reads only a regular file of the user's own, within its bound, and no
// file put in its place blocks it.
func TestReadPrivate(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	if err := os.WriteFile(own, []byte("twelve bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadPrivate(own, 12); err != nil || string(data) != "twelve bytes" {
		t.Fatalf("the user's own file: %q, %v", data, err)
	}
	if _, err := ReadPrivate(own, 11); !isTooLarge(err) {
		t.Errorf("a file above the bound: %v", err)
	}

	cases := map[string]struct {
		plant func(t *testing.T, p string)
		want  error
		says  string
	}{
		"writable by others":    {func(t *testing.T, p string) { writeMode(t, p, 0o666) }, ErrNotPrivate, "writable by others than its owner (mode 0666)"},
		"writable by its group": {func(t *testing.T, p string) { writeMode(t, p, 0o660) }, ErrNotPrivate, "mode 0660"},
		"a named pipe": {func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrNotRegular, "not a regular file"},
		"a link to /dev/zero":           {func(t *testing.T, p string) { symlinkTo(t, "/dev/zero", p) }, ErrNotRegular, "a symbolic link"},
		"a link to the user's own file": {func(t *testing.T, p string) { symlinkTo(t, own, p) }, ErrNotRegular, "a symbolic link"},
		"another user's": {func(t *testing.T, p string) {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file to another user")
			}
			writeMode(t, p, 0o600)
			if err := os.Chown(p, 65534, -1); err != nil {
				t.Fatal(err)
			}
		}, ErrNotPrivate, "owned by uid 65534"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f")
			tc.plant(t, p)
			_, err := ReadPrivate(p, 1<<20)
			var re *ReadError
			if !errors.As(err, &re) || !errors.Is(err, tc.want) || !strings.Contains(re.Problem, tc.says) {
				t.Fatalf("got %v, want %v saying %q", err, tc.want, tc.says)
			}
		})
	}

	// Private judges a directory the same way.
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Private(dir, st); err != nil {
		t.Errorf("a temporary directory of the user's own: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	st, _ = os.Stat(dir)
	if err := Private(dir, st); !errors.Is(err, ErrNotPrivate) {
		t.Errorf("a directory others can write: %v", err)
	}
}

func isTooLarge(err error) bool {
	var re *ReadError
	return errors.As(err, &re) && re.TooLarge
}

func writeMode(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func symlinkTo(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}
