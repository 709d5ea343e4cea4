// Package sweep removes the temporary files a crash leaves behind: a
// blob's bytes written to ".tmp-*" beside their final name and never
// renamed, an SFTP upload staged and never handed over. Each would stay on
// the disk for ever, and fill it. Only files untouched for a while go: a
// writer still at work (another replica sharing the directory, a slow
// client) keeps its file's modification time fresh.
package sweep

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// DefaultAge is how long a temporary file must have been untouched to be
// taken for a crash's leftover.
const DefaultAge = time.Hour

// Files walks root and removes every regular file for which isTemp(dir,
// name) holds (dir is its directory's name) and that was last modified
// more than olderThan before now. It returns how many it removed; a file
// or directory that vanishes meanwhile is no error.
func Files(root string, isTemp func(dir, name string) bool, olderThan time.Duration, now time.Time) (int, error) {
	removed := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || !isTemp(filepath.Base(filepath.Dir(path)), d.Name()) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if now.Sub(info.ModTime()) < olderThan {
			return nil
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removed++
		return nil
	})
	return removed, err
}
