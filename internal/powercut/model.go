package powercut

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// node is a file or directory under the model's root. The page cache holds
// data and entries; the disk holds durData and durEntries, which an fsync
// of the node sets from what the cache held when the fsync began.
type node struct {
	dir        bool
	data       []byte
	durData    []byte
	entries    map[string]*node
	durEntries map[string]*node
	// durSince is the line where the fsync that set durData or durEntries
	// began. Fsyncs of one file can overlap and end in any order; one that
	// began earlier and ends later makes nothing newer durable, and takes
	// nothing back.
	durSince int
}

func newDir() *node {
	return &node{dir: true, entries: map[string]*node{}, durEntries: map[string]*node{}}
}

// Model replays a recording's effects on the files under one directory.
type Model struct {
	root  string
	top   *node
	calls []Call
	// ops are the calls' effects in the order they happen.
	ops []op
	// applied is how many ops Replay has run on top.
	applied int
	offsets map[int]int64 // file offset of each open descriptor
	syncing map[int]any   // what each fsync in flight (by op index of its start) saw
	// touched is the line where each path was last created, written,
	// renamed to or truncated.
	touched map[string]int
}

type op struct {
	pos   int  // line of the recording where the effect happens
	call  int  // index into calls
	start bool // an fsync's start (its end is another op)
}

// NewModel models the files under root, which holds what initial holds
// (path relative to root → content; directories end in "/"), all of it
// durable, as if the recording started after a sync.
func NewModel(root string, calls []Call, initial map[string][]byte) *Model {
	m := &Model{root: filepath.Clean(root), top: newDir(), calls: calls, offsets: map[int]int64{}, syncing: map[int]any{},
		touched: map[string]int{}}
	for _, name := range slices.Sorted(maps.Keys(initial)) {
		parent, base := m.top, ""
		parts := strings.Split(strings.TrimSuffix(name, "/"), "/")
		for i, p := range parts {
			base = p
			if i == len(parts)-1 {
				break
			}
			parent = parent.entries[p]
		}
		var n *node
		if strings.HasSuffix(name, "/") {
			n = newDir()
		} else {
			n = &node{data: initial[name], durData: initial[name]}
		}
		parent.entries[base], parent.durEntries[base] = n, n
	}
	for i, c := range calls {
		if c.Name == "fsync" || c.Name == "fdatasync" {
			m.ops = append(m.ops, op{pos: c.Entry, call: i, start: true})
		}
		m.ops = append(m.ops, op{pos: c.Exit, call: i})
	}
	slices.SortStableFunc(m.ops, func(a, b op) int { return a.pos - b.pos })
	return m
}

// Snapshot reads root's current content for NewModel.
func Snapshot(root string) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = nil
			return nil
		}
		b, err := os.ReadFile(path)
		out[rel] = b
		return err
	})
	return out, err
}

// Replay applies every effect that happened before line pos (and after the
// previous Replay's pos; positions must not decrease).
func (m *Model) Replay(pos int) error {
	for ; m.applied < len(m.ops) && m.ops[m.applied].pos < pos; m.applied++ {
		if err := m.apply(m.ops[m.applied]); err != nil {
			return err
		}
	}
	return nil
}

// rel returns path relative to the root, or false when it lies outside.
func (m *Model) rel(path string) (string, bool) {
	path = strings.TrimSuffix(path, " (deleted)")
	if !filepath.IsAbs(path) {
		return "", false
	}
	r, err := filepath.Rel(m.root, filepath.Clean(path))
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// lookup finds the node at a path relative to the root in the cache's view.
func (m *Model) lookup(rel string) (parent *node, base string, n *node) {
	if rel == "." {
		return nil, "", m.top
	}
	parent = m.top
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		if parent = parent.entries[p]; parent == nil || !parent.dir {
			return nil, "", nil
		}
	}
	base = parts[len(parts)-1]
	return parent, base, parent.entries[base]
}

