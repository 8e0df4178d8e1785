//go:build linux && (amd64 || arm64)

package dovecottest

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// ext4Magic is the f_type statfs gives for ext2, ext3 and ext4.
const ext4Magic = 0xef53

// onExt4 says whether dir is on an ext2, ext3 or ext4 filesystem, where
// spreadOnDisk must succeed.
func onExt4(dir string) (bool, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false, err
	}
	return st.Type == ext4Magic, nil
}

// The inode flags ioctls of Linux (linux/fs.h: _IOR and _IOW of 'f', 1 and 2
// on a long, as amd64 and arm64 encode them) and the flag that marks the top
// of a directory hierarchy (chattr +T).
const (
	fsIocGetFlags = 0x80086601
	fsIocSetFlags = 0x40086602
	fsTopdirFlag  = 0x00020000
)

// spreadOnDisk marks dir as the top of a directory hierarchy (chattr +T),
// so that ext4 places each directory made in it as it places one made at
// the filesystem's root: in the group with the fewest directories among
// those with more free inodes and blocks than the average, the search
// starting where the new directory's name hashes to, rather than near dir.
// It fails on filesystems without the flag (ENOTTY, EOPNOTSUPP); see
// StartServer for why it matters.
func spreadOnDisk(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	var flags int32
	if err := ioctl(f, fsIocGetFlags, &flags); err != nil {
		return fmt.Errorf("dovecottest: %s: reading the inode flags: %w", dir, err)
	}
	flags |= fsTopdirFlag
	if err := ioctl(f, fsIocSetFlags, &flags); err != nil {
		return fmt.Errorf("dovecottest: %s: setting the top-directory flag: %w", dir, err)
	}
	return nil
}

// topDirectory says whether dir carries the top-of-hierarchy flag.
func topDirectory(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var flags int32
	if err := ioctl(f, fsIocGetFlags, &flags); err != nil {
		return false, err
	}
	return flags&fsTopdirFlag != 0, nil
}

func ioctl(f *os.File, req uintptr, flags *int32) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(unsafe.Pointer(flags))); errno != 0 {
		return errno
	}
	return nil
}
