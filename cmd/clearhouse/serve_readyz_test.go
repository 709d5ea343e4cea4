package main

import (
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestReadyzOnAFullDisk: serve on the embedded default with its data
// directory on a small file system; once the disk is full /readyz answers
// 503 (as the requests that need a new file or new rows would fail), and
// 200 again once room is made.
func TestReadyzOnAFullDisk(t *testing.T) {
	disk := testenv.SmallDisk(t, 8<<20)
	base, _ := startServe(t, disk+"/data")
	if code, body := get(t, base+"/readyz", ""); code != 200 {
		t.Fatalf("readyz with room: %d %s", code, body)
	}
	filler := testenv.FillDisk(t, disk, 8<<10)
	code, body := get(t, base+"/readyz", "")
	if code != 503 || !strings.Contains(body, "SERVICE_UNAVAILABLE") {
		t.Errorf("readyz on a full disk: %d %s, want 503", code, body)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, base+"/readyz", ""); code != 200 {
		t.Errorf("readyz after room was made: %d %s", code, body)
	}
}
