//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package cache

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/dwsdev/dws/source"
)

// noFollow opens a cache's own file without following a link in its place or
// waiting on a pipe.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// mapPrivate maps the file at path read-only, with the checks of
// source.ReadPrivate: opened without following a link or waiting, then, on the open
// file, a regular file, the user's own (source.Private), at most limit bytes. An
// empty file maps as no bytes.
func mapPrivate(path string, limit int64) ([]byte, func(), error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, nil, &source.ReadError{Path: path, Problem: "refused: a symbolic link", Err: source.ErrNotRegular}
	}
	if err != nil {
		return nil, nil, source.ReadErrorOf(path, err)
	}
	defer f.Close() //nolint:errcheck // read-only; the mapping outlives the descriptor
	st, err := f.Stat()
	if err != nil {
		return nil, nil, source.ReadErrorOf(path, err)
	}
	if err := checkOpen(path, st, limit); err != nil {
		return nil, nil, err
	}
	if st.Size() == 0 {
		return nil, func() {}, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, source.ReadErrorOf(path, err)
	}
	return data, func() { syscall.Munmap(data) }, nil //nolint:errcheck // nothing to do about it
}

// checkOpen refuses an open file st that is not the user's own regular file of at
// most limit bytes, in source.ReadPrivate's words.
func checkOpen(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.IsDir() {
			what = "a directory"
		}
		return &source.ReadError{Path: path, Problem: "cannot read: " + what, Err: source.ErrNotRegular}
	}
	if err := source.Private(path, st); err != nil {
		return err
	}
	if st.Size() > limit {
		return &source.ReadError{Path: path, Problem: "refused: larger than a cache index may be", TooLarge: true, Size: st.Size()}
	}
	return nil
}

// removeFile removes the file at path, never a directory.
func removeFile(path string) error {
	if err := syscall.Unlink(path); err != nil {
		return &fs.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}
