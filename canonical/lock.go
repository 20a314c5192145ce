package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/dwsdev/dws/source"

	"github.com/dwsdev/dws/internal/flock"
)

// lockVersion is the only lockfile format there is so far.
const lockVersion = 1

// Lock is a lockfile: the expected checksum of each file, keyed by the file's
// path relative to the lockfile's directory with forward slashes (see RelPath).
//
// On disk it is
//
//	{
//	  "version": 1,
//	  "files": {
//	    "flows/a.yaml": "sha256:…"
//	  }
//	}
//
// with the files sorted by path, two-space indentation and a trailing newline,
// so the same entries always give the same bytes.
type Lock struct {
	Files map[string]string
	// Published is the append-only register of published versions (SPEC §17), keyed
	// by unit@version ("cortex:expense@v1.4"); see published.go. It is written only
	// when it has entries, so a lockfile without it keeps its bytes.
	Published map[string]Published
}

// lockFile is the on-disk shape; version comes first so a reader sees it first.
type lockFile struct {
	Version   int                   `json:"version"`
	Files     *map[string]string    `json:"files"`
	Published *map[string]Published `json:"published,omitempty"`
}

// ReadLock reads the lockfile at path. A missing file is an error that
// satisfies errors.Is(err, fs.ErrNotExist); a malformed one is an error that
// names the path and what is wrong.
func ReadLock(path string) (*Lock, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading lockfile: %w", err)
	}
	l, err := parseLock(data)
	if err != nil {
		return nil, fmt.Errorf("reading lockfile %s: %w", path, err)
	}
	return l, nil
}

func parseLock(data []byte) (*Lock, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("file is empty")
	}
	// Read by source, not encoding/json: a duplicate entry is an error rather than the
	// last one winning, and "Files" is not "files" (encoding/json folds case).
	doc, err := source.Parse("", data, source.JSON)
	if err != nil {
		return nil, fmt.Errorf("not a lockfile: %w", err)
	}
	root := doc.Root
	if root.Kind != source.Object {
		return nil, errors.New("not a lockfile: want an object {version, files}")
	}
	for _, m := range root.Members {
		if m.Key != "version" && m.Key != "files" && m.Key != "published" {
			// A misspelt "files" must not read as a lockfile with no entries.
			return nil, fmt.Errorf("not a lockfile: unknown key %q (want version, files, published)", m.Key)
		}
	}
	v := root.Get("version")
	if v == nil || v.Kind != source.Number {
		return nil, errors.New("not a lockfile: no version")
	}
	if v.Text != strconv.Itoa(lockVersion) {
		return nil, fmt.Errorf("unsupported version %s (this dws reads version %d)", v.Text, lockVersion)
	}
	list := root.Get("files")
	if list == nil || list.Kind != source.Object {
		return nil, errors.New(`no "files" object`)
	}
	files := map[string]string{}
	for _, m := range list.Members {
		if m.Value.Kind != source.String {
			return nil, fmt.Errorf("not a lockfile: entry %q: want a checksum string", m.Key)
		}
		files[m.Key] = m.Value.Text
	}
	if err := checkEntries(files); err != nil {
		return nil, err
	}
	l := &Lock{Files: files}
	if pub := root.Get("published"); pub != nil {
		var err error
		if l.Published, err = parsePublished(pub); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// checkEntries reports the first bad entry in path order, so the message is
// the same on every run.
func checkEntries(files map[string]string) error {
	var bad []string
	for p, sum := range files {
		if p == "" || !validSum(sum) {
			bad = append(bad, p)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	p := bad[0]
	if p == "" {
		return errors.New("an entry has an empty path")
	}
	return fmt.Errorf("entry %q: %q is not a checksum (want sha256: and 64 lower-case hex digits)", p, files[p])
}

func validSum(s string) bool {
	hexPart, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hexPart) != 64 {
		return false
	}
	for i := 0; i < len(hexPart); i++ {
		c := hexPart[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// EncodeLock is the lockfile text of l as WriteLock writes it (sorted, byte-stable).
func EncodeLock(l *Lock) ([]byte, error) { return encodeLock(l) }

// ParseLock reads a lockfile's text as ReadLock reads the file.
func ParseLock(data []byte) (*Lock, error) { return parseLock(data) }

// encodeLock gives the lockfile's bytes; encoding/json sorts map keys, which
// is what makes the output byte-stable.
func encodeLock(l *Lock) ([]byte, error) {
	files := map[string]string{}
	if l != nil && l.Files != nil {
		files = l.Files
	}
	if err := checkEntries(files); err != nil {
		return nil, err
	}
	out := lockFile{Version: lockVersion, Files: &files}
	if l != nil && len(l.Published) > 0 {
		if err := checkPublished(l.Published); err != nil {
			return nil, err
		}
		out.Published = &l.Published
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteLock writes l to path atomically: the bytes go to a temporary file in
// the same directory, which is synced, closed, made 0644 and renamed over
// path. A reader, or another dws writing at the same time, sees either the old
// lockfile or a complete new one, never a torn one. Concurrent WriteLock calls
// are last-writer-wins; use UpdateLock to merge entries without losing any.
func WriteLock(path string, l *Lock) error {
	data, err := encodeLock(l)
	if err != nil {
		return fmt.Errorf("writing lockfile %s: %w", path, err)
	}
	if err := WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing lockfile %s: %w", path, err)
	}
	return nil
}

// WriteFile writes data to path atomically (a temporary file in the same directory,
// synced, then renamed): readers and concurrent writers see the old file or the complete
// new one, never half of either. The file has mode perm from its first byte on. dws
// writes every file it writes this way.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return writeAtomic(path, data, perm, false)
}

// CreateFile is WriteFile that refuses to replace a file that exists, also one that
// appears while it writes (a hard link, unlike a rename, fails when the name is taken).
func CreateFile(path string, data []byte, perm fs.FileMode) error {
	return writeAtomic(path, data, perm, true)
}

// ErrNotRegular is the error of a write to a name that holds something other than a
// regular file (a device, a pipe, a socket): dws never replaces one.
var ErrNotRegular = errors.New("it is not a regular file (a device, a pipe or a socket), which dws does not replace")

// Target is where a write to path lands: path itself when nothing is there or a regular
// file is, the file a symbolic link at path leads to (the link is kept), and an error
// for a link that leads nowhere or a name that holds anything but a regular file.
func Target(path string) (string, error) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", err
	case st.Mode()&fs.ModeSymlink != 0:
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", err
		}
		if st, err = os.Stat(real); err != nil {
			return "", err
		}
		path = real
	}
	if st.IsDir() {
		return "", syscall.EISDIR
	}
	if !st.Mode().IsRegular() {
		return "", ErrNotRegular
	}
	return path, nil
}

func writeAtomic(name string, data []byte, perm fs.FileMode, noReplace bool) (err error) {
	defer func() {
		if err != nil {
			err = writeError(name, err)
		}
	}()
	path, err := Target(name)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// A dot name keeps the temporary file out of globs such as *.lock.
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmpName)
		}
	}()
	// CreateTemp makes the file 0600; set the wanted mode before any byte is in it, so
	// a private key is never readable by others, not even for a moment.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// Without the sync a crash shortly after the rename can leave an empty
	// file under the final name on some file systems.
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if noReplace {
		lerr := os.Link(tmpName, path)
		if lerr == nil {
			_ = os.Remove(tmpName) // the link holds the data; the temporary name is litter
			syncDir(dir)
			return nil
		}
		if errors.Is(lerr, fs.ErrExist) {
			return fs.ErrExist
		}
		// No hard links on this file system: fall back to the rename.
	}
	if err = os.Rename(tmpName, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// WriteError is a file dws could not write. It names the file the user asked for,
// never the temporary file it writes first.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string {
	if errors.Is(e.Err, fs.ErrExist) {
		return e.Path + " already exists"
	}
	return "writing " + e.Path + ": " + e.Err.Error()
}

