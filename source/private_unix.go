//go:build unix

package source

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// private says why the file st describes is not the user's own ("" when it is).
func private(st fs.FileInfo) string {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "its owner is unknown"
	}
	return privateStat(sys)
}

// privateStat says why the file st describes is not the user's own ("" when it is):
// another user owns it, or its group or others may write it.
func privateStat(st *syscall.Stat_t) string {
	//nolint:unconvert // the field types differ between systems
	uid, mode := uint32(st.Uid), uint32(st.Mode)
	if me := os.Geteuid(); uid != uint32(me) {
		return fmt.Sprintf("owned by uid %d, not by this user (uid %d)", uid, me)
	}
	if mode&0o022 != 0 {
		return fmt.Sprintf("writable by others than its owner (mode %04o)", mode&0o7777)
	}
	return ""
}
