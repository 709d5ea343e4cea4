package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/retention"
	"github.com/clearhouse/clearhouse/internal/store"
)

const retentionUsage = `Usage: clearhouse retention <set|show> [options]

  set  --account NAME [--eligibility-days N] [--file-days N] [--event-days N]
       how many days the account keeps eligibility checks, files (with their
       transactions, documents and claims) and events; 0 keeps them forever
       (the default). The access audit is always kept.
  show [--account NAME]

'clearhouse serve' (with workers) enforces the policies every hour;
'clearhouse purge --dry-run' shows what a policy would remove now.
Every subcommand takes --data DIR and --database URL like 'clearhouse serve'.`

func runRetention(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, retentionUsage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "set":
		return retentionSet(ctx, args[1:], stdout, stderr)
	case "show":
		return retentionShow(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, retentionUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, retentionUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown retention subcommand %q", args[0])}
}

func accountNamed(ctx context.Context, st store.Store, name string) (store.Account, error) {
	a, err := st.GetAccountByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return a, &exitError{code: 1, err: fmt.Errorf("no account named %q", name)}
	}
	return a, err
}

func retentionSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account string
	var checks, files, events int
	fs := newFlagSet("retention set", "retention set --account NAME [--eligibility-days N] [--file-days N] [--event-days N]",
		"Sets how many days the account keeps each kind of record (0: forever).", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "account name (required)")
	fs.IntVar(&checks, "eligibility-days", -1, "days to keep eligibility checks (0: forever; unchanged when not given)")
	fs.IntVar(&files, "file-days", -1, "days to keep files, their transactions, documents and claims (0: forever)")
	fs.IntVar(&events, "event-days", -1, "days to keep events and their webhook deliveries (0: forever; at least 7, so retries finish)")
	commandLineOnly(fs, "account", "eligibility-days", "file-days", "event-days")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "give --account NAME and no other arguments")}
	}
	if checks > 36500 || files > 36500 || events > 36500 || events > 0 && events < 7 {
		return &exitError{code: 2, err: usageError(fs.Name(), "days are 0 (forever) to 36500; --event-days is at least 7 (webhook retries last days)")}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := accountNamed(ctx, st, account)
	if err != nil {
		return err
	}
	p, err := st.GetRetentionPolicy(ctx, a.ID)
	if err != nil {
		return err
	}
	for _, v := range []struct {
		given int
		into  *int
	}{{checks, &p.EligibilityDays}, {files, &p.FileDays}, {events, &p.EventDays}} {
		if v.given >= 0 {
			*v.into = v.given
		}
	}
	p.UpdatedAt = time.Now().UTC()
	if err := st.SetRetentionPolicy(ctx, p); err != nil {
		return err
	}
	printPolicy(stdout, a.Name, p)
	return nil
}

func retentionShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account string
	fs := newFlagSet("retention show", "retention show [--account NAME]", "Shows the accounts' retention policies.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "only this account")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	accounts, err := st.ListAccounts(ctx)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		if account != "" && a.Name != account {
			continue
		}
		p, err := st.GetRetentionPolicy(ctx, a.ID)
		if err != nil {
			return err
		}
		printPolicy(stdout, a.Name, p)
	}
	return nil
}

func printPolicy(w io.Writer, name string, p store.RetentionPolicy) {
	days := func(n int) string {
		if n <= 0 {
			return "forever"
		}
		return fmt.Sprintf("%d days", n)
	}
	fmt.Fprintf(w, "account %q: eligibility checks %s, files %s, events %s, audit forever\n", name,
		days(p.EligibilityDays), days(p.FileDays), days(p.EventDays))
}

func runPurge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account, blobURL string
	var dryRun bool
	fs := newFlagSet("purge", "purge [--account NAME] [--dry-run] [options]",
		"Removes what the retention policies no longer keep (records and their documents), now; with\n"+
			"--dry-run, only lists how much would go.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "only this account (default: every account with a policy)")
	fs.StringVar(&blobURL, "blob", "", "where file contents live, as for serve (empty: --data/blobs)")
	fs.BoolVar(&dryRun, "dry-run", false, "remove nothing; show what would be removed")
	commandLineOnly(fs, "account", "dry-run")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &exitError{code: 2, err: usageError(fs.Name(), fmt.Sprintf("unexpected argument %q", rest[0]))}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	blobs, err := blob.Open(ctx, blobURL, db.dataDir)
	if err != nil {
		return err
	}
	defer blobs.Close()
	blobs = blob.WithInline(blobs, st) // purged claims' documents in the database go with their rows
	policies, err := st.ListRetentionPolicies(ctx)
	if err != nil {
		return err
	}
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	now := time.Now()
	for _, p := range policies {
		a, err := st.GetAccount(ctx, p.AccountID)
		if err != nil {
			return err
		}
		if account != "" && a.Name != account {
			continue
		}
		r, err := retention.Purge(ctx, st, blobs, a.ID, now, dryRun, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "account %q: %s %d eligibility checks, %d files (%d transactions, %d claims, %d documents), %d events\n",
			a.Name, verb, r.Checks, r.Files, r.Transactions, r.Claims, len(r.Blobs), r.Events)
	}
	return nil
}
