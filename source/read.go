package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// MaxFileSize is the hard ceiling on every file dws reads: a larger file is not
// read at all (SPEC §3, stage 1).
const MaxFileSize = 4 << 20

// ReadError is a file that could not be read. Its Problem says why in words a
// report can show after the path.
type ReadError struct {
	Path string
	// Problem is the reason without the path, such as "cannot read: no such file".
	Problem string
	// TooLarge is set when the file is above MaxFileSize (Size is then its size,
	// or -1 when it grew past the ceiling while being read).
	TooLarge bool
	Size     int64
	// Err is the underlying error, for errors.Is(err, fs.ErrNotExist) and the like.
	Err error
}

func (e *ReadError) Error() string { return e.Path + ": " + e.Problem }
func (e *ReadError) Unwrap() error { return e.Err }

// ErrNotRegular is the underlying error of a path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrNotPrivate is the underlying error of a file ReadPrivate refuses, and of
// Private's verdict: another user owns it, or others than its owner may write it.
var ErrNotPrivate = errors.New("not the user's own")

// ReadFile reads the regular file at path, up to MaxFileSize bytes. Directories,
// devices, named pipes and sockets are refused before they are opened, so that a
// stray path can never block a run; a pipe swapped in after that check is opened
// without blocking and refused too. Every error is a *ReadError.
func ReadFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, readError(path, err)
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	if st.Size() > MaxFileSize {
		return nil, tooLarge(path, st.Size(), MaxFileSize)
	}
	return readRegular(path, MaxFileSize, false, nil, nil)
}

// ReadFileString is ReadFile into a string, for ParseString: the file's bytes are
// allocated once, as the string the parsed document keeps. Opened is what the file
// read was (Unix; zero elsewhere).
func ReadFileString(path string) (string, Opened, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", Opened{}, readError(path, err)
	}
	if err := regular(path, st); err != nil {
		return "", Opened{}, err
	}
	if st.Size() > MaxFileSize {
		return "", Opened{}, tooLarge(path, st.Size(), MaxFileSize)
	}
	return ReadRegularString(path)
}

// Opened is what the system said of a file once it was open to be read, before its
// bytes were: its device, inode, size, and modification and status-change times in
// nanoseconds. It describes the bytes read, whatever was at the file's path a moment
// before (something may have been mounted over it, or renamed to it, since).
type Opened struct {
	Dev, Ino           uint64
	Size, Mtime, Ctime int64
}

// ReadPrivate reads the regular file at path, up to limit bytes, only when it is the
// user's own: owned by the user dws runs as and writable by no one else (its group
// and others may not write it). It is for what dws wrote itself and will believe
// without checking it again, such as the result cache. A symbolic link in its place
// is refused; the file is checked once open, so that it cannot be swapped after the
// check, and is opened without waiting, so that no kind of file can block the read.
// Every error is a *ReadError; a refused file's Err is ErrNotPrivate or
// ErrNotRegular. Where files have no owner (Windows), only the kind and size are
// checked.
func ReadPrivate(path string, limit int64) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, readError(path, err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return nil, &ReadError{Path: path, Problem: "refused: a symbolic link", Err: ErrNotRegular}
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	return readRegular(path, limit, true, nil, nil)
}

// ReadRegularString reads a file that a directory listing has just named as a regular
// file into a string, as ReadFileString does but without its stat: once open, the file
// is checked again to be regular (the listing and ReadFileString's stat are both a
// moment old), which leaves four system calls a file instead of five.
func ReadRegularString(path string) (string, Opened, error) {
	var text strings.Builder
	var opened Opened
	if _, err := readRegular(path, MaxFileSize, false, &text, &opened); err != nil {
		return "", Opened{}, err
	}
	return text.String(), opened, nil
}

func regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	if st.IsDir() {
		what = "a directory"
	}
	return &ReadError{Path: path, Problem: "cannot read: " + what, Err: ErrNotRegular}
}

// Private says whether the file or directory at path, which st describes, is the
// user's own as ReadPrivate means it; when it is not, the *ReadError's Problem says
// why and its Err is ErrNotPrivate.
func Private(path string, st fs.FileInfo) error {
	if why := private(st); why != "" {
		return notPrivate(path, why)
	}
	return nil
}

func notPrivate(path, why string) error {
	return &ReadError{Path: path, Problem: "refused: " + why, Err: ErrNotPrivate}
}

func tooLarge(path string, size, limit int64) error {
	ceiling := fmt.Sprintf("%d-byte", limit)
	if limit%(1<<20) == 0 {
		ceiling = fmt.Sprintf("%d MiB", limit>>20)
	}
	msg := "the file grew above the " + ceiling + " ceiling while being read: not parsed"
	if size >= 0 {
		msg = fmt.Sprintf("the file is %d bytes, above the %s ceiling: not parsed", size, ceiling)
	}
	return &ReadError{Path: path, Problem: msg, TooLarge: true, Size: size}
}

func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	msg := "cannot read: " + err.Error()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		msg = "cannot read: no such file"
	case errors.Is(err, fs.ErrPermission):
		msg = "cannot read: permission denied"
	}
	return &ReadError{Path: path, Problem: msg, Err: err}
}

// ReadErrorOf describes an error met while reading path some other way (walking a
// directory) as ReadFile would: the same words for the same problem.
func ReadErrorOf(path string, err error) error { return readError(path, err) }
