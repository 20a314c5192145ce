package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
		return nil, tooLarge(path, st.Size())
	}
	return readRegular(path)
}

// ReadRegular reads a file that a directory listing has just named as a regular
// file, as ReadFile does but without its stat: once open, the file is checked again
// to be regular (the listing and ReadFile's stat are both a moment old), which
// leaves four system calls a file instead of five.
func ReadRegular(path string) ([]byte, error) { return readRegular(path) }

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

func tooLarge(path string, size int64) error {
	msg := "the file grew above the 4 MiB ceiling while being read: not parsed"
	if size >= 0 {
		msg = fmt.Sprintf("the file is %d bytes, above the 4 MiB ceiling: not parsed", size)
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
