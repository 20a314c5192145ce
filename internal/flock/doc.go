// Package flock serialises writers of one file across processes: the lockfile and
// baseline writers (Path: a lock on their directory, so nothing is left beside them),
// and the cache's index (Lock: a lock file of its own, in the cache directory).
package flock
