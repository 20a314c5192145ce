package cache

import (
	"os"
	"syscall"
)

// StampOf stats the file at path (following links); false when it cannot, or it is
// no regular file.
func StampOf(path string) (Stamp, bool) { return statOf(path, syscall.S_IFREG) }

// statOf stats path (following links); false when it cannot, or it is not of the
// type kind (syscall.S_IFREG, S_IFDIR).
func statOf(path string, kind uint32) (Stamp, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || st.Mode&syscall.S_IFMT != kind {
			return Stamp{}, false
		}
		break
	}
	return stampOfStat(&st), true
}

// DirStampOfFile stats the open directory f; false when it cannot, or it is no
// directory. Taken before f is read, it is the stamp of what is read, whatever has
// been mounted over or renamed to f's path since it was opened.
func DirStampOfFile(f *os.File) (Stamp, bool) {
	conn, err := f.SyscallConn()
	if err != nil {
		return Stamp{}, false
	}
	var st syscall.Stat_t
	var serr error
	if err := conn.Control(func(fd uintptr) {
		for {
			if serr = syscall.Fstat(int(fd), &st); serr != syscall.EINTR {
				return
			}
		}
	}); err != nil || serr != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return Stamp{}, false
	}
	return stampOfStat(&st), true
}

func stampOfStat(st *syscall.Stat_t) Stamp {
	//nolint:unconvert // the field types differ between architectures
	return Stamp{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: int64(st.Size),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
}

// DirStampOf stats the directory at path (following links); false when it cannot,
// or it is no directory.
func DirStampOf(path string) (Stamp, bool) { return statOf(path, syscall.S_IFDIR) }
