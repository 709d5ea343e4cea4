package store

import (
	"os"
	"syscall"
)

// fdatasync is fdatasync(2): f's data and the metadata needed to read it.
func fdatasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
