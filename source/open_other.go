//go:build !unix

package source

import (
	"io"
	"os"
	"strings"
)

// readRegular opens path, checks again that it is a regular file (it may have been
// replaced since it was looked at) and reads up to limit bytes. Files have no owner
// here to check for private.
// When text is not nil, the bytes are written to it instead of returned. What the open
// file was is not told here (opened stays as it is): no stamps are kept.
func readRegular(path string, limit int64, _ bool, text *strings.Builder, _ *Opened) ([]byte, error) {
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
	if text != nil {
		text.Grow(int(st.Size()))
		if _, err := io.Copy(text, io.LimitReader(f, limit+1)); err != nil {
			return nil, readError(path, err)
		}
		if int64(text.Len()) > limit {
			return nil, tooLarge(path, -1, limit)
		}
		return nil, nil
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
