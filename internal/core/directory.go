package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Directory polling: a DIRECTORY connection's settings name an absolute
// inboundPath (and optionally a pollInterval such as "10s"). Files dropped
// there are picked up once:
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
	last map[string]time.Time // connection → last poll
}

// NewDirectoryPoller returns a poller feeding s.
func (s *Service) NewDirectoryPoller() *DirectoryPoller {
	return &DirectoryPoller{s: s, last: map[string]time.Time{}}
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
	accounts, err := d.s.opts.Store.ListAccounts(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, a := range accounts {
		for _, mode := range []string{store.ModeTest, store.ModeProduction} {
			conns, err := d.s.opts.Store.ListConnections(ctx, a.ID, mode)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			for _, c := range conns {
				if c.Type != store.ConnectionDirectory {
					continue
				}
				if err := d.poll(ctx, c, force); err != nil {
					errs = append(errs, fmt.Errorf("connection %s: %w", c.ID, err))
				}
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
	if set.InboundPath == "" || !filepath.IsAbs(set.InboundPath) {
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
	d.last[key] = now
	claimed := filepath.Join(set.InboundPath, claimedDir)
	if err := os.MkdirAll(claimed, 0o700); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(set.InboundPath, receivedDir), 0o700); err != nil {
		return err
	}
	entries, err := os.ReadDir(set.InboundPath)
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
		if err := os.Rename(filepath.Join(set.InboundPath, e.Name()), filepath.Join(claimed, id+"_"+e.Name())); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // another poller took it
			}
			return err
		}
	}
	// Hand over every claimed file, including those a crash left behind.
	claims, err := os.ReadDir(claimed)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range claims {
		id, name, ok := strings.Cut(e.Name(), "_")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		if err := d.receive(ctx, c, set.InboundPath, id, name); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

func (d *DirectoryPoller) receive(ctx context.Context, c store.Connection, dir, id, name string) error {
	path := filepath.Join(dir, claimedDir, id+"_"+name)
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	ex, err := d.s.Receive(ctx, ReceiveParams{AccountID: c.AccountID, Mode: c.Mode, Name: name, Dirname: dir,
		ConnectionID: c.ID, Body: f, ExecutionID: id})
	f.Close()
	if err != nil {
		if errors.Is(err, ErrFileTooLarge) || errors.Is(err, ErrEmptyFile) || errors.Is(err, ErrBadName) {
			// Never acceptable: set aside with the reason, for the operator.
			d.s.opts.Logger.Warn("core: file refused from directory", "connection_id", c.ID, "file", name, "error", err.Error())
			return os.Rename(path, filepath.Join(dir, receivedDir, "refused-"+id+"_"+name))
		}
		return err
	}
	d.s.opts.Logger.Info("core: file received from directory", "connection_id", c.ID, "execution_id", ex.ID)
	return os.Rename(path, filepath.Join(dir, receivedDir, id+"_"+name))
}
