package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// SmallDisk mounts a tmpfs of size bytes in a new temporary directory and
// returns its path (unmounted when the test ends), so a test can fill a
// real file system. It skips the test where mounting is not allowed (not
// root, no mount(8)), unless CI=true.
func SmallDisk(t testing.TB, size int64) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+strconv.FormatInt(size, 10), "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount a %d-byte tmpfs: %v %s", size, err, out)
		}
		t.Skipf("cannot mount a tmpfs here (%v %s); run as root to test a full disk", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// FillDisk writes a file in dir until the file system is full but for
// about leave bytes, and returns the file's path.
func FillDisk(t testing.TB, dir string, leave int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		free, err := FreeBytes(dir)
		if err != nil {
			t.Fatal(err)
		}
		if free <= leave {
			return path
		}
		if _, err := f.Write(chunk); err != nil {
			return path // full
		}
	}
}
