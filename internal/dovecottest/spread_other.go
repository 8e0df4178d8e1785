//go:build !(linux && (amd64 || arm64))

package dovecottest

import "errors"

// spreadOnDisk is for Linux on amd64 and arm64 (spread_linux.go);
// elsewhere directories stay where the filesystem puts them.
func spreadOnDisk(dir string) error {
	return errors.New("dovecottest: the top-directory flag is set on Linux (amd64, arm64) only")
}

// topDirectory is for Linux on amd64 and arm64 (spread_linux.go).
func topDirectory(dir string) (bool, error) {
	return false, errors.New("dovecottest: the top-directory flag is set on Linux (amd64, arm64) only")
}
