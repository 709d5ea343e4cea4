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

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("clearhouse: subcommand registered twice: " + c.name)
	}
	commands[c.name] = c
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
	c, ok := commands[args[0]]
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
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'clearhouse <command> --help' for a command's options.")
}
