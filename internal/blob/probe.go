package blob

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
)

// probeSize is the readiness probe's file: a few file-system blocks.
const probeSize = 64 << 10

// Probe checks that the store can take a new file, as an inbound file or a
// claim needs: on a directory it writes a small file of fresh blocks,
// syncs it and removes it, so a full disk or a read-only file system fails
// here (and /readyz says not ready) instead of in the next request. Other
// backends (S3, memory) have no disk of ours to fill; Probe is a no-op
// there.
func Probe(ctx context.Context, s Store) error {
	k, ok := unwrap(s).(bucket)
	if !ok || k.dir == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.CreateTemp(k.dir, ".readyz-*")
	if err != nil {
		return fmt.Errorf("blob: cannot create a file in %s: %w", k.dir, err)
	}
	defer os.Remove(f.Name())
	data := make([]byte, probeSize)
	if _, err := rand.Read(data); err != nil {
		f.Close()
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("blob: cannot write a file in %s: %w", k.dir, err)
	}
	return nil
}