// pathArg resolves a (dirfd, "name") pair of arguments to an absolute path.
func pathArg(dirfd, name string) string {
	b, _ := String(name)
	p := string(b)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	_, dir := FD(dirfd)
	return filepath.Join(dir, p)
}

// pathOf is the path a mkdir, unlink or rmdir call (or its *at form) names.
func pathOf(c Call) string {
	if strings.HasSuffix(c.Name, "at") {
		return pathArg(c.Args[0], c.Args[1])
	}
	return pathArg("AT_FDCWD", c.Args[0])
}

func (m *Model) apply(o op) error {
	c := m.calls[o.call]
	if o.start {
		fd, name := FD(c.Args[0])
		_ = fd
		rel, ok := m.rel(name)
		if !ok {
			return nil
		}
		_, _, n := m.lookup(rel)
		switch {
		case n == nil:
		case n.dir:
			m.syncing[o.call] = maps.Clone(n.entries)
		default:
			m.syncing[o.call] = slices.Clone(n.data)
		}
		return nil
	}
	if !c.OK() {
		delete(m.syncing, o.call)
		return nil
	}
	switch c.Name {
	case "open", "creat", "openat":
		fd, name := FD(c.Ret)
		m.offsets[fd] = 0
		rel, ok := m.rel(name)
		flags := "O_CREAT|O_TRUNC" // creat
		switch {
		case c.Name == "open" && len(c.Args) >= 2:
			flags = c.Args[1]
		case c.Name == "openat" && len(c.Args) >= 3:
			flags = c.Args[2]
		}
		if !ok {
			return nil
		}
		parent, base, n := m.lookup(rel)
		if parent == nil && n == nil {
			return fmt.Errorf("powercut: line %d: open of %s whose directory the model lacks", c.Exit+1, rel)
		}
		if n == nil && strings.Contains(flags, "O_CREAT") {
			n = &node{}
			parent.entries[base] = n
			m.touched[rel] = c.Exit
		}
		if n != nil && strings.Contains(flags, "O_TRUNC") {
			n.data = nil
		}
	case "close":
		fd, _ := FD(c.Args[0])
		delete(m.offsets, fd)
	case "lseek":
		fd, _ := FD(c.Args[0])
		m.offsets[fd] = c.RetInt()
	case "write", "pwrite64":
		fd, name := FD(c.Args[0])
		rel, ok := m.rel(name)
		if !ok {
			return nil
		}
		data, truncated := String(c.Args[1])
		written := c.RetInt()
		if truncated && int64(len(data)) < written {
			return fmt.Errorf("powercut: line %d: strace cut the data of a write to %s short (raise -s)", c.Exit+1, rel)
		}
		off := m.offsets[fd]
		if c.Name == "pwrite64" {
			fmt.Sscan(c.Args[3], &off)
		} else {
			m.offsets[fd] = off + written
		}
		_, _, n := m.lookup(rel)
		if n == nil || n.dir {
			return fmt.Errorf("powercut: line %d: write to %s, which the model does not know as a file", c.Exit+1, rel)
		}
		n.data = writeAt(n.data, data[:written], off)
		m.touched[rel] = c.Exit
	case "ftruncate":
		_, name := FD(c.Args[0])
		rel, ok := m.rel(name)
		if !ok {
			return nil
		}
		var size int64
		fmt.Sscan(c.Args[1], &size)
		if _, _, n := m.lookup(rel); n != nil && !n.dir {
			if int64(len(n.data)) > size {
				n.data = slices.Clone(n.data[:size])
			} else {
				n.data = append(n.data, make([]byte, size-int64(len(n.data)))...)
			}
			m.touched[rel] = c.Exit
		}
	case "mkdir", "mkdirat":
		rel, ok := m.rel(pathOf(c))
		if !ok {
			return nil
		}
		if parent, base, n := m.lookup(rel); parent != nil && n == nil {
			parent.entries[base] = newDir()
			m.touched[rel] = c.Exit
		}
	case "unlink", "unlinkat", "rmdir":
		rel, ok := m.rel(pathOf(c))
		if !ok {
			return nil
		}
		if parent, base, _ := m.lookup(rel); parent != nil {
			delete(parent.entries, base)
		}
	case "rename", "renameat", "renameat2":
		fromArg, toArg := pathArg("AT_FDCWD", c.Args[0]), pathArg("AT_FDCWD", c.Args[1])
		if c.Name != "rename" {
			fromArg, toArg = pathArg(c.Args[0], c.Args[1]), pathArg(c.Args[2], c.Args[3])
		}
		from, okFrom := m.rel(fromArg)
		to, okTo := m.rel(toArg)
		if !okFrom || !okTo {
			if okFrom != okTo {
				return fmt.Errorf("powercut: line %d: rename across the model's root", c.Exit+1)
			}
			return nil
		}
		fp, fb, n := m.lookup(from)
		tp, tb, _ := m.lookup(to)
		if n != nil && tp != nil {
			delete(fp.entries, fb)
			tp.entries[tb] = n
			m.touched[to] = c.Exit
		}
	case "fsync", "fdatasync":
		_, name := FD(c.Args[0])
		rel, ok := m.rel(name)
		seen, had := m.syncing[o.call]
		delete(m.syncing, o.call)
		if !ok || !had {
			return nil
		}
		_, _, n := m.lookup(rel)
		if n == nil || c.Entry < n.durSince {
			return nil
		}
		n.durSince = c.Entry
		if n.dir {
			n.durEntries = seen.(map[string]*node)
		} else {
			n.durData = seen.([]byte)
		}
	}
	return nil
}

