//go:build !(linux && (amd64 || arm64))

package game

import "errors"

// errNoEvict is what evict returns here: dropping a file from the page cache is done only
// on Linux (amd64, arm64).
var errNoEvict = errors.New("evicting a file from the page cache is not supported here")

// evict would drop a file's pages from the page cache; see scale_linux_test.go.
func evict(path string) error { return errNoEvict }
