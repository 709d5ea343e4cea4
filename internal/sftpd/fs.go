package sftpd

import (
	"context"
	"errors"
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
	path := fs.local(folder, name)
	u := &upload{fs: fs, name: name, limit: fs.s.cfg.MaxFileBytes}
	if isTemporary(name) {
		// Written in place; processed when renamed to its final name. A
		// second handle on it does not truncate what the first wrote.
		u.open, u.f, err = fs.s.writes.open(path,
			func() (*os.File, error) { return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600) },
			func(file string) (*os.File, error) { return os.OpenFile(file, os.O_WRONLY, 0) })
	} else {
		// Written to staging, shared by the name's handles; handed over
		// when the last closes.
		u.open, u.f, err = fs.s.writes.open(stagedKey(path),
			func() (*os.File, error) { return os.CreateTemp(filepath.Join(fs.home, stagingDir), "in-*") },
			func(file string) (*os.File, error) { return os.OpenFile(file, os.O_WRONLY, 0) })
		u.handOverOnClose = true
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// upload is one write handle on a file being uploaded (see openWrites).
// The file is handed over when its last handle closes: under its name, or
// for a temporary name under the final name a rename gave it; never if a
// transfer failed (TransferError) or passed the size limit.
type upload struct {
	fs    *userFS
	f     *os.File
	name  string
	limit int64
	open  *openFile
	// handOverOnClose: a final name, handed over when its handles close
	// (a temporary name is, only if renamed meanwhile).
	handOverOnClose bool

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

// Close closes the handle; the last one to close hands the file over
// (see upload) and reports the outcome.
func (u *upload) Close() error {
	u.mu.Lock()
	if u.closed {
		u.mu.Unlock()
		return nil
	}
	u.closed = true
	aborted := u.aborted
	u.mu.Unlock()
	var err error
	if !aborted {
		err = u.f.Sync()
	}
	if cerr := u.f.Close(); err == nil {
		err = cerr
	}
	writes := &u.fs.s.writes
	if aborted || err != nil {
		writes.abort(u.open)
	}
	last, done := writes.closed(u.open)
	switch {
	case !last && (aborted || err != nil):
		return err
	case !last:
		return nil
	case done.aborted:
		os.Remove(done.file)
		if aborted || err != nil {
			return err
		}
		return errors.New("the upload was interrupted on another handle and was discarded; send the file again")
	}
	name := u.name
	if !u.handOverOnClose {
		if done.handOver == "" {
			return nil // a temporary name, not renamed yet
		}
		name = done.handOver
	}
	f, err := os.Open(done.file)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := u.fs.commit(name, f); err != nil {
		return err
	}
	return os.Remove(done.file)
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
