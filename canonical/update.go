package canonical

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/dwsdev/dws/source"

	"github.com/dwsdev/dws/internal/flock"
)

// Update rewrites the file at path while holding the lock dws checksum --write takes too
// (flock.Path: on the directory that holds path): change receives the current contents (nil when
// there is no file yet) and returns the new ones, which are written atomically. Two dws
// processes updating one file at once (pre-commit runs hooks in parallel) both land.
func Update(path string, perm fs.FileMode, change func(old []byte) ([]byte, error)) error {
	unlock, err := flock.Path(path)
	if err != nil {
		return fmt.Errorf("locking %s: %w", path, pathless(err))
	}
	defer unlock()
	old, err := source.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		old, err = nil, nil
	}
	if err != nil {
		return err
	}
	data, err := change(old)
	if err != nil {
		return err
	}
	return WriteFile(path, data, perm)
}
