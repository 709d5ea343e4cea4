//go:build linux || darwin || freebsd

package store

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// signalSize is the signal file's length: one 8-byte number.
const signalSize = 8

// mapSignal maps the number in the file at path (created, zero, if
// missing) shared with every process that maps it. A new file gets the
// database's (db's) permissions, and when made by root its owner, as SQLite
// gives its -wal and -shm files: every process that may write the database
// may raise the signal. still reports whether path names the mapped file
// yet (it was not deleted or replaced since).
func mapSignal(path string, db os.FileInfo) (n *atomic.Int64, unmap func() error, still func() bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, db.Mode().Perm())
	if err != nil {
		return nil, nil, nil, err
	}
	defer f.Close() // the mapping outlives the descriptor
	if st, ok := db.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
	st, err := f.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	id, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, nil, nil, errNoSharedMapping
	}
	dev, ino := id.Dev, id.Ino
	still = func() bool {
		var now syscall.Stat_t
		return syscall.Stat(path, &now) == nil && now.Dev == dev && now.Ino == ino
	}
	// The umask narrowed a new file's mode; SQLite sets its -wal and -shm
	// files' to the database's after opening them (robust_open's fchmod),
	// so do the same: otherwise a process that can open -shm could not
	// map the signal, and its open would fail.
	if st.Size() == 0 && st.Mode().Perm() != db.Mode().Perm() {
		_ = f.Chmod(db.Mode().Perm())
	}
	// Growing a file others may have just grown and written is safe:
	// truncating to the length it already has changes nothing.
	if st.Size() < signalSize {
		if err := f.Truncate(signalSize); err != nil {
			return nil, nil, nil, err
		}
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, signalSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(mem) < signalSize {
		_ = syscall.Munmap(mem)
		return nil, nil, nil, errors.New("store: scenarios signal: short mapping")
	}
	// The mapping is page-aligned, so the number is 8-byte aligned.
	return (*atomic.Int64)(unsafe.Pointer(&mem[0])), func() error { return syscall.Munmap(mem) }, still, nil
}
