//go:build unix

package source

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
)

// readRegular opens path without waiting for a writer (should it have become a named
// pipe since it was looked at), checks again that it is a regular file (and, when
// private, the user's own, following no final link) and reads up to limit bytes.
// It talks to the kernel directly: an *os.File would also offer each file to the
// network poller (a failing epoll_ctl) and read once more to see the end, three
// system calls of eight in a run whose results are cached.
// When text is not nil, the bytes are written to it (grown to the file's size first)
// instead of returned; when opened is not nil, it is set to what the open file was.
func readRegular(path string, limit int64, private bool, text *strings.Builder, opened *Opened) ([]byte, error) {
	flags := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if private {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := retry(func() (int, error) { return syscall.Open(path, flags, 0) })
	if private && errors.Is(err, syscall.ELOOP) {
		return nil, &ReadError{Path: path, Problem: "refused: a symbolic link", Err: ErrNotRegular}
	}
	if err != nil {
		return nil, readError(path, &fs.PathError{Op: "open", Path: path, Err: err})
	}
	defer syscall.Close(fd) //nolint:errcheck // read-only: a close error loses nothing
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, readError(path, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, readError(path, err)
		}
		return nil, regular(path, fi)
	}
	if private {
		if why := privateStat(&st); why != "" {
			return nil, notPrivate(path, why)
		}
	}
	if opened != nil {
		//nolint:unconvert // the field types differ between architectures
		*opened = Opened{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: int64(st.Size),
			Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
	}
	size := st.Size
	if size > limit {
		return nil, tooLarge(path, size, limit)
	}
	if text != nil {
		return nil, readText(path, fd, size, limit, text)
	}
	data := make([]byte, 0, size+1)
	for {
		n, err := retry(func() (int, error) { return syscall.Read(fd, data[len(data):cap(data)]) })
		if err != nil {
			return nil, readError(path, err)
		}
		data = data[:len(data)+n]
		// The size fstat gave is the file as read; a file that grows meanwhile is
		// read as it was, which a read a moment earlier would have seen anyway.
		if n == 0 || int64(len(data)) == size {
			break
		}
		if int64(len(data)) > limit {
			return nil, tooLarge(path, -1, limit)
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
	return data, nil
}

// readText is readRegular's loop for a string: the bytes go through a pooled buffer
// into text, so that the string is the only allocation of the file's size.
func readText(path string, fd int, size, limit int64, text *strings.Builder) error {
	text.Grow(int(size))
	buf := readBufs.Get().(*[readBuf]byte)
	defer readBufs.Put(buf)
	for {
		// Up to one byte past the size fstat gave, as readRegular's loop reads.
		want := buf[:]
		if rest := size + 1 - int64(text.Len()); rest > 0 && rest < int64(len(want)) {
			want = want[:rest]
		}
		n, err := retry(func() (int, error) { return syscall.Read(fd, want) })
		if err != nil {
			return readError(path, err)
		}
		text.Write(want[:n])
		if n == 0 || int64(text.Len()) == size {
			return nil
		}
		if int64(text.Len()) > limit {
			return tooLarge(path, -1, limit)
		}
	}
}

// readBuf is the size of readText's buffer.
const readBuf = 64 << 10

var readBufs = sync.Pool{New: func() any { return new([readBuf]byte) }}

// retry repeats a system call interrupted by a signal (the Go runtime's preemption
// sends them).
func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if !errors.Is(err, syscall.EINTR) {
			return n, err
		}
	}
}