func (e *WriteError) Unwrap() error { return e.Err }

// pathless drops the path the os package puts in its errors; the caller names the file.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeError drops the temporary name the os package puts in its errors.
func writeError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		err = pe.Err
	case errors.As(err, &le):
		err = le.Err
	}
	return &WriteError{Path: path, Err: err}
}

// syncDir makes the rename itself durable where the platform allows it; a
// failure here loses durability, not correctness, so it is not reported.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

// UpdateLock merges entries into the lockfile at path, creating it if it does
// not exist, and leaves the other entries alone. When that changes no byte, the
// file is not written at all (its inode and modification time stay).
//
// The read-modify-write runs under an exclusive lock (flock.Path: flock(2) on the
// lockfile's directory on Unix, whose inode the rename into place never changes;
// an exclusively created marker file elsewhere, removed after), so two dws
// processes updating the same lockfile at once, as pre-commit's parallel hooks
// do, never lose each other's entries, and no lock file is left beside the
// lockfile to be committed.
func UpdateLock(path string, entries map[string]string) error {
	if err := checkEntries(entries); err != nil {
		return fmt.Errorf("updating lockfile %s: %w", path, err)
	}
	unlock, err := flock.Path(path)
	if err != nil {
		return fmt.Errorf("locking %s: %w", path, pathless(err))
	}
	defer unlock()

	data, err := source.ReadFile(path)
	l := &Lock{Files: map[string]string{}}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return fmt.Errorf("updating lockfile: reading lockfile: %w", err)
	default:
		if l, err = parseLock(data); err != nil {
			return fmt.Errorf("updating lockfile: reading lockfile %s: %w", path, err)
		}
	}
	for p, sum := range entries {
		l.Files[p] = sum
	}
	out, err := encodeLock(l)
	if err != nil {
		return fmt.Errorf("writing lockfile %s: %w", path, err)
	}
	if data != nil && bytes.Equal(out, data) {
		return nil // nothing new: the file is left alone, its time and inode too
	}
	if err := WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing lockfile %s: %w", path, err)
	}
	return nil
}

// RelPath returns the key for file in a lockfile at lockPath: file's path
// relative to the lockfile's directory, cleaned, with forward slashes. Both
// paths may be relative (to the working directory) or absolute. Symbolic links
// are not resolved, so the key is the path the user wrote. A file outside the
// lockfile's directory gets a key starting with "../".
func RelPath(lockPath, file string) (string, error) {
	dir, err := filepath.Abs(filepath.Dir(lockPath))
	if err != nil {
		return "", fmt.Errorf("lockfile key for %s: %w", file, err)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", fmt.Errorf("lockfile key for %s: %w", file, err)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil {
		return "", fmt.Errorf("lockfile key for %s: %w", file, err)
	}
	if rel == "." {
		return "", fmt.Errorf("lockfile key for %s: it is the lockfile's directory, not a file", file)
	}
	return filepath.ToSlash(rel), nil
}
