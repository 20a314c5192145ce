//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package flock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// lockWait bounds how long Lock waits for another writer.
const lockWait = 30 * time.Second

// Lock is the portable fallback where flock(2) is not available: the lock
// is held by whoever creates name exclusively, and released by removing it.
// Unlike flock it survives a crash, so after lockWait the error tells the user
// which file to remove.
func Lock(name string) (unlock func(), err error) {
	deadline := time.Now().Add(lockWait)
	delay := time.Millisecond
	for {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_ = f.Close()
			return func() { _ = os.Remove(name) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is held by another dws; remove it if no dws is running", name)
		}
		time.Sleep(delay)
		if delay < 50*time.Millisecond {
			delay *= 2
		}
	}
}

// Path serialises the processes that replace the file at path, with Lock on
// path+".lock", which is removed again when the lock is released.
func Path(path string) (unlock func(), err error) { return Lock(path + ".lock") }
