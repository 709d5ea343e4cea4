package partners

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// ApplyOptions say whose records a Document is and how to apply it.
type ApplyOptions struct {
	AccountID string
	Mode      string // store.ModeTest or store.ModeProduction
	// Secrets seals connection secrets; without a key a document that
	// gives a secret value is refused.
	Secrets *secrets.Box
	// Directories is the operator's directory root (serve
	// --directory-root) that DIRECTORY connections' folders live under;
	// nil refuses DIRECTORY connections.
	Directories *tenantdir.Root
	// CheckHost, when set, refuses a connection host the SSRF guard would
	// never dial (a literal loopback, private or metadata address), so
	// the tenant hears it now rather than from failed deliveries. Every
	// dial is guarded anyway; the API sets it, the operator's CLI not.
	CheckHost func(host string) error
	Now       time.Time
	// Prune deletes the records of the account and mode that the document
	// does not list (a partnership listed without settings loses them).
	// Without it nothing is ever deleted.
	Prune bool
	// DryRun checks and reports the changes without making them.
	DryRun bool
	// Expect, when set, is checked before anything else (the API's create
	// and update of one record).
	Expect *Expectation
}

// Change is one record Apply created, updated or deleted.
type Change struct {
	Action string `json:"action"` // "create", "update" or "delete"
	Kind   string `json:"kind"`   // "profile", "connection", "partnership", "transaction setting"
	ID     string `json:"id"`
}

func (c Change) String() string { return c.Action + " " + c.Kind + " " + c.ID }

// Result is what Apply did (or, with DryRun, would do).
type Result struct {
	Changes   []Change `json:"changes"`
	Unchanged int      `json:"unchanged"`
}

var errDryRun = errors.New("dry run")

