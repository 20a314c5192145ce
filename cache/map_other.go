//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package cache

import (
	"os"

	"github.com/dwsdev/dws/source"
)

// noFollow: no such flags here; source.ReadPrivate's checks stand alone.
const noFollow = 0

// mapPrivate reads the file at path whole, where there is no mapping to be had, with
// source.ReadPrivate's checks.
func mapPrivate(path string, limit int64) ([]byte, func(), error) {
	data, err := source.ReadPrivate(path, limit)
	if err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}

// removeFile removes the file at path.
func removeFile(path string) error {
	if st, err := os.Lstat(path); err == nil && st.IsDir() {
		return &os.PathError{Op: "remove", Path: path, Err: os.ErrExist}
	}
	return os.Remove(path)
}
