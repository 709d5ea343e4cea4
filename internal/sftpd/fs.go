package sftpd

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/pkg/sftp"
)

// The folders of a user's home; staging holds uploads in progress, out of
// the partner's sight.
const (
	inboundDir  = "inbound"
	outboundDir = "outbound"
	stagingDir  = ".staging"
)

var userPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

func validUser(u string) bool { return userPattern.MatchString(u) && !strings.Contains(u, "..") }

// validName accepts a plain file name: no separators, no "..", no control
// characters, at most 255 bytes.
func validName(n string) bool {
	if n == "" || n == "." || n == ".." || len(n) > 255 || strings.ContainsAny(n, "/\\") {
		return false
	}
	for _, r := range n {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// isTemporary reports whether an upload's name marks it as not yet
// complete: it is processed when renamed to its final name.
func isTemporary(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(name, ".") || strings.HasSuffix(lower, ".part") ||
		strings.HasSuffix(lower, ".tmp") || strings.HasSuffix(lower, ".filepart")
}

// userFS is one session's view: "/", "/inbound", "/outbound" and the files
// directly in the two folders.
type userFS struct {
	s    *Server
	user string
	home string
	log  *slog.Logger
}

// split resolves an SFTP path to (folder, name); name is "" for a folder,
// folder is "" for the root.
func split(p string) (folder, name string, err error) {
	clean := path.Clean("/" + p)
	parts := strings.Split(strings.TrimPrefix(clean, "/"), "/")
	switch {
	case clean == "/":
		return "", "", nil
	case len(parts) > 2 || (parts[0] != inboundDir && parts[0] != outboundDir):
		return "", "", os.ErrNotExist
	case len(parts) == 1:
		return parts[0], "", nil
	case !validName(parts[1]):
		return "", "", os.ErrPermission
	}
	return parts[0], parts[1], nil
}

func (fs *userFS) local(folder, name string) string { return filepath.Join(fs.home, folder, name) }

// Fileread: download from outbound/ (and read back one's own inbound/).
func (fs *userFS) Fileread(r *sftp.Request) (io.ReaderAt, error) {
	folder, name, err := split(r.Filepath)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, os.ErrInvalid
	}
	return os.Open(fs.local(folder, name))
}

// Filewrite: uploads go to inbound/ only.
func (fs *userFS) Filewrite(r *sftp.Request) (io.WriterAt, error) {
	folder, name, err := split(r.Filepath)
	if err != nil {
		return nil, err
	}
	if folder != inboundDir || name == "" {
		return nil, os.ErrPermission
	}
	if isTemporary(name) {
		// Written in place; processed when renamed to its final name.
		f, err := os.OpenFile(fs.local(folder, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		if err != nil {
			return nil, err
		}
		return &upload{fs: fs, f: f, name: name, limit: fs.s.cfg.MaxFileBytes, inPlace: fs.s.writes.open(f.Name())}, nil
	}
	f, err := os.CreateTemp(filepath.Join(fs.home, stagingDir), "in-*")
	if err != nil {
		return nil, err
	}
	return &upload{fs: fs, f: f, name: name, limit: fs.s.cfg.MaxFileBytes}, nil
}

// upload is one file being written. It is handed over on Close, unless
// the transfer failed (TransferError) or it is a temporary name.
type upload struct {
	fs    *userFS
	f     *os.File
	name  string
	limit int64
	// inPlace: a temporary name written in inbound/, handed over when
	// renamed to its final name with every handle closed.
	inPlace *openFile

	mu      sync.Mutex
	aborted bool
	closed  bool
}

func (u *upload) WriteAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > u.limit {
		u.mu.Lock()
		u.aborted = true
		u.mu.Unlock()
		return 0, fmt.Errorf("the file is larger than the limit of %d bytes", u.limit)
	}
	return u.f.WriteAt(p, off)
}

// TransferError is pkg/sftp telling us the session ended with this file
// still open: the upload is incomplete and must never be processed.
func (u *upload) TransferError(err error) {
	u.mu.Lock()
	u.aborted = true
	u.mu.Unlock()
	u.fs.log.Info("sftp: upload interrupted, discarded", "file", u.name, "error", err.Error())
}

func (u *upload) Close() error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil
	}
	u.closed = true
	aborted := u.aborted
	u.mu.Unlock()
	if u.inPlace != nil {
		return u.closeInPlace(aborted)
	}
	if aborted {
		u.f.Close()
		return os.Remove(u.f.Name())
	}
	if err := u.f.Sync(); err != nil {
		u.f.Close()
		return err
	}
	defer os.Remove(u.f.Name())
	defer u.f.Close()
	return u.fs.commit(u.name, u.f)
}

