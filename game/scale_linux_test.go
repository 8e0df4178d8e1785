//go:build linux && (amd64 || arm64)

package game

import (
	"fmt"
	"os"
	"syscall"
)

// evict drops a file's pages from the page cache (posix_fadvise POSIX_FADV_DONTNEED), so
// that the next reads come from the disk. Pages still dirty stay; the store syncs every
// commit, so a closed database has none.
func evict(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	const dontNeed = 4 // POSIX_FADV_DONTNEED
	if _, _, e := syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, dontNeed, 0, 0); e != 0 {
		return fmt.Errorf("fadvise %s: %w", path, e)
	}
	return nil
}

// errNoEvict is what evict returns where it cannot work; never here.
var errNoEvict = fmt.Errorf("evicting a file from the page cache is not supported here")
