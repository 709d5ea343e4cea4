// Package tenantdir keeps every server folder a tenant names (the
// inboundPath and outboundPath of DIRECTORY connections) inside the
// operator's directory root (serve --directory-root), in a folder of the
// tenant's own: ROOT/<account-id>/<mode>/<path>.
//
// A tenant's path is relative to its own folder: absolute paths, "..",
// empty, "." and dot segments are refused when the connection is stored
// (CheckPath). Every use then opens the folder through os.Root, which
// resolves symlinks inside the root and refuses any that lead out, so a
// link placed after the connection was stored fails at the next poll as
// surely as at creation. The root may not overlap the server's own folders
// (its data directory), so no tenant path can reach the database, the
// secrets or another account's blobs.
package tenantdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// MaxPathBytes bounds a tenant's path.
const MaxPathBytes = 512

// ErrOff is returned when the server has no directory root.
var ErrOff = errors.New("DIRECTORY connections are off on this server: its operator has not set serve --directory-root (CLEARHOUSE_DIRECTORY_ROOT)")

// CheckPath reports what is wrong with a tenant's folder path ("" when it
// is fine): it must be relative to the account's own folder, with plain
// segments ("payer-x/inbound").
func CheckPath(p string) string {
	const how = `; give a folder relative to your account's folder under the server's directory root, e.g. "payer-x/inbound"`
	switch {
	case p == "":
		return "must not be empty" + how
	case len(p) > MaxPathBytes:
		return fmt.Sprintf("must be at most %d bytes", MaxPathBytes)
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		return "must not be an absolute path (tenants never name a server path)" + how
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "" || seg == ".":
			return "must not have empty or '.' segments" + how
		case seg == "..":
			return "must not have '..' segments (the folder stays inside your account's folder)" + how
		case strings.HasPrefix(seg, "."):
			return fmt.Sprintf("segment %q must not start with '.' (hidden names are the server's own)", seg) + how
		case strings.ContainsFunc(seg, func(r rune) bool { return r == '\\' || r == ':' || unicode.IsControl(r) }):
			return fmt.Sprintf("segment %q must not hold '\\', ':' or control characters", seg) + how
		}
	}
	return ""
}

// Root is the operator's directory root, open for confined access.
type Root struct {
	dir  string
	root *os.Root
}

// Open opens (creating, 0700, when missing) the directory root dir. It
// refuses a root that is, holds or lies inside any of private (the data
// directory and other folders of the server's own), compared after
// symlinks are resolved.
func Open(dir string, private ...string) (*Root, error) {
	if dir == "" {
		return nil, ErrOff
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("directory root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("directory root: %w", err)
	}
	for _, p := range private {
		if p == "" {
			continue
		}
		other, err := resolve(p)
		if err != nil {
			return nil, err
		}
		if within(real, other) || within(other, real) {
			return nil, fmt.Errorf("directory root %s overlaps the server's own folder %s: tenants' folders must live apart from the data directory", dir, p)
		}
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("directory root: %w", err)
	}
	return &Root{dir: real, root: r}, nil
}

// resolve is p made absolute with its symlinks resolved; a path that does
// not exist yet resolves as far as it exists.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		parent, perr := resolve(filepath.Dir(abs))
		if perr != nil || filepath.Dir(abs) == abs {
			return abs, perr
		}
		return filepath.Join(parent, filepath.Base(abs)), nil
	}
	return real, err
}

// within reports whether a is b or inside it.
func within(a, b string) bool {
	rel, err := filepath.Rel(b, a)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Dir is the root's absolute path.
func (r *Root) Dir() string { return r.dir }

// Close releases the root.
func (r *Root) Close() error { return r.root.Close() }

// tenant is the account and mode's folder name under the root.
func tenant(accountID, mode string) (string, error) {
	if accountID == "" || CheckPath(accountID) != "" || strings.Contains(accountID, "/") ||
		(mode != "test" && mode != "production") {
		return "", fmt.Errorf("tenantdir: no folder for account %q in mode %q", accountID, mode)
	}
	return accountID + "/" + mode, nil
}

// Check reports whether the tenant's path p stays inside its folder as the
// disk is now: an error for a bad path, a link that leads out or a file
// where a folder belongs. A folder that does not exist yet is fine (it is
// made at first use).
func (r *Root) Check(accountID, mode, p string) error {
	if msg := CheckPath(p); msg != "" {
		return errors.New(msg)
	}
	name, err := tenant(accountID, mode)
	if err != nil {
		return err
	}
	t, err := r.root.OpenRoot(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return confinedError(err)
	}
	defer t.Close()
	fi, err := t.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return confinedError(err)
	case !fi.IsDir():
		return errors.New("names a file, not a folder")
	}
	return nil
}

// Folder opens the tenant's folder p, made (0700) when missing, confined
// to ROOT/<account-id>/<mode>: every operation on the returned root stays
// inside p, and a symlink that leads out of it fails.
func (r *Root) Folder(accountID, mode, p string) (*os.Root, error) {
	if msg := CheckPath(p); msg != "" {
		return nil, errors.New(msg)
	}
	name, err := tenant(accountID, mode)
	if err != nil {
		return nil, err
	}
	if err := r.root.MkdirAll(name, 0o700); err != nil {
		return nil, confinedError(err)
	}
	t, err := r.root.OpenRoot(name)
	if err != nil {
		return nil, confinedError(err)
	}
	defer t.Close()
	if err := t.MkdirAll(p, 0o700); err != nil {
		return nil, confinedError(err)
	}
	f, err := t.OpenRoot(p)
	if err != nil {
		return nil, confinedError(err)
	}
	return f, nil
}

// confinedError words os.Root's refusals for the tenant: the path (never
// the server's own) and what to do.
func confinedError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("the folder %q cannot be used: %v (a link or file there leads out of your account's folder; ask the operator to remove it)", pe.Path, pe.Err)
	}
	return err
}
