package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
)

const auditUsage = `Usage: clearhouse audit <verify|export> [options]

  verify [--account NAME]
         walks every account's audit chain (or one account's) and checks each
         event's hash; exits 1 naming the first event that was changed,
         removed or reordered
  export --account NAME [--mode test|production] [--from TIME] [--to TIME]
         writes the account's audit events as JSON lines, newest first (the
         export itself is recorded, by the operating-system user)

Every subcommand takes --data DIR and --database URL like 'clearhouse serve'.`

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, auditUsage)
		return &exitError{code: 2}
	}
	switch args[0] {
	case "verify":
		return auditVerify(ctx, args[1:], stdout, stderr)
	case "export":
		return auditExport(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, auditUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, auditUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown audit subcommand %q", args[0])}
}

func auditVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account string
	fs := newFlagSet("audit verify", "audit verify [--account NAME] [options]",
		"Checks the hash chain of every account's audit events (or one account's).", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "verify only this account's chain")
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
	heads, err := st.AuditChains(ctx)
	if err != nil {
		return err
	}
	broken := 0
	for _, h := range heads {
		a, err := st.GetAccount(ctx, h.AccountID)
		if err != nil {
			return err
		}
		if account != "" && a.Name != account {
			continue
		}
		n, err := audit.Verify(ctx, st, h.AccountID)
		var b *audit.BrokenChain
		switch {
		case errors.As(err, &b):
			broken++
			fmt.Fprintf(stdout, "account %q (%s): BROKEN at event %d of %d: %s\n", a.Name, a.ID, b.Seq, h.Seq, b.Reason)
		case err != nil:
			return err
		default:
			fmt.Fprintf(stdout, "account %q (%s): %d events, chain intact, head %s\n", a.Name, a.ID, n, h.Hash)
		}
	}
	if broken > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d audit chains are broken", broken)}
	}
	return nil
}

func auditExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account, mode, from, to string
	fs := newFlagSet("audit export", "audit export --account NAME [options]",
		"Writes an account's audit events as JSON lines, newest first.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "account name (required)")
	fs.StringVar(&mode, "mode", "", "only this mode's events (test or production)")
	fs.StringVar(&from, "from", "", "events at or after this time (RFC 3339)")
	fs.StringVar(&to, "to", "", "events before this time (RFC 3339)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "give --account NAME and no other arguments")}
	}
	f := store.AuditFilter{Mode: mode, Limit: 500}
	if mode != "" {
		if err := checkMode(mode); err != nil {
			return &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
		}
	}
	for _, t := range []struct {
		name, value string
		into        *time.Time
	}{{"--from", from, &f.From}, {"--to", to, &f.To}} {
		if t.value == "" {
			continue
		}
		if *t.into, err = time.Parse(time.RFC3339Nano, t.value); err != nil {
			return &exitError{code: 2, err: usageError(fs.Name(), t.name+" must be a time such as 2026-11-01T00:00:00Z")}
		}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	a, err := st.GetAccountByName(ctx, account)
	if errors.Is(err, store.ErrNotFound) {
		return &exitError{code: 1, err: fmt.Errorf("no account named %q", account)}
	}
	if err != nil {
		return err
	}
	who := os.Getenv("USER")
	if who == "" {
		who = fmt.Sprint("uid ", os.Getuid())
	}
	if _, err := audit.New(st, nil).Record(ctx, audit.Entry{AccountID: a.ID, Mode: mode, ActorType: audit.ActorCLI, ActorID: who,
		Action: audit.ActionExport, ResourceType: audit.ResourceAuditLog, Route: "clearhouse audit export"}); err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	enc := json.NewEncoder(out)
	for {
		list, next, err := st.ListAuditEvents(ctx, a.ID, f)
		if err != nil {
			return err
		}
		for _, e := range list {
			if err := enc.Encode(api.AuditEventJSON(e)); err != nil {
				return err
			}
		}
		if next == "" {
			return out.Flush()
		}
		f.Cursor = next
	}
}
