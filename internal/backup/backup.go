// Package backup copies the embedded default's data directory (the SQLite
// database and the blob files) into a backup directory while the server
// runs, with a manifest of every file's size and SHA-256, and restores a
// backup into a new data directory after checking every checksum.
//
// The copy is consistent: the database is copied first, as one
// transaction's snapshot (VACUUM INTO), then the blob files. Blobs are
// written under fresh keys, durably, before the record that names them
// commits, and never changed, so every file the copied database names is
// already on disk when the files are copied (files newer than the
// snapshot are copied too and are harmless). The secrets key is left out
// on purpose: it must be kept apart from the data it protects.
package backup

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/store"
)

// ManifestFile is the manifest's name inside a backup directory.
const ManifestFile = "manifest.json"

// Manifest lists what a backup holds.
type Manifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"createdAt"`
	// Files are every file of the backup but the manifest, by path
	// relative to the backup directory (slashes), sorted.
	Files []File `json:"files"`
}

// File is one backed-up file.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// extraFiles are the data directory's files copied beside the database and
// the blobs: the console's session key and the download-link key (so
// sessions and links survive a restore). Not the secrets key.
var extraFiles = []string{"console-secret", "download-secret"}

// Take backs up the data directory dataDir into to, which must not exist
// or be empty, and returns the manifest it wrote.
func Take(ctx context.Context, dataDir, to string) (Manifest, error) {
	if err := emptyDir(to); err != nil {
		return Manifest{}, err
	}
	m := Manifest{Format: 1, CreatedAt: time.Now().UTC()}
	src := filepath.Join(dataDir, store.SQLiteFile)
	if _, err := os.Stat(src); err != nil {
		return Manifest{}, fmt.Errorf("backup: no database in %s: %w", dataDir, err)
	}
	// The database first: a snapshot of one read transaction.
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(src)+"?_pragma=busy_timeout(10000)") // VACUUM INTO writes only its target
	if err != nil {
		return Manifest{}, err
	}
	dst := filepath.Join(to, store.SQLiteFile)
	_, err = db.ExecContext(ctx, `VACUUM INTO ?`, dst)
	db.Close()
	if err != nil {
		return Manifest{}, fmt.Errorf("backup: copy the database: %w", err)
	}
	if err := syncFile(dst); err != nil {
		return Manifest{}, err
	}
	f, err := describe(to, store.SQLiteFile)
	if err != nil {
		return Manifest{}, err
	}
	m.Files = append(m.Files, f)
	// Then the files.
	blobs := filepath.Join(dataDir, blob.DefaultDir)
	err = filepath.WalkDir(blobs, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == blobs {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), ".tmp-") || !d.Type().IsRegular() {
			return nil // directories are made as needed; temporary files are unfinished writes
		}
		rel, _ := filepath.Rel(dataDir, path)
		f, err := copyFile(path, filepath.Join(to, rel))
		if err != nil {
			return err
		}
		f.Path = filepath.ToSlash(rel)
		m.Files = append(m.Files, f)
		return nil
	})
	if err != nil {
		return Manifest{}, fmt.Errorf("backup: copy the files: %w", err)
	}
	for _, name := range extraFiles {
		if _, err := os.Stat(filepath.Join(dataDir, name)); err != nil {
			continue
		}
		f, err := copyFile(filepath.Join(dataDir, name), filepath.Join(to, name))
		if err != nil {
			return Manifest{}, err
		}
		f.Path = name
		m.Files = append(m.Files, f)
	}
	slices.SortFunc(m.Files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	if err := writeManifest(to, m); err != nil {
		return Manifest{}, err
	}
	return m, syncTree(to)
}

// Verify checks every file the backup's manifest lists against its size
// and SHA-256, and that the backup holds no file the manifest does not
// list; it returns the manifest, or an error naming each problem.
func Verify(from string) (Manifest, error) {
	b, err := os.ReadFile(filepath.Join(from, ManifestFile))
	if err != nil {
		return Manifest{}, fmt.Errorf("backup: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Format != 1 {
		return Manifest{}, fmt.Errorf("backup: %s is not a manifest of format 1", filepath.Join(from, ManifestFile))
	}
	var problems []string
	listed := map[string]bool{ManifestFile: true}
	for _, want := range m.Files {
		listed[want.Path] = true
		if !local(want.Path) {
			problems = append(problems, fmt.Sprintf("%s: not a path inside the backup", want.Path))
			continue
		}
		got, err := describe(from, want.Path)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", want.Path, err))
		case got.Size != want.Size || got.SHA256 != want.SHA256:
			problems = append(problems, fmt.Sprintf("%s: %d bytes with SHA-256 %.12s…, the manifest says %d bytes with %.12s…",
				want.Path, got.Size, got.SHA256, want.Size, want.SHA256))
		}
	}
	if !listed[store.SQLiteFile] {
		problems = append(problems, "the manifest lists no database")
	}
	filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(from, path)
			if !listed[filepath.ToSlash(rel)] {
				problems = append(problems, fmt.Sprintf("%s: not in the manifest", filepath.ToSlash(rel)))
			}
		}
		return nil
	})
	if len(problems) > 0 {
		return m, fmt.Errorf("backup: %s does not match its manifest:\n  %s", from, strings.Join(problems, "\n  "))
	}
	return m, nil
}

// Restore verifies the backup in from and copies it into the data
// directory dataDir, which must not hold a database; the copy is synced
// and the database checked (PRAGMA integrity_check) before it returns.
func Restore(ctx context.Context, from, dataDir string) (Manifest, error) {
	m, err := Verify(from)
	if err != nil {
		return m, err
	}
	if _, err := os.Stat(filepath.Join(dataDir, store.SQLiteFile)); err == nil {
		return m, fmt.Errorf("backup: %s already holds a database; restore into a new data directory", dataDir)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return m, err
	}
	for _, f := range m.Files {
		if err := ctx.Err(); err != nil {
			return m, err
		}
		got, err := copyFile(filepath.Join(from, filepath.FromSlash(f.Path)), filepath.Join(dataDir, filepath.FromSlash(f.Path)))
		if err != nil {
			return m, err
		}
		if got.SHA256 != f.SHA256 {
			return m, fmt.Errorf("backup: %s changed while it was restored", f.Path)
		}
	}
	if err := syncTree(dataDir); err != nil {
		return m, err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(filepath.Join(dataDir, store.SQLiteFile))+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return m, err
	}
	defer db.Close()
	var ok string
	if err := db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		return m, fmt.Errorf("backup: the restored database fails its integrity check: %q %v", ok, err)
	}
	return m, nil
}

func local(p string) bool {
	return p != "" && !strings.HasPrefix(p, "/") && !slices.Contains(strings.Split(p, "/"), "..") && filepath.IsLocal(filepath.FromSlash(p))
}

func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("backup: %s is not empty; back up into a new directory", dir)
	}
	return nil
}

// copyFile copies src to dst (making its directory), synced, and returns
// its size and SHA-256.
func copyFile(src, dst string) (File, error) {
	in, err := os.Open(src)
	if err != nil {
		return File{}, err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return File{}, err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return File{}, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, fmt.Errorf("backup: copy %s: %w", src, err)
	}
	return File{Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

func describe(dir, rel string) (File, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, err
}

func writeManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ManifestFile)
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return err
	}
	return syncFile(path)
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// syncTree fsyncs every directory under root (and root), so the names of
// the files copied into them survive a power cut.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return syncFile(path)
	})
}
