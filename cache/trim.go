package cache

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dwsdev/dws/source"
)

// The names of a scope's files: "<32 hex digits>.idx", its journal and lock beside
// it, and the temporary files it is written to. trim deletes nothing else.
const (
	indexSuffix   = ".idx"
	journalSuffix = ".journal"
	lockSuffix    = ".lock"
	tmpInfix      = ".tmp-"
)

// dwsFile says which of a scope's files name is (indexSuffix, journalSuffix,
// lockSuffix, tmpInfix), or "" when dws did not name it.
func dwsFile(name string) string {
	const hexLen = 32
	if len(name) < hexLen+len(indexSuffix) || name[hexLen:hexLen+len(indexSuffix)] != indexSuffix {
		return ""
	}
	for _, r := range name[:hexLen] {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return ""
		}
	}
	switch rest := name[hexLen+len(indexSuffix):]; {
	case rest == "":
		return indexSuffix
	case rest == journalSuffix:
		return journalSuffix
	case rest == lockSuffix:
		return lockSuffix
	case strings.HasPrefix(rest, tmpInfix) && len(rest) > len(tmpInfix) &&
		strings.Trim(rest[len(tmpInfix):], "0123456789") == "":
		return tmpInfix
	}
	return ""
}

// isIndex says whether the file at path starts as every index and journal dws wrote
// does, whatever its version.
func isIndex(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close() //nolint:errcheck // read-only
	const marker = "dws-cache "
	head := make([]byte, len(marker))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == marker
}

// trim removes the least recently written scopes of dir (an index and its journal)
// until they take MaxBytes or less, never keep's (the index just written), and any
// temporary file a killed process left over an hour ago. It deletes only the files
// dws wrote there: named as dwsFile names them, the user's own (Private), and for an
// index or journal, one that starts as one does; a cache directory may be one the
// user named, holding other files.
func trim(dir, keep string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type file struct {
		path string
		size int64
	}
	type scope struct {
		index string
		files []file
		mod   time.Time
	}
	scopes := map[string]*scope{}
	var locks []string
	var total int64
	for _, de := range des {
		kind := dwsFile(de.Name())
		if kind == "" {
			continue
		}
		info, err := de.Info()
		p := filepath.Join(dir, de.Name())
		if err != nil || !info.Mode().IsRegular() || source.Private(p, info) != nil {
			continue
		}
		index := p[:len(p)-len(de.Name())+32+len(indexSuffix)]
		switch kind {
		case tmpInfix:
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p) //nolint:errcheck // another run may have taken it
			}
		case lockSuffix:
			if info.Size() == 0 {
				locks = append(locks, index)
			}
		case indexSuffix, journalSuffix:
			if index == keep || isIndex(p) {
				s := scopes[index]
				if s == nil {
					s = &scope{index: index}
					scopes[index] = s
				}
				s.files = append(s.files, file{p, info.Size()})
				if info.ModTime().After(s.mod) {
					s.mod = info.ModTime()
				}
				total += info.Size()
			}
		}
	}
	// A lock is kept beside a live index or journal (deleting it would let two
	// writers lock two files), and removed with a trimmed one.
	for _, index := range locks {
		if !exists(index) && !exists(index+journalSuffix) {
			os.Remove(index + lockSuffix) //nolint:errcheck // another run may have taken it
		}
	}
	list := make([]*scope, 0, len(scopes))
	for _, s := range scopes {
		list = append(list, s)
	}
	slices.SortFunc(list, func(a, b *scope) int {
		if c := a.mod.Compare(b.mod); c != 0 {
			return c
		}
		return strings.Compare(a.index, b.index)
	})
	for _, s := range list {
		if total <= MaxBytes {
			break
		}
		if s.index == keep {
			continue
		}
		for _, f := range s.files {
			if err := os.Remove(f.path); err == nil || errors.Is(err, os.ErrNotExist) {
				total -= f.size
			}
		}
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, os.ErrNotExist)
}