// Apply makes the account's records of the mode match doc, in one
// transaction: all of it or, on any problem, none of it. Problems come
// back as a *ValidationError naming every entry at fault.
func Apply(ctx context.Context, st store.Store, doc Document, opts ApplyOptions) (Result, error) {
	if opts.Mode != store.ModeTest && opts.Mode != store.ModeProduction {
		return Result{}, fmt.Errorf("partners: mode must be test or production, not %q", opts.Mode)
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	opts.Now = opts.Now.UTC().Truncate(time.Microsecond)
	var res Result
	err := st.InTx(ctx, func(tx store.Queries) error {
		var err error
		res, err = apply(ctx, tx, doc, opts)
		if err == nil && opts.DryRun {
			return errDryRun
		}
		return err
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return res, err
}

func apply(ctx context.Context, tx store.Queries, doc Document, opts ApplyOptions) (Result, error) {
	before, err := loadWorld(ctx, tx, opts.AccountID, opts.Mode)
	if err != nil {
		return Result{}, err
	}
	if opts.Expect != nil {
		if err := opts.Expect.check(before); err != nil {
			return Result{}, err
		}
	}
	after, o, ps := desired(before, doc, opts)
	if len(ps) == 0 {
		if err := checkSFTPUsers(ctx, tx, doc, after, &ps); err != nil {
			return Result{}, err
		}
	}
	if err := ps.err(); err != nil {
		return Result{}, err
	}
	return write(ctx, tx, before, after, o, opts.Now)
}

// desired is the world after doc: before plus (or, with Prune, replaced
// by) the document's records.
func desired(before *world, doc Document, opts ApplyOptions) (*world, origin, problems) {
	var ps problems
	after := &world{accountID: before.accountID, mode: before.mode,
		profiles: map[string]store.Profile{}, connections: map[string]store.Connection{},
		partnerships: map[string]store.Partnership{}, settings: map[string]store.TransactionSetting{}}
	if !opts.Prune {
		maps.Copy(after.profiles, before.profiles)
		maps.Copy(after.connections, before.connections)
		maps.Copy(after.partnerships, before.partnerships)
		maps.Copy(after.settings, before.settings)
	}
	o := origin{}
	claim := func(kind, id, path string) bool {
		key := kind + "\x00" + id
		if prev, dup := o[key]; dup {
			ps.add(path, "%s %q is listed twice (also at %s)", kind, id, prev)
			return false
		}
		o[key] = path
		return true
	}
	for i, p := range doc.Profiles {
		path := "/profiles/" + strconv.Itoa(i)
		rec := after.checkProfile(p, path, &ps)
		if claim("profile", rec.ID, path) {
			after.profiles[rec.ID] = rec
		}
	}
	for i, c := range doc.Connections {
		path := "/connections/" + strconv.Itoa(i)
		rec := after.checkConnection(opts.Secrets, opts.Directories, c, before.connections[c.ConnectionID], path, &ps)
		checkHost(opts.CheckHost, rec, path, &ps)
		if claim("connection", rec.ID, path) {
			after.connections[rec.ID] = rec
		}
	}
	for i, p := range doc.Partnerships {
		path := "/partnerships/" + strconv.Itoa(i)
		rec := after.checkPartnership(p, path, &ps)
		if !claim("partnership", rec.ID, path) {
			continue
		}
		after.partnerships[rec.ID] = rec
		lists := []struct {
			direction, name string
			settings        []TransactionSetting
		}{{store.DirectionInbound, "inboundTransactions", p.InboundTransactions},
			{store.DirectionOutbound, "outboundTransactions", p.OutboundTransactions}}
		for _, l := range lists {
			for j, s := range l.settings {
				spath := fmt.Sprintf("%s/%s/%d", path, l.name, j)
				srec := after.checkSetting(s, rec.ID, l.direction, spath, &ps)
				if srec.ID == "" {
					if prev, ok := before.settingByKey(rec.ID, l.direction, srec.TransactionSetIdentifier, srec.GuideID); ok {
						srec.ID = prev.ID
					} else {
						srec.ID = store.NewID()
					}
				}
				if claim("transaction setting", srec.ID, spath) {
					after.settings[srec.ID] = srec
				}
			}
		}
	}
	if len(ps) == 0 {
		after.checkIntegrity(o, &ps)
	}
	return after, o, ps
}

// write makes the store go from before to after.
func write(ctx context.Context, tx store.Queries, before, after *world, o origin, now time.Time) (Result, error) {
	var res Result
	note := func(action, kind, id string) { res.Changes = append(res.Changes, Change{action, kind, id}) }
	// Deletes of dependents first, of what they depend on last.
	for _, id := range sortedKeys(before.settings) {
		if _, keep := after.settings[id]; !keep {
			if err := tx.DeleteTransactionSetting(ctx, after.accountID, after.mode, id); err != nil {
				return res, err
			}
			note("delete", "transaction setting", id)
		}
	}
	for _, id := range sortedKeys(before.partnerships) {
		if _, keep := after.partnerships[id]; !keep {
			if err := tx.DeletePartnership(ctx, after.accountID, after.mode, id); err != nil {
				return res, err
			}
			note("delete", "partnership", id)
		}
	}
	steps := []func() error{
		func() error {
			return upsert(ctx, &res, o, "profile", before.profiles, after.profiles, now, sameProfile,
				func(r *store.Profile) (*time.Time, *time.Time) { return &r.CreatedAt, &r.UpdatedAt },
				tx.CreateProfile, tx.UpdateProfile)
		},
		func() error {
			return upsert(ctx, &res, o, "connection", before.connections, after.connections, now, sameConnection,
				func(r *store.Connection) (*time.Time, *time.Time) { return &r.CreatedAt, &r.UpdatedAt },
				tx.CreateConnection, tx.UpdateConnection)
		},
		func() error {
			return upsert(ctx, &res, o, "partnership", before.partnerships, after.partnerships, now, samePartnership,
				func(r *store.Partnership) (*time.Time, *time.Time) { return &r.CreatedAt, &r.UpdatedAt },
				tx.CreatePartnership, tx.UpdatePartnership)
		},
		func() error {
			return upsert(ctx, &res, o, "transaction setting", before.settings, after.settings, now, sameSetting,
				func(r *store.TransactionSetting) (*time.Time, *time.Time) { return &r.CreatedAt, &r.UpdatedAt },
				tx.CreateTransactionSetting, tx.UpdateTransactionSetting)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return res, err
		}
	}
	for _, id := range sortedKeys(before.profiles) {
		if _, keep := after.profiles[id]; !keep {
			if err := tx.DeleteProfile(ctx, after.accountID, after.mode, id); err != nil {
				return res, writeErr(err, o.path("profile", id), profileEntry(id))
			}
			note("delete", "profile", id)
		}
	}
	for _, id := range sortedKeys(before.connections) {
		if _, keep := after.connections[id]; !keep {
			if err := tx.DeleteConnection(ctx, after.accountID, after.mode, id); err != nil {
				return res, writeErr(err, o.path("connection", id), connectionEntry(id))
			}
			note("delete", "connection", id)
		}
	}
	return res, nil
}

// upsert creates the records of after that before lacks and updates
// those that differ, keeping their creation time.
func upsert[T any](ctx context.Context, res *Result, o origin, kind string, before, after map[string]T, now time.Time,
	same func(a, b T) bool, stamps func(*T) (*time.Time, *time.Time),
	create, update func(context.Context, T) error) error {
	for _, id := range sortedKeys(after) {
		rec := after[id]
		prev, existed := before[id]
		created, updated := stamps(&rec)
		action, write := "create", create
		switch {
		case existed && same(prev, rec):
			res.Unchanged++
			continue
		case existed:
			prevCreated, _ := stamps(&prev)
			*created, *updated = *prevCreated, now
			action, write = "update", update
		default:
			*created, *updated = now, now
		}
		if err := write(ctx, rec); err != nil {
			return writeErr(err, o.path(kind, id), fmt.Sprintf("%s %q", kind, id))
		}
		res.Changes = append(res.Changes, Change{Action: action, Kind: kind, ID: id})
	}
	return nil
}

// writeErr turns a store conflict the checks did not foresee (another
// writer got there first) into a problem naming the entry.
func writeErr(err error, path, entry string) error {
	if errors.Is(err, store.ErrConflict) {
		return &ValidationError{Problems: []Problem{{Path: path, Message: entry + ": conflicts with a record written at the same time; apply again"}}}
	}
	return err
}
