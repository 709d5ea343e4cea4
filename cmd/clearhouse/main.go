// Command clearhouse is the Clearhouse service and its tools in one binary:
// the HTTP service (serve), API key administration (keys), X12 tools (x12)
// and build information (version).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"syscall"
)

// command is one subcommand. Each lives in its own file and registers itself
// from init, so adding a subcommand never touches this file.
type command struct {
	name    string
	summary string
	// run receives the arguments after the subcommand name. It writes its
	// results to stdout and its diagnostics to stderr.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands is every subcommand by name, from one table read top to bottom:
// nothing registers a command at start-up (no init()).
func commands() map[string]command {
	list := []command{
		command{name: "serve", summary: "run the HTTP API service", run: runServe},
		command{name: "keys", summary: "create, list and revoke API keys", run: runKeys},
		command{name: "partners", summary: "apply or export trading partners (profiles, partnerships, settings, connections)", run: runPartners},
		command{name: "connections", summary: "check payer and partner connections; seal their secrets", run: runConnections},
		command{name: "sftp", summary: "manage the users of the embedded SFTP server", run: runSFTP},
		command{name: "payers", summary: "list the payers this server knows (ids, names, transactions, connection)", run: runPayers},
		command{name: "webhooks", summary: "developer tools for webhooks: listen (a local, verifying receiver)", run: runWebhooks},
		command{name: "retention", summary: "set or show how long each account keeps its records", run: runRetention},
		command{name: "purge", summary: "remove what the retention policies no longer keep (--dry-run: show it)", run: runPurge},
		command{name: "audit", summary: "verify and export the access audit", run: runAudit},
		command{name: "backup", summary: "copy the embedded default's database and files, while it runs", run: runBackup},
		command{name: "restore", summary: "check a backup's checksums and restore it into a new data directory", run: runRestore},
		command{name: "mockpayer", summary: "run the mock payers as a separate process (CAQH CORE SOAP/MIME)", run: runMockpayer},
		command{name: "x12", summary: "X12 tools: parse, validate, ack, ...", run: runX12},
		command{name: "docs", summary: "print generated documentation: docs flags > docs/configuration.md", run: runDocs},
		command{name: "version", summary: "print the build version", run: runVersion},
	}
	byName := make(map[string]command, len(list))
	for _, c := range list {
		byName[c.name] = c
	}
	return byName
}

// exitError carries a specific process exit status out of a subcommand
// (x12 validate exits 1 for errors and 2 for unreadable input).
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands()[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "clearhouse: unknown command %q\n\n", args[0])
		usage(stderr)
		return 2
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "clearhouse %s: %v\n", c.name, ee.err)
		}
		return ee.code
	}
	if errors.Is(err, errHelpShown) {
		return 0
	}
	fmt.Fprintf(stderr, "clearhouse %s: %v\n", c.name, err)
	return 1
}

// errHelpShown is returned by a subcommand that printed its --help.
var errHelpShown = errors.New("help shown")

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: clearhouse <command> [options]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	cs := commands()
	for _, n := range slices.Sorted(maps.Keys(cs)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, cs[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'clearhouse <command> --help' for a command's options.")
}
