package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

const connectionsUsage = `Usage: clearhouse connections <test|list|seal> [options]

  test ID   checks connection ID step by step (dns, tcp, tls, auth, path) and
            says which step failed and how to fix it; exits 1 on a failure
  list      lists the declared connections (never their secrets)
  seal --id ID --field password|clientKey|privateKey|apiKey
            reads a secret on stdin and prints it sealed with --secrets-key
            for that connection and field, to paste into the --payers file
  webhook-url ID --account NAME --public-url URL
            prints the URL where the upstream of the account's stored
            CLEARINGHOUSE_API connection ID sends its webhook events

Connections are declared in the --payers file ("connections": [...]), or
stored per account and mode ('clearhouse partners apply'): one model, the
same checks. test and list take --payers FILE, or --account NAME --mode MODE
(with --data or --database) for an account's stored connections, and
--secrets-key KEY like 'clearhouse serve'.`

func runConnections(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, connectionsUsage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "test":
		return connectionsTest(ctx, args[1:], stdout, stderr)
	case "list":
		return connectionsList(ctx, args[1:], stdout, stderr)
	case "seal":
		return connectionsSeal(args[1:], os.Stdin, stdout, stderr)
	case "webhook-url":
		return connectionsWebhookURL(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, connectionsUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, connectionsUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown connections subcommand %q", args[0])}
}

// connectionSetFlags name the file and key of the connections.
type connectionSetFlags struct {
	payersFile string
	secrets    secretsKeyFlag
	dataDir    string
	conn       connectionFlags
	// An account's stored connections instead of the file's.
	databaseURL string
	account     accountMode
}

// addKeyDir adds --data: where the embedded default keeps its secrets key.
func (f *connectionSetFlags) addKeyDir(fs *flag.FlagSet) {
	fs.StringVar(&f.dataDir, "data", "./data", "serve's data directory: its "+secrets.KeyFileName+" file is the key when --secrets-key is empty")
}

func (f *connectionSetFlags) parse(name, synopsis, about string, args []string, stderr io.Writer) ([]string, error) {
	fs := newFlagSet("connections "+name, "connections "+synopsis, about, stderr)
	fs.StringVar(&f.payersFile, "payers", "", "the --payers file that declares the connections")
	fs.StringVar(&f.databaseURL, "database", "", "with --account: the database URL (postgres://…); empty for SQLite in --data")
	fs.StringVar(&f.account.account, "account", "", "read this account's stored connections (of --mode) instead of a --payers file")
	fs.StringVar(&f.account.mode, "mode", store.ModeProduction, "with --account: test or production")
	commandLineOnly(fs, "account", "mode")
	f.secrets.add(fs)
	f.addKeyDir(fs)
	f.conn.register(fs)
	return parseFlags(fs, args)
}

func (f *connectionSetFlags) load(ctx context.Context) (*connections.Set, error) {
	if (f.payersFile == "") == (f.account.account == "") {
		return nil, &exitError{code: 2, err: fmt.Errorf("give --payers FILE (the operator's connections) or --account NAME (an account's stored connections)")}
	}
	db := storeFlags{dataDir: f.dataDir, databaseURL: f.databaseURL}
	if f.payersFile != "" {
		box, err := f.secrets.boxFor(db.keyDir())
		if err != nil {
			return nil, err
		}
		return loadConnections(f.payersFile, box)
	}
	box, st, acct, err := openAccountStore(ctx, db, f.secrets, f.account)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	conns, err := st.ListConnections(ctx, acct.ID, f.account.mode)
	if err != nil {
		return nil, err
	}
	return connections.FromStored(conns, box)
}

func connectionsTest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f connectionSetFlags
	rest, err := f.parse("test", "test ID [options]", "Checks one connection step by step and says what failed.", args, stderr)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &exitError{code: 2, err: fmt.Errorf("want one connection id (see --help)")}
	}
	set, err := f.load(ctx)
	if err != nil {
		return err
	}
	report, err := set.Test(ctx, rest[0], connections.Options{Guard: f.conn.guard(nil)})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, st := range report.Steps {
		mark := "ok"
		if !st.OK {
			mark = "FAILED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", st.Name, mark, st.Detail)
	}
	tw.Flush()
	if failed := report.Failed(); failed != nil {
		return &exitError{code: 1, err: fmt.Errorf("connection %s failed at %s", report.ID, failed.Name)}
	}
	fmt.Fprintf(stdout, "connection %s works\n", report.ID)
	return nil
}

