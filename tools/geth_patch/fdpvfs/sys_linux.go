package fdpvfs

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fcntl commands for per-inode write-life hints (linux/fcntl.h:
// F_LINUX_SPECIFIC_BASE + 11 / + 12). The argument is a pointer to a u64.
const (
	fGetRWHint = 1035
	fSetRWHint = 1036
)

// SetHint sets the write-life hint of the inode behind fd (0..MaxHint).
// The hint is an inode property: every open file of that inode shares it and
// it lasts while the inode stays in memory.
func SetHint(fd uintptr, hint uint64) error {
	_, _, errno := unix.Syscall(unix.SYS_FCNTL, fd, fSetRWHint, uintptr(unsafe.Pointer(&hint)))
	if errno != 0 {
		return errno
	}
	return nil
}

// GetHint returns the write-life hint of the inode behind fd.
func GetHint(fd uintptr) (uint64, error) {
	var hint uint64
	_, _, errno := unix.Syscall(unix.SYS_FCNTL, fd, fGetRWHint, uintptr(unsafe.Pointer(&hint)))
	if errno != 0 {
		return 0, errno
	}
	return hint, nil
}

// MonotonicNs is CLOCK_MONOTONIC in nanoseconds: the clock of the event log,
// the stats and ethstate's marker sidecar (the block tracer can be set to it
// too, e.g. ftrace's "mono" trace_clock).
func MonotonicNs() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// inodeOf returns the inode number behind fd, or 0.
func inodeOf(fd uintptr) uint64 {
	var st unix.Stat_t
	if err := unix.Fstat(int(fd), &st); err != nil {
		return 0
	}
	return st.Ino
}

// swapFD makes fd refer to a freshly created file at path (O_TRUNC), so that
// every holder of the fd number, including Pebble's syncing file that cached
// it, writes to the new file from now on.
func swapFD(fd uintptr, path string) error {
	nfd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o666)
	if err != nil {
		return err
	}
	defer unix.Close(nfd)
	return unix.Dup3(nfd, int(fd), unix.O_CLOEXEC)
}
