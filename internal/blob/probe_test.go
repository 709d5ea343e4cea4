package blob_test

import (
	"context"
	"os"
	"testing"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestProbeOnAFullDisk: Probe fails once the data directory's file system
// has no room for a new file, and passes again when room is made.
func TestProbeOnAFullDisk(t *testing.T) {
	ctx := context.Background()
	disk := testenv.SmallDisk(t, 1<<20)
	s, err := blob.Open(ctx, "", disk)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := blob.Probe(ctx, s); err != nil {
		t.Fatalf("Probe with room: %v", err)
	}
	filler := testenv.FillDisk(t, disk, 16<<10)
	if err := blob.Probe(ctx, s); err == nil {
		t.Fatal("Probe succeeded on a full disk")
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := blob.Probe(ctx, s); err != nil {
		t.Errorf("Probe after room was made: %v", err)
	}
	entries, _ := os.ReadDir(disk + "/" + blob.DefaultDir)
	if len(entries) != 0 {
		t.Errorf("the probe left %d files behind", len(entries))
	}
}
