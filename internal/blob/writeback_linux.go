package blob

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing f's bytes [off, off+n) to
// the disk without waiting for it (sync_file_range(2) with
// SYNC_FILE_RANGE_WRITE). It guarantees nothing: Commit's fsync still does;
// it only moves the disk's work earlier. Errors are left to that fsync.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
