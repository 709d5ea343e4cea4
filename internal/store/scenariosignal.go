package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
)

// scenariosSignal spares SQLite's test-mode checks their read of the
// scenarios version (a read transaction on the pool, the largest part of
// a cached scenario lookup) while keeping its promise: a change to any
// account's scenario file committed by any process on the database is
// seen by the next check that starts after the commit.
//
// The signal is one number, raised, that every process using the
// database maps from a file beside it (the database's path plus
// scenariosSignalSuffix): SQLite's WAL needs the processes on one host
// already (its -shm file is mapped the same way).
//
//   - A change raises the version inside its transaction
//     (bumpMockScenariosVersion) and, still inside it, raises the signal
//     to at least the new version: before the commit, so the signal is
//     never below a committed version.
//   - A reader that finds the signal equal to a version it has read
//     committed knows no change has committed since that version (any
//     such change would have raised the signal past it, before its
//     commit, which came before this check began), and uses the version
//     without reading it. Otherwise it reads the version as before and
//     remembers it; it also raises the signal to it, which keeps the
//     invariant (the version read is committed) and lets a new file's
//     signal catch up with the database.
//
// A change that rolls back, or a process killed between its signal and
// its commit, leaves the signal above every committed version: readers
// then read the version on every check, as before, until the next change
// commits that version. A database restored to an older version does the
// same. A change by a program that does not raise the signal (an older
// clearhouse) would not be seen: the file and the database go together.
//
// The file must stay the one mapped: deleted or replaced while a process
// has it mapped, the processes that open the database afterwards raise and
// read another file. So a check trusts the signal only while the path
// still names the file it mapped (one stat), and reads the version
// otherwise; a change also raises the file the path names now.
type scenariosSignal struct {
	raised *atomic.Int64 // in the shared mapping
	// known is a committed version this process has read (-1: none).
	known atomic.Int64
	unmap func() error
	// still reports whether path names the mapped file yet.
	still func() bool
	path  string
	db    os.FileInfo
}

// scenariosSignalSuffix names the signal's file beside the database.
const scenariosSignalSuffix = "-scenarios"

// openScenariosSignal maps the signal of the SQLite database at path
// (after its symbolic links: SQLite's own -wal and -shm files follow them
// too). It returns nil, nil where there is none to map (an in-memory
// database, a platform without shared mappings): every check then reads the
// version. A file that cannot be mapped is an error, as an -shm file SQLite
// cannot open is: a process that changed scenarios without raising the
// signal would leave the others answering from the old file.
func openScenariosSignal(path string) (*scenariosSignal, error) {
	if path == "" || strings.HasPrefix(path, ":memory:") || strings.Contains(path, "mode=memory") {
		return nil, nil
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	db, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: scenarios signal: %w", err)
	}
	raised, unmap, still, err := mapSignal(path+scenariosSignalSuffix, db)
	switch {
	case errors.Is(err, errNoSharedMapping):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("store: scenarios signal: %w", err)
	}
	s := &scenariosSignal{raised: raised, unmap: unmap, still: still, path: path + scenariosSignalSuffix, db: db}
	s.known.Store(-1)
	return s, nil
}

// errNoSharedMapping: this platform has no mapping shared between
// processes (mapSignal).
var errNoSharedMapping = errors.New("no shared file mappings on this platform")

// current returns the version without reading it, when it can.
func (s *scenariosSignal) current() (int64, bool) {
	v := s.raised.Load()
	return v, v == s.known.Load() && s.still()
}

// read records a version read committed.
func (s *scenariosSignal) read(v int64) {
	raiseTo(s.raised, v)
	raiseTo(&s.known, v)
}

// changing records a version a change's transaction has written, before
// it commits. When the path no longer names the mapped file, the file it
// names now is raised too (made if missing), for the processes that
// mapped it; one that cannot be is the change's error, as a signal that
// cannot be mapped fails the open.
func (s *scenariosSignal) changing(v int64) error {
	raiseTo(s.raised, v)
	if s.still() {
		return nil
	}
	now, unmap, _, err := mapSignal(s.path, s.db)
	if err != nil {
		return fmt.Errorf("store: scenarios signal: %w", err)
	}
	raiseTo(now, v)
	return unmap()
}

func (s *scenariosSignal) close() error {
	if s == nil {
		return nil
	}
	return s.unmap()
}

// raiseTo sets *n to v if that is more.
func raiseTo(n *atomic.Int64, v int64) {
	for {
		old := n.Load()
		if old >= v || n.CompareAndSwap(old, v) {
			return
		}
	}
}