// closeInPlace closes a handle on a temporary name. The last handle to
// close hands the file over if it was renamed to its final name while
// open; an aborted transfer never does (the file is removed).
func (u *upload) closeInPlace(aborted bool) error {
	synced := aborted || u.f.Sync() == nil
	closeErr := u.f.Close()
	last, path, handOver := u.fs.s.writes.close(u.inPlace)
	switch {
	case aborted:
		if last {
			return os.Remove(path)
		}
		return nil
	case !synced:
		return fmt.Errorf("the file could not be written to disk")
	case closeErr != nil:
		return closeErr
	case !last || handOver == "":
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := u.fs.commit(handOver, f); err != nil {
		return err
	}
	return os.Remove(path)
}

// commit hands a complete file to OnInbound; on failure the file is kept
// in inbound/ under its name, so the partner sees it was not taken.
func (fs *userFS) commit(name string, f *os.File) error {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if fs.s.cfg.OnInbound == nil {
		return os.Rename(f.Name(), fs.local(inboundDir, name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := fs.s.cfg.OnInbound(ctx, fs.user, name, f); err != nil {
		fs.log.Warn("sftp: inbound file not taken", "file", name, "error", err.Error())
		_ = os.Rename(f.Name(), fs.local(inboundDir, name))
		return fmt.Errorf("the file was not accepted: %v", err)
	}
	fs.log.Info("sftp: inbound file taken", "file", name)
	return nil
}

// Filecmd: rename a temporary upload to its final name (which hands it
// over), remove files, and accept setstat (times, modes) as a no-op.
func (fs *userFS) Filecmd(r *sftp.Request) error {
	folder, name, err := split(r.Filepath)
	if err != nil {
		return err
	}
	switch r.Method {
	case "Setstat":
		if name == "" && folder == "" {
			return os.ErrPermission
		}
		return nil
	case "Remove":
		if name == "" {
			return os.ErrPermission
		}
		return os.Remove(fs.local(folder, name))
	case "Rename", "PosixRename":
		tFolder, tName, err := split(r.Target)
		if err != nil {
			return err
		}
		if folder != inboundDir || tFolder != inboundDir || name == "" || tName == "" {
			return os.ErrPermission
		}
		from, to := fs.local(folder, name), fs.local(tFolder, tName)
		finalName := tName
		if isTemporary(tName) {
			finalName = ""
		}
		open, err := fs.s.writes.rename(from, to, finalName, func() error { return os.Rename(from, to) })
		switch {
		case open:
			return err // moved, or handed over when its last handle closes
		case finalName == "":
			return os.Rename(from, to)
		}
		f, err := os.Open(from)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := fs.commit(tName, f); err != nil {
			return err
		}
		return os.Remove(from)
	}
	return os.ErrPermission // Mkdir, Rmdir, Symlink, Link
}

// Filelist: list the root and the two folders; stat anything in them.
func (fs *userFS) Filelist(r *sftp.Request) (sftp.ListerAt, error) {
	folder, name, err := split(r.Filepath)
	if err != nil {
		return nil, err
	}
	switch r.Method {
	case "List":
		if name != "" {
			return nil, os.ErrInvalid
		}
		if folder == "" {
			var out listing
			for _, d := range []string{inboundDir, outboundDir} {
				fi, err := os.Stat(fs.local(d, ""))
				if err != nil {
					return nil, err
				}
				out = append(out, fi)
			}
			return out, nil
		}
		entries, err := os.ReadDir(fs.local(folder, ""))
		if err != nil {
			return nil, err
		}
		var out listing
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() {
				out = append(out, fi)
			}
		}
		return out, nil
	case "Stat", "Lstat":
		fi, err := os.Stat(fs.local(folder, name))
		if folder == "" {
			fi, err = os.Stat(fs.home)
		}
		if err != nil {
			return nil, err
		}
		return listing{fi}, nil
	}
	return nil, os.ErrPermission // Readlink
}

type listing []os.FileInfo

func (l listing) ListAt(dst []os.FileInfo, off int64) (int, error) {
	if off >= int64(len(l)) {
		return 0, io.EOF
	}
	n := copy(dst, l[off:])
	if n < len(dst) {
		return n, io.EOF
	}
	return n, nil
}
