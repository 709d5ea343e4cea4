package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/store"
)

func init() {
	register(command{name: "keys", summary: "create, list and revoke API keys", run: runKeys})
}

const keysUsage = `Usage: clearhouse keys <create|list|revoke> [options]

  create --account NAME --mode test|production [--name LABEL]
         issues a key (creating the account if new) and prints it, alone, as
         the last line; it is shown only once: only its SHA-256 is stored
  list   [--account NAME]
         lists keys (never their secrets)
  revoke ID
         revokes the key with that id (the part after test_/live_)

Every subcommand takes --data DIR and --database URL like 'clearhouse serve'.
Run 'clearhouse keys <subcommand> --help' for details.`

func runKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, keysUsage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "create":
		return keysCreate(ctx, args[1:], stdout, stderr)
	case "list":
		return keysList(ctx, args[1:], stdout, stderr)
	case "revoke":
		return keysRevoke(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, keysUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, keysUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown keys subcommand %q", args[0])}
}

// storeFlags are the options naming the database, shared with serve.
type storeFlags struct{ dataDir, databaseURL string }

func (s *storeFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&s.dataDir, "data", "./data", "data directory holding the SQLite database (when --database is empty)")
	fs.StringVar(&s.databaseURL, "database", "", "database URL: postgres://…; empty for SQLite in --data")
}

func (s *storeFlags) open(ctx context.Context) (store.Store, error) {
	return store.Open(ctx, s.dataDir, s.databaseURL)
}

func keysCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account, mode, label string
	fs := newFlagSet("keys create", "keys create --account NAME --mode test|production [options]",
		"Issues an API key for the account (created if new) and prints the key alone as the\n"+
			"last line of output. Store it now: only its SHA-256 is kept.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "account name (required)")
	fs.StringVar(&mode, "mode", "", "test or production (required); test keys start with test_, production keys with live_")
	fs.StringVar(&label, "name", "", "optional label to recognise the key in 'keys list'")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || account == "" || (mode != auth.ModeTest && mode != auth.ModeProduction) {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("--account and --mode test|production are required")}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	key, rec, err := auth.CreateKey(ctx, st, account, mode, label, time.Now().UTC())
	if err != nil {
		return err
	}
	// Every account starts with a working test-mode setup (the mock payers).
	if _, err := partners.Seed(ctx, st, rec.AccountID, time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created %s key %s for account %q (account id %s).\n", mode, rec.ID, account, rec.AccountID)
	fmt.Fprintln(stdout, "Store the key now; it cannot be shown again:")
	fmt.Fprintln(stdout, key)
	return nil
}

func keysList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account string
	fs := newFlagSet("keys list", "keys list [--account NAME] [options]", "Lists API keys (ids, never secrets).", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "list only this account's keys")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("unexpected argument %q", rest[0])}
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
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACCOUNT\tMODE\tNAME\tCREATED\tSTATUS")
	for _, a := range accounts {
		if account != "" && a.Name != account {
			continue
		}
		keys, err := st.ListAPIKeys(ctx, a.ID)
		if err != nil {
			return err
		}
		for _, k := range keys {
			status := "active"
			if k.Revoked() {
				status = "revoked " + k.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, a.Name, k.Mode, k.Name, k.CreatedAt.Format(time.RFC3339), status)
		}
	}
	return tw.Flush()
}

func keysRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	fs := newFlagSet("keys revoke", "keys revoke ID [options]",
		"Revokes a key: requests with it get 401 from then on. ID is shown by 'keys list'.", stderr)
	db.add(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		fs.Usage()
		return &exitError{code: 2, err: errors.New("give exactly one key id")}
	}
	id := rest[0]
	if parsed, _, err := auth.ParseKey(id); err == nil {
		id = parsed // accept the whole key as well
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.RevokeAPIKey(ctx, id, time.Now().UTC()); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no key with id %q", id)
		}
		return err
	}
	fmt.Fprintf(stdout, "Revoked key %s.\n", id)
	return nil
}
