package blob

import (
	"os"

	"golang.org/x/sys/unix"
)

// setDirect turns O_DIRECT on or off for f's later writes.
func setDirect(f *os.File, on bool) error {
	fd := f.Fd()
	fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	if on {
		fl |= unix.O_DIRECT
	} else {
		fl &^= unix.O_DIRECT
	}
	_, err = unix.FcntlInt(fd, unix.F_SETFL, fl)
	return err
}

// newDirectBuf maps an anonymous buffer of directSize bytes: page-aligned,
// as O_DIRECT needs, and outside the Go heap.
func newDirectBuf() ([]byte, error) {
	return unix.Mmap(-1, 0, directSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
}

func freeDirectBuf(b []byte) { _ = unix.Munmap(b) }
