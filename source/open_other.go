//go:build !unix

package source

import "os"

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
