package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
)

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
type storeFlags struct {
	dataDir, databaseURL string
	create               bool
}

func (s *storeFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&s.dataDir, "data", "./data", "serve's data directory, holding the SQLite database (when --database is empty)")
	fs.StringVar(&s.databaseURL, "database", "", "database URL: postgres://…; empty for SQLite in --data")
	fs.BoolVar(&s.create, "create", false, "create the database in --data if it holds none (without it a data directory with no database is refused)")
	commandLineOnly(fs, "create")
}

// open opens the database. A --data without one is refused unless --create:
// run from the wrong folder, ./data would otherwise be a new, empty
// database, and the keys made there would be unknown to the server.
func (s *storeFlags) open(ctx context.Context) (store.Store, error) {
	if s.databaseURL == "" && !s.create {
		abs, err := filepath.Abs(s.dataDir)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(abs, store.SQLiteFile)); errors.Is(err, fs.ErrNotExist) {
			return nil, &exitError{code: 1, err: fmt.Errorf("no database in %s: give --data the directory 'clearhouse serve' uses "+
				"(or --database URL), start serve there once, or pass --create to make a new database there", abs)}
		}
	}
	return store.Open(ctx, s.dataDir, s.databaseURL)
}

// keyDir is where the embedded default keeps its secrets key ("" when the
// database is PostgreSQL: then the key must be given).
func (s *storeFlags) keyDir() string {
	if s.databaseURL != "" {
		return ""
	}
	return s.dataDir
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
	commandLineOnly(fs, "account", "mode", "name")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &exitError{code: 2, err: usageError(fs.Name(), fmt.Sprintf("unexpected argument %q", rest[0]))}
	}
	if account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "--account is required: the account's name (created if new)")}
	}
	if err := checkMode(mode); err != nil {
		return &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
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
	if _, err := partners.Seed(ctx, st, rec.AccountID, services.MockPayers(), time.Now()); err != nil {
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
		return &exitError{code: 2, err: usageError(fs.Name(), "give exactly one key id")}
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
