// Package retention enforces each account's retention policy: eligibility
// checks, files (with their transactions, documents and the claims they
// carried) and events older than the policy keeps are removed, records and
// blobs together, and each run is recorded with what it removed. The
// default keeps everything; the access audit is never purged.
//
// Records go first, in batches of one transaction each, then the blobs
// they named: a crash in between leaves files nothing names (harmless),
// never a record without its file.
package retention

import (
	"context"
	"log/slog"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/store"
)

// batch is how many records of each kind one transaction removes.
const batch = 500

// dryRunLimit caps what a dry run lists of each kind.
const dryRunLimit = 10000

// Cutoffs turns a policy into the times before which records go.
func Cutoffs(p store.RetentionPolicy, now time.Time) store.PurgeCutoffs {
	at := func(days int) time.Time {
		if days <= 0 {
			return time.Time{}
		}
		return now.Add(-time.Duration(days) * 24 * time.Hour)
	}
	return store.PurgeCutoffs{Eligibility: at(p.EligibilityDays), Files: at(p.FileDays), Events: at(p.EventDays)}
}

// Purge applies the account's policy at now. With dryRun it removes
// nothing and returns what would go (up to 10,000 of each kind).
func Purge(ctx context.Context, st store.Store, blobs blob.Store, accountID string, now time.Time, dryRun bool, logger *slog.Logger) (store.PurgeResult, error) {
	p, err := st.GetRetentionPolicy(ctx, accountID)
	if err != nil {
		return store.PurgeResult{}, err
	}
	c := Cutoffs(p, now)
	if dryRun {
		return st.PurgeExpired(ctx, accountID, c, dryRunLimit, true)
	}
	var total store.PurgeResult
	for {
		var r store.PurgeResult
		err := st.InTx(ctx, func(tx store.Queries) error {
			var err error
			if r, err = tx.PurgeExpired(ctx, accountID, c, batch, false); err != nil || !r.Any() {
				return err
			}
			return tx.RecordRetentionRun(ctx, accountID, now, r)
		})
		if err != nil {
			return total, err
		}
		for _, key := range r.Blobs {
			if err := blobs.Delete(ctx, key); err != nil && logger != nil {
				logger.Warn("retention: a purged record's document could not be removed", "key", key, "error", err.Error())
			}
		}
		total.Checks += r.Checks
		total.Files += r.Files
		total.Transactions += r.Transactions
		total.Claims += r.Claims
		total.Events += r.Events
		total.Blobs = append(total.Blobs, r.Blobs...)
		if !r.Any() || ctx.Err() != nil {
			return total, ctx.Err()
		}
	}
}

// Sweep purges every account that has a policy.
func Sweep(ctx context.Context, st store.Store, blobs blob.Store, now time.Time, logger *slog.Logger) error {
	policies, err := st.ListRetentionPolicies(ctx)
	if err != nil {
		return err
	}
	for _, p := range policies {
		r, err := Purge(ctx, st, blobs, p.AccountID, now, false, logger)
		if err != nil {
			return err
		}
		if r.Any() {
			logger.Info("retention: purged", "account", p.AccountID, "checks", r.Checks, "files", r.Files,
				"transactions", r.Transactions, "claims", r.Claims, "events", r.Events, "documents", len(r.Blobs))
		}
	}
	return nil
}

// Run sweeps every interval until ctx ends. Every replica may run it: a
// record is removed once, whoever gets there first.
func Run(ctx context.Context, st store.Store, blobs blob.Store, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := Sweep(ctx, st, blobs, time.Now(), logger); err != nil && ctx.Err() == nil {
			logger.Error("retention: sweep failed", "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
