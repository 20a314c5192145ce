package source

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadFileString reads what ReadFile reads, into a string, and refuses what it refuses.
func TestReadFileString(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"empty": "",
		"small": `{"a": 1}`,
		// Larger than the 64 KiB read buffer, so the bytes come in several reads.
		"large": strings.Repeat(`{"key": "value"}`+"\n", 3*(64<<10)/17+5),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadFileString(p)
		if err != nil || got != text {
			t.Errorf("%s: ReadFileString read %d bytes of %d, %v", name, len(got), len(text), err)
		}
		if got, _, err := ReadRegularString(p); err != nil || got != text {
			t.Errorf("%s: ReadRegularString read %d bytes of %d, %v", name, len(got), len(text), err)
		}
	}
	var re *ReadError
	if _, _, err := ReadFileString(dir); !errors.As(err, &re) || !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
	if _, _, err := ReadFileString(filepath.Join(dir, "missing")); !errors.As(err, &re) || re.Problem != "cannot read: no such file" {
		t.Errorf("a missing file: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, MaxFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFileString(big); !errors.As(err, &re) || !re.TooLarge {
		t.Errorf("a file above the ceiling: %v", err)
	}
}
