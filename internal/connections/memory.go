package connections

import (
	"bufio"
	"context"
	"os"
	"strings"
	"sync"
)

// memory is a Memory kept in process, optionally appended to a file so it
// survives restarts (one line per processed file, synced before
// Remember returns).
type memory struct {
	mu   sync.Mutex
	seen map[string]bool
	file *os.File
}

// NewMemory returns a Memory kept in process only.
func NewMemory() Memory { return &memory{seen: map[string]bool{}} }

// OpenMemoryFile returns a Memory kept in the file at path (created if
// missing).
func OpenMemoryFile(path string) (Memory, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	m := &memory{seen: map[string]bool{}, file: f}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		m.seen[sc.Text()] = true
	}
	return m, sc.Err()
}

func (m *memory) Seen(_ context.Context, connectionID, key string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[connectionID+"\t"+key], nil
}

func (m *memory) Remember(_ context.Context, connectionID, key string) error {
	k := connectionID + "\t" + strings.ReplaceAll(key, "\n", " ")
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen[k] {
		return nil
	}
	if m.file != nil {
		if _, err := m.file.WriteString(k + "\n"); err != nil {
			return err
		}
		if err := m.file.Sync(); err != nil {
			return err
		}
	}
	m.seen[k] = true
	return nil
}
