package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// cacheDir is where validate keeps its cache: the directory named by --cache, else
// dws in the user cache directory ($XDG_CACHE_HOME, ~/.cache, ~/Library/Caches).
func cacheDir(flag string) (string, bool) {
	if flag != "" {
		return flag, true
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", false
	}
	return filepath.Join(dir, "dws"), true
}

// buildIdentity names this dws build for the cache: its version and commit, and the
// executable's size and modification time, which tell apart two development builds
// of one commit.
func buildIdentity() string {
	id := version() + " " + commit()
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			id += fmt.Sprintf(" %s %d %d", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	return id
}
