// Package flock serialises writers of one file across processes: the lockfile and
// baseline writers, and the cache's index.
package flock
