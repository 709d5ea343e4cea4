package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// Directory polling: a DIRECTORY connection's settings name an inboundPath
// relative to its account's folder under the operator's directory root
// (ROOT/<account-id>/<mode>/<inboundPath>, see package tenantdir), and
// optionally a pollInterval such as "10s". Every file operation goes
// through an os.Root of that folder, so no path or symlink reaches outside
// it. Files dropped there are picked up once:
//
//  1. the file is renamed into <inboundPath>/.clearhouse/claimed/ under a
//     new execution id (an atomic claim: no other poller takes it);
//  2. it is handed to Receive with that execution id (idempotent);
//  3. it is moved to <inboundPath>/.clearhouse/received/.
//
// A crash after 1 or 2 leaves the file in claimed/, and the next poll
// finishes the job without a second execution. Dot files and files changed
// in the last second (still being written) wait for the next poll.

// DefaultPollInterval is a DIRECTORY connection's poll interval when its
// settings name none.
const DefaultPollInterval = 10 * time.Second

const (
	claimedDir  = ".clearhouse/claimed"
	receivedDir = ".clearhouse/received"
)

type directorySettings struct {
	InboundPath  string `json:"inboundPath"`
	PollInterval string `json:"pollInterval"`
}

// DirectoryPoller picks up files from every DIRECTORY connection of every
// account. Run one per process (replicas sharing a folder are safe: claims
// are renames).
type DirectoryPoller struct {
	s    *Service
	dirs *tenantdir.Root
	last map[string]time.Time // connection → last poll
}

// NewDirectoryPoller returns a poller feeding s from the folders under
// dirs (the operator's directory root; nil polls nothing).
func (s *Service) NewDirectoryPoller(dirs *tenantdir.Root) *DirectoryPoller {
	return &DirectoryPoller{s: s, dirs: dirs, last: map[string]time.Time{}}
}

// Run polls until ctx ends.
func (d *DirectoryPoller) Run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if err := d.PollOnce(ctx, false); err != nil && ctx.Err() == nil {
			d.s.opts.Logger.Warn("core: directory poll failed", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// PollOnce looks at every DIRECTORY connection whose interval has passed
// (all of them when force is set) and receives the files found.
func (d *DirectoryPoller) PollOnce(ctx context.Context, force bool) error {
	if d.dirs == nil {
		return nil // DIRECTORY connections are off on this server
	}
	accounts, err := d.s.opts.Store.ListAccounts(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, a := range accounts {
		// Production only: test keys never reach a server folder (a
		// test-mode DIRECTORY connection stored before that rule is idle).
		conns, err := d.s.opts.Store.ListConnections(ctx, a.ID, store.ModeProduction)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, c := range conns {
			if c.Type != store.ConnectionDirectory {
				continue
			}
			if err := d.poll(ctx, c, force); err != nil {
				errs = append(errs, fmt.Errorf("account %s %s connection %s: %w", c.AccountID, c.Mode, c.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

func (d *DirectoryPoller) poll(ctx context.Context, c store.Connection, force bool) error {
	var set directorySettings
	if err := json.Unmarshal(c.Settings, &set); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if set.InboundPath == "" {
		return nil // an outbound-only folder
	}
	interval := DefaultPollInterval
	if set.PollInterval != "" {
		if v, err := time.ParseDuration(set.PollInterval); err == nil && v > 0 {
			interval = v
		}
	}
	key := c.AccountID + "/" + c.Mode + "/" + c.ID
	now := time.Now()
	if !force && now.Sub(d.last[key]) < interval {
		return nil
	}
	first := d.last[key].IsZero()
	d.last[key] = now
	// Resolved again at every poll: a link placed after the connection
	// was stored fails here as it would have at its creation.
	folder, err := d.dirs.Folder(c.AccountID, c.Mode, set.InboundPath)
	if err != nil {
		return fmt.Errorf("inboundPath %q: %w", set.InboundPath, err)
	}
	defer folder.Close()
	if first {
		// For the operator: where this connection's partner drops files.
		d.s.opts.Logger.Info("core: polling directory", "connection_id", c.ID, "account_id", c.AccountID,
			"folder", c.AccountID+"/"+c.Mode+"/"+set.InboundPath, "root", d.dirs.Dir())
	}
	if err := folder.MkdirAll(claimedDir, 0o700); err != nil {
		return err
	}
	if err := folder.MkdirAll(receivedDir, 0o700); err != nil {
		return err
	}
	entries, err := readDir(folder, ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < time.Second {
			continue // gone, or still being written
		}
		// Claim: the new name carries the execution id.
		id := store.NewUUID()
		if err := folder.Rename(e.Name(), claimedDir+"/"+id+"_"+e.Name()); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // another poller took it
			}
			return err
		}
	}
	// Hand over every claimed file, including those a crash left behind.
	claims, err := readDir(folder, claimedDir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range claims {
		id, name, ok := strings.Cut(e.Name(), "_")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if err := d.receive(ctx, c, folder, set.InboundPath, id, name); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// readDir lists a folder inside root.
func readDir(root *os.Root, name string) ([]fs.DirEntry, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

func (d *DirectoryPoller) receive(ctx context.Context, c store.Connection, folder *os.Root, dirname, id, name string) error {
	path := claimedDir + "/" + id + "_" + name
	f, err := folder.Open(path)
	if err != nil {
		return err
	}
	ex, err := d.s.Receive(ctx, ReceiveParams{AccountID: c.AccountID, Mode: c.Mode, Name: name, Dirname: dirname,
		ConnectionID: c.ID, Body: f, ExecutionID: id})
	f.Close()
	if err != nil {
		if errors.Is(err, ErrFileTooLarge) || errors.Is(err, ErrEmptyFile) || errors.Is(err, ErrBadName) {
			// Never acceptable: set aside with the reason, for the operator.
			d.s.opts.Logger.Warn("core: file refused from directory", "connection_id", c.ID, "file", name, "error", err.Error())
			return folder.Rename(path, receivedDir+"/refused-"+id+"_"+name)
		}
		return err
	}
	d.s.opts.Logger.Info("core: file received from directory", "connection_id", c.ID, "execution_id", ex.ID)
	return folder.Rename(path, receivedDir+"/"+id+"_"+name)
}
