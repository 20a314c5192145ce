//go:build !unix

package source

import (
	"io"
	"os"
)

// readRegular opens path, checks again that it is a regular file (it may have been
// replaced since it was looked at) and reads it.
func readRegular(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, readError(path, err)
	}
	defer f.Close() //nolint:errcheck // read-only: a close error loses nothing
	st, err := f.Stat()
	if err != nil {
		return nil, readError(path, err)
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, readError(path, err)
	}
	if len(data) > MaxFileSize {
		return nil, tooLarge(path, -1)
	}
	return data, nil
}
