package blob

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Durability on the directory backend. A blob is on stable storage once
// its bytes are fsynced and the directory entry that names it is fsynced
// too (a new file's name lives in its directory, and a directory made for
// it lives in its parent). Put, Create's Commit and PutNew return only
// then, so a record committed after them never names a file that a power
// cut can take back. A successful PUT is the durable point on S3.
//
// Directory fsyncs are shared: callers that need the same directory synced
// while one sync runs wait for the next one, which covers them all (a
// burst of claims writing into one hour's directory pays for one or two
// directory syncs, not one each).

// dirSyncs coalesces the fsyncs of each directory.
var dirSyncs = dirSyncer{dirs: map[string]*dirRounds{}}

type dirSyncer struct {
	mu   sync.Mutex
	dirs map[string]*dirRounds
}

// dirRounds is one directory's sync in progress (running) and the round
// that starts after it (next), which callers arriving meanwhile join.
type dirRounds struct {
	running bool
	next    *syncRound
}

type syncRound struct {
	done chan struct{}
	err  error
}

// syncDir returns once an fsync of dir that started after the call has
// finished: every entry made in dir before the call is then durable.
func syncDir(dir string) error {
	return dirSyncs.sync(dir)
}

func (s *dirSyncer) sync(dir string) error {
	s.mu.Lock()
	d := s.dirs[dir]
	if d == nil {
		d = &dirRounds{}
		s.dirs[dir] = d
	}
	if d.next == nil {
		d.next = &syncRound{done: make(chan struct{})}
	}
	r := d.next
	if !d.running {
		d.running, d.next = true, nil
		s.mu.Unlock()
		s.run(dir, d, r)
	} else {
		s.mu.Unlock()
	}
	<-r.done
	return r.err
}

// run syncs dir for round r, then hands the round that gathered meanwhile
// to a new goroutine, so no caller waits for more than the sync after its
// call.
func (s *dirSyncer) run(dir string, d *dirRounds, r *syncRound) {
	r.err = fsyncPath(dir)
	close(r.done)
	s.mu.Lock()
	next := d.next
	if next == nil {
		d.running = false
		delete(s.dirs, dir)
		s.mu.Unlock()
		return
	}
	d.next = nil
	s.mu.Unlock()
	go s.run(dir, d, next)
}

// fsyncPath fsyncs the file or directory at path.
func fsyncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// durableDirs are the directories this process knows to be named durably
// in their parents (it made them and synced the parent, or synced the
// parent on finding them). Bounded: forgetting costs one extra sync.
var durableDirs = struct {
	sync.Mutex
	known map[string]bool
}{known: map[string]bool{}}

const maxDurableDirs = 4096

// ensureDir makes dir and any missing parents, and returns once each of
// them is named durably in its parent. A directory that already exists but
// that this process has not seen made durable gets its parent synced too:
// another goroutine may have just made it and not yet synced the parent.
func ensureDir(dir string) error {
	chain, err := makeDir(dir)
	if err != nil {
		return err
	}
	return syncParents(chain)
}

// makeDir makes dir and any missing parents without waiting for the disk:
// it returns the directories (deepest first) whose names syncParents must
// still make durable, before anything that names a file inside them is
// reported stored. A streamed write (createFile) makes its directory this
// way and syncs it with the file in Commit, which runs beside the writes
// (an inbound file of sets of 1,000 claims makes two directories a set;
// synced at creation, their parents' fsyncs held up the blob writer, and so
// the pass, for about a third of its time).
func makeDir(dir string) ([]string, error) {
	var chain []string // dir and the parents above it up to a known one, deepest first
	for d := dir; ; d = filepath.Dir(d) {
		if isDurableDir(d) {
			break
		}
		chain = append(chain, d)
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(chain) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return chain, nil
}

// syncParents syncs the parent of each directory of chain (makeDir's) and
// remembers them as durable.
func syncParents(chain []string) error {
	if len(chain) == 0 {
		return nil
	}
	for i := len(chain) - 1; i >= 0; i-- {
		if err := syncDir(filepath.Dir(chain[i])); err != nil {
			return err
		}
	}
	durableDirs.Lock()
	if len(durableDirs.known) >= maxDurableDirs {
		clear(durableDirs.known)
	}
	for _, d := range chain {
		durableDirs.known[d] = true
	}
	durableDirs.Unlock()
	return nil
}

func isDurableDir(dir string) bool {
	durableDirs.Lock()
	defer durableDirs.Unlock()
	return durableDirs.known[dir]
}
