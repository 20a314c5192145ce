package main

import (
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// shardFlag is --shard K/N: check only the K-th of N parts of the file set.
func shardFlag() cli.Flag {
	return &cli.StringFlag{Name: "shard", Usage: "check only part K of N of the files (K/N, e.g. 2/4), for N parallel CI jobs"}
}

// shard is a parsed --shard: part k (0-based) of n; n 0 means every file.
type shard struct{ k, n uint64 }

func parseShard(s string) (shard, error) {
	if s == "" {
		return shard{}, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.ParseUint(ks, 10, 32)
	n, err2 := strconv.ParseUint(ns, 10, 32)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return shard{}, usagef("--shard: %q is not K/N with 1 ≤ K ≤ N (2/4: the second of four parts)", s)
	}
	return shard{k - 1, n}, nil
}

// has reports whether the file at path (shown as given; dir is the config's directory)
// is in the shard. A file's part is a hash of its path relative to the config's
// directory, so it depends on nothing but that path: adding or removing other files
// never moves it, and every job of a CI matrix agrees without talking to the others.
func (s shard) has(path, dir string) bool {
	if s.n <= 1 {
		return true
	}
	p := path
	if abs, err := filepath.Abs(path); err == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil {
			p = rel
		}
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(filepath.ToSlash(filepath.Clean(p))))
	return h.Sum64()%s.n == s.k
}
