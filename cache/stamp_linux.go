package cache

import "syscall"

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
	//nolint:unconvert // the field types differ between architectures
	return Stamp{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: int64(st.Size),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}

// DirStampOf stats the directory at path (following links); false when it cannot,
// or it is no directory.
func DirStampOf(path string) (Stamp, bool) { return statOf(path, syscall.S_IFDIR) }