func connectionsList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f connectionSetFlags
	if _, err := f.parse("list", "list [options]", "Lists the declared connections, never their secrets.", args, stderr); err != nil {
		return err
	}
	set, err := f.load(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTYPE\tWHERE\tSECRETS")
	for _, id := range set.IDs() {
		d, _ := set.Get(id)
		where := d.URL
		switch d.Type {
		case connections.SFTP:
			where = fmt.Sprintf("sftp://%s@%s:%d", d.Username, d.Host, max(d.Port, 22))
		case connections.Directory:
			where = d.Path
			if where == "" {
				where = "in " + d.InboundDir + ", out " + d.OutboundDir
			}
		}
		var names []string
		for name := range d.SecretFields() {
			names = append(names, name+" (sealed)")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", d.ID, d.Type, where, strings.Join(names, ", "))
	}
	return tw.Flush()
}

func connectionsSeal(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var f connectionSetFlags
	var id, field string
	fs := newFlagSet("connections seal", "connections seal --id ID --field FIELD", "Reads a secret on stdin (one line, or all of it for a PEM key) and prints it sealed.", stderr)
	fs.StringVar(&id, "id", "", "the connection's id")
	fs.StringVar(&field, "field", connections.FieldPassword, "password, clientKey, privateKey or apiKey")
	commandLineOnly(fs, "id", "field")
	f.secrets.add(fs)
	f.addKeyDir(fs)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	switch field {
	case connections.FieldPassword, connections.FieldClientKey, connections.FieldPrivateKey, connections.FieldAPIKey:
	default:
		return &exitError{code: 2, err: fmt.Errorf("--field %q: want password, clientKey, privateKey or apiKey", field)}
	}
	if id == "" {
		return &exitError{code: 2, err: fmt.Errorf("--id is required")}
	}
	box, err := f.secrets.boxFor(f.dataDir)
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(io.LimitReader(bufio.NewReader(stdin), 64<<10))
	if err != nil {
		return err
	}
	value := string(raw)
	if field == connections.FieldPassword || field == connections.FieldAPIKey {
		value = strings.TrimRight(value, "\r\n")
	}
	if value == "" {
		return &exitError{code: 2, err: fmt.Errorf("nothing on stdin to seal")}
	}
	sealed, err := box.SealString(value, connections.SealContext(id, field))
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, sealed)
	return nil
}

// connectionsWebhookURL prints a stored CLEARINGHOUSE_API connection's
// webhook URL: the server's public URL and a token that only this server's
// secrets key opens (it names no account, mode or connection readably).
func connectionsWebhookURL(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f connectionSetFlags
	var publicURL string
	fs := newFlagSet("connections webhook-url", "connections webhook-url ID --account NAME --public-url URL [options]",
		"Prints where the upstream of a stored CLEARINGHOUSE_API connection sends its webhook events.", stderr)
	fs.StringVar(&f.databaseURL, "database", "", "the database URL (postgres://…); empty for SQLite in --data")
	fs.StringVar(&f.account.account, "account", "", "the account whose stored connection it is (required)")
	fs.StringVar(&f.account.mode, "mode", store.ModeProduction, "test or production")
	fs.StringVar(&publicURL, "public-url", "", "serve's --public-url: the base URL the upstream reaches this server at (required)")
	commandLineOnly(fs, "account", "mode", "public-url")
	f.secrets.add(fs)
	f.addKeyDir(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 || f.account.account == "" || publicURL == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "want one connection id, --account NAME and --public-url URL")}
	}
	box, st, acct, err := openAccountStore(ctx, storeFlags{dataDir: f.dataDir, databaseURL: f.databaseURL}, f.secrets, f.account)
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := st.GetConnection(ctx, acct.ID, f.account.mode, rest[0])
	if err != nil || c.Type != store.ConnectionClearinghouseAPI {
		return &exitError{code: 1, err: fmt.Errorf("account %q has no CLEARINGHOUSE_API connection %q in %s mode", f.account.account, rest[0], f.account.mode)}
	}
	token, err := upstream.WebhookToken(box, acct.ID, f.account.mode, c.ID)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, strings.TrimRight(publicURL, "/")+upstream.WebhookPath+token)
	return nil
}

// openAccountStore opens the secrets key, the database and the account of
// an admin command that works on one account's records; close the store.
func openAccountStore(ctx context.Context, db storeFlags, sk secretsKeyFlag, am accountMode) (*secrets.Box, store.Store, store.Account, error) {
	box, err := sk.boxFor(db.keyDir())
	if err != nil {
		return nil, nil, store.Account{}, err
	}
	st, err := db.open(ctx)
	if err != nil {
		return nil, nil, store.Account{}, err
	}
	acct, err := am.resolve(ctx, st)
	if err != nil {
		st.Close()
		return nil, nil, store.Account{}, err
	}
	return box, st, acct, nil
}
