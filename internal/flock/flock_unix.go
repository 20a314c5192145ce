//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package flock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// Lock takes an exclusive flock(2) on name, creating it if needed, and
// returns the function that releases it. The kernel drops the lock if the
// process dies, so a crash never leaves a stale lock behind.
func Lock(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, &os.PathError{Op: "flock", Path: name, Err: err}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}

// Path serialises the processes that replace the file at path (each writes a temporary
// file and renames it into place): it takes an exclusive flock(2) on the directory that
// holds path. A rename into a directory never changes the directory's inode, so every
// writer of path locks the same thing, whatever became of the file, and no lock file is
// left beside path for users to commit. Writers of other files of the same directory
// take turns with them too, which costs nothing at the size of these writes.
//
// Where the file system refuses flock on a directory (Linux's NFS emulates flock with
// POSIX locks, which want a file open for writing), it locks path+".lock" instead, the
// same for every process on that file system.
func Path(path string) (unlock func(), err error) {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return func() {
			_ = syscall.Flock(int(d.Fd()), syscall.LOCK_UN)
			_ = d.Close()
		}, nil
	case errors.Is(err, syscall.EBADF), errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EINVAL):
		_ = d.Close()
		return Lock(path + ".lock")
	}
	_ = d.Close()
	return nil, &os.PathError{Op: "flock", Path: filepath.Dir(path), Err: err}
}
