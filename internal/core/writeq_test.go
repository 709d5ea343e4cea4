package core

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
)

// slowCommits is a blob store whose commits of keys under "slow/" wait
// until release is closed, as fsyncs do on a busy disk.
type slowCommits struct {
	blob.Store
	release chan struct{}
	mu      sync.Mutex
	done    []string
}

type slowWriter struct {
	blob.Writer
	s   *slowCommits
	key string
}

func (s *slowCommits) Create(ctx context.Context, key, contentType string) (blob.Writer, error) {
	w, err := s.Store.Create(ctx, key, contentType)
	return &slowWriter{Writer: w, s: s, key: key}, err
}

func (w *slowWriter) Commit() error {
	if strings.HasPrefix(w.key, "slow/") {
		<-w.s.release
	}
	err := w.Writer.Commit()
	w.s.mu.Lock()
	w.s.done = append(w.s.done, w.key)
	w.s.mu.Unlock()
	return err
}

// TestBackgroundCommitsDoNotStallTheWriter: blobs committing in the
// background that wait for the disk hold up neither the writes queued
// behind them nor a blob committed meanwhile, up to maxPendingCommits of
// them (with the committers' slots alone, the writer waited as soon as
// maxBackgroundCommits were in flight: a file of sets of 1,000 claims
// finishes four blobs a set); and every background commit is done, with
// its outcome, before the queue closes.
func TestBackgroundCommitsDoNotStallTheWriter(t *testing.T) {
	ctx := context.Background()
	fs, err := blob.Open(ctx, "file://"+t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	s := &slowCommits{Store: fs, release: make(chan struct{})}
	q := newWriteQueue(s)
	const slow = 4 * maxBackgroundCommits
	outcomes := make([]<-chan error, slow)
	fast := make(chan error, 1)
	go func() {
		for i := range slow {
			w, _ := q.Create(ctx, "slow/"+string(rune('a'+i)), "application/json")
			io.WriteString(w, "slow blob")
			outcomes[i] = w.(*queuedWriter).commitAsync()
		}
		w, _ := q.Create(ctx, "fast", "application/json")
		io.WriteString(w, "fast blob")
		fast <- w.Commit()
	}()
	select {
	case err := <-fast:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(s.release)
		t.Fatalf("a blob committed behind %d background commits waiting for the disk was held up", slow)
	}
	close(s.release)
	q.close()
	for i, c := range outcomes {
		select {
		case err := <-c:
			if err != nil {
				t.Errorf("background commit %d: %v", i, err)
			}
		default:
			t.Errorf("background commit %d had no outcome when the queue closed", i)
		}
	}
	if len(s.done) != slow+1 {
		t.Errorf("%d commits done, want %d", len(s.done), slow+1)
	}
	for i := range slow {
		r, err := fs.Get(ctx, "slow/"+string(rune('a'+i)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if string(b) != "slow blob" {
			t.Errorf("slow blob %d reads %q", i, b)
		}
	}
}
