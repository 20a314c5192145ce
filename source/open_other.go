//go:build !unix

package source

import (
	"io"
	"os"
)

// readRegular opens path, checks again that it is a regular file (it may have been
// replaced since it was looked at) and reads up to limit bytes. Files have no owner
// here to check for private.
func readRegular(path string, limit int64, _ bool) ([]byte, error) {
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
	if st.Size() > limit {
		return nil, tooLarge(path, st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, readError(path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(path, -1, limit)
	}
	return data, nil
}
