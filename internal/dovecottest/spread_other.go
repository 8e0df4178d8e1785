//go:build !(linux && (amd64 || arm64))

package dovecottest

import (
	"errors"
	"fmt"
)

// errNoTopDirectory says the flag is not set on this system.
var errNoTopDirectory = fmt.Errorf("dovecottest: the top-directory flag is set on Linux (amd64, arm64) only: %w", errors.ErrUnsupported)

// spreadOnDisk is for Linux on amd64 and arm64 (spread_linux.go);
// elsewhere directories stay where the filesystem puts them.
func spreadOnDisk(dir string) error { return errNoTopDirectory }

// topDirectory is for Linux on amd64 and arm64 (spread_linux.go).
func topDirectory(dir string) (bool, error) { return false, errNoTopDirectory }

// onExt4 is for Linux (spread_linux.go): elsewhere no filesystem is taken
// for ext4.
func onExt4(dir string) (bool, error) { return false, nil }