func writeAt(b, p []byte, off int64) []byte {
	if end := off + int64(len(p)); end > int64(len(b)) {
		b = append(b, make([]byte, end-int64(len(b)))...)
	}
	copy(b[off:], p)
	return b
}

// Volatile reports the paths (relative to the root) whose content or name
// is in the page cache but not yet on disk, in the replayed state: files
// whose bytes differ from their durable bytes, and names that a power cut
// would lose (entries not yet durable, or under a directory that is not).
// Only paths for which want returns true are reported.
func (m *Model) Volatile(want func(rel string) bool) []string {
	var out []string
	var walk func(prefix string, n *node, durable bool)
	walk = func(prefix string, n *node, durable bool) {
		for _, name := range slices.Sorted(maps.Keys(n.entries)) {
			child := n.entries[name]
			rel := prefix + name
			named := durable && n.durEntries[name] == child
			switch {
			case !want(rel):
			case !named:
				out = append(out, rel+" (name not durable)")
			case !child.dir && !bytes.Equal(child.data, child.durData):
				out = append(out, fmt.Sprintf("%s (%d of %d bytes durable)", rel, len(child.durData), len(child.data)))
			}
			if child.dir {
				walk(rel+"/", child, named)
			}
		}
	}
	walk("", m.top, true)
	return out
}

// TouchedSince returns the paths created, written, truncated or renamed
// into place by calls that returned at or after line from, among the
// replayed ones.
func (m *Model) TouchedSince(from int) map[string]bool {
	out := map[string]bool{}
	for rel, pos := range m.touched {
		if pos >= from {
			out[rel] = true
		}
	}
	return out
}

// Materialize writes into dir what the disk holds in the replayed state:
// the durable names, each file with its durable bytes.
func (m *Model) Materialize(dir string, skip func(rel string) bool) error {
	var walk func(path, rel string, n *node) error
	walk = func(path, rel string, n *node) error {
		for name, child := range n.durEntries {
			r := rel + name
			if skip != nil && skip(r) {
				continue
			}
			p := filepath.Join(path, name)
			if child.dir {
				if err := os.Mkdir(p, 0o700); err != nil {
					return err
				}
				if err := walk(p, r+"/", child); err != nil {
					return err
				}
				continue
			}
			if err := os.WriteFile(p, child.durData, 0o600); err != nil {
				return err
			}
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return walk(dir, "", m.top)
}
