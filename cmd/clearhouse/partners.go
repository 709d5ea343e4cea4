package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/store"
)

const partnersUsage = `Usage: clearhouse partners <apply|export> [options]

  apply -f FILE --account NAME [--mode test|production] [--prune] [--dry-run]
         makes the account's partners of that mode match FILE (JSON; - for
         stdin), in one transaction; applying the same file again changes
         nothing. Unknown fields and dangling references are refused with
         the entry at fault, and then nothing changes.
  export --account NAME [--mode test|production]
         prints the account's partners as such a file (secrets by name only)

Every subcommand takes --data DIR and --database URL like 'clearhouse serve',
and --secrets-key to store or keep connection secrets.`

func runPartners(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, partnersUsage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "apply":
		return partnersApply(ctx, args[1:], stdout, stderr)
	case "export":
		return partnersExport(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, partnersUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, partnersUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown partners subcommand %q", args[0])}
}

// accountMode are the --account and --mode options of partners commands.
type accountMode struct{ account, mode string }

func (a *accountMode) add(fs *flag.FlagSet) {
	fs.StringVar(&a.account, "account", "", "account name (required)")
	fs.StringVar(&a.mode, "mode", store.ModeTest, "test or production: whose partners (a key of that mode sees them)")
	commandLineOnly(fs, "account", "mode")
}

func (a *accountMode) resolve(ctx context.Context, st store.Store) (store.Account, error) {
	if err := checkMode(a.mode); err != nil {
		return store.Account{}, &exitError{code: 2, err: err}
	}
	acct, err := st.GetAccountByName(ctx, a.account)
	if errors.Is(err, store.ErrNotFound) {
		return acct, fmt.Errorf("no account %q (create it with 'clearhouse keys create --account %s --mode test')", a.account, a.account)
	}
	return acct, err
}

func partnersApply(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var sk secretsKeyFlag
	var am accountMode
	var file, directoryRoot string
	var prune, dryRun bool
	fs := newFlagSet("partners apply", "partners apply -f FILE --account NAME [options]",
		"Makes the account's profiles, connections, partnerships and transaction settings of\n"+
			"one mode match FILE, all or nothing. Prints what it created, updated or deleted.", stderr)
	db.add(fs)
	sk.add(fs)
	am.add(fs)
	fs.StringVar(&file, "f", "", "the JSON file to apply (- for standard input)")
	fs.BoolVar(&prune, "prune", false, "also delete what the file does not list (without it nothing is deleted)")
	fs.BoolVar(&dryRun, "dry-run", false, "check the file and print the changes without making them")
	fs.StringVar(&directoryRoot, "directory-root", "", "serve's --directory-root, which DIRECTORY connections' folders are checked against; empty: DIRECTORY connections are refused")
	commandLineOnly(fs, "f", "prune", "dry-run")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || file == "" || am.account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "-f FILE and --account NAME are required")}
	}
	if err := checkMode(am.mode); err != nil {
		return &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
	}
	data, err := readDocument(file)
	if err != nil {
		return err
	}
	doc, err := partners.DecodeDocument(data)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	box, st, acct, err := openAccountStore(ctx, db, sk, am)
	if err != nil {
		return err
	}
	defer st.Close()
	dirs, err := openDirectoryRoot(serveConfig{directoryRoot: directoryRoot, dataDir: db.dataDir}, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	if dirs != nil {
		defer dirs.Close()
	}
	res, err := partners.Apply(ctx, st, doc, partners.ApplyOptions{AccountID: acct.ID, Mode: am.mode,
		Secrets: box, Directories: dirs, Now: time.Now(), Prune: prune, DryRun: dryRun})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	verb := ""
	if dryRun {
		verb = "would "
	}
	counts := map[string]int{}
	for _, c := range res.Changes {
		fmt.Fprintf(stdout, "%s%s %s %s\n", verb, c.Action, c.Kind, c.ID)
		counts[c.Action]++
	}
	if len(res.Changes) == 0 {
		fmt.Fprintf(stdout, "No changes: %d records of account %q (%s mode) already match %s.\n", res.Unchanged, am.account, am.mode, file)
		return nil
	}
	if dryRun {
		fmt.Fprint(stdout, "Dry run, nothing changed: ")
	}
	fmt.Fprintf(stdout, "%d created, %d updated, %d deleted, %d unchanged (account %q, %s mode).\n",
		counts["create"], counts["update"], counts["delete"], res.Unchanged, am.account, am.mode)
	return nil
}

// readDocument reads a file (or stdin for "-") up to the document limit.
func readDocument(name string) ([]byte, error) {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, partners.MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > partners.MaxDocumentBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, partners.MaxDocumentBytes)
	}
	return data, nil
}

func partnersExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var am accountMode
	fs := newFlagSet("partners export", "partners export --account NAME [options]",
		"Prints the account's partners of one mode as a file 'partners apply' takes.\n"+
			"Secrets appear by name with a null value (apply keeps the stored one).", stderr)
	db.add(fs)
	am.add(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || am.account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "--account NAME is required")}
	}
	if err := checkMode(am.mode); err != nil {
		return &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	acct, err := am.resolve(ctx, st)
	if err != nil {
		return err
	}
	doc, err := partners.Export(ctx, st, acct.ID, am.mode)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
