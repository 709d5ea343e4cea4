package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Every configuration option is a flag and an environment variable
// (--max-body-bytes ↔ CLEARHOUSE_MAX_BODY_BYTES). A flag on the command line
// wins over the environment, which wins over the default.
//
// serve and the commands that work on serve's database (keys, partners,
// sftp users, connections) share the prefix CLEARHOUSE_, so one exported
// CLEARHOUSE_DATA or CLEARHOUSE_DATABASE points them all at the same place.
// The commands that run servers of their own have a prefix of their own, so
// exporting CLEARHOUSE_LISTEN for serve never moves the mock payer or the
// webhook listener onto serve's port.
var envPrefixes = map[string]string{
	"mockpayer serve": "CLEARHOUSE_MOCKPAYER_",
	"webhooks listen": "CLEARHOUSE_WEBHOOKS_",
}

// envName is the environment variable of a flag of the command named
// command (a flag set's name, e.g. "keys create").
func envName(command, flagName string) string {
	prefix, ok := envPrefixes[command]
	if !ok {
		prefix = "CLEARHOUSE_"
	}
	return prefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// argumentOnly marks a flag's value as read from the command line only: it
// names what one invocation acts on (a file, an account, a mode), so an
// exported variable would silently apply to every later invocation.
type argumentOnly struct{ flag.Value }

// IsBoolFlag keeps --flag (without =true) working for wrapped bool flags.
func (a argumentOnly) IsBoolFlag() bool {
	b, ok := a.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// commandLineOnly marks the named flags of fs as argumentOnly.
func commandLineOnly(fs *flag.FlagSet, names ...string) {
	for _, n := range names {
		f := fs.Lookup(n)
		if f == nil {
			panic("clearhouse: commandLineOnly: no flag " + n)
		}
		f.Value = argumentOnly{f.Value}
	}
}

// fromEnvironment reports whether f may be set from the environment.
func fromEnvironment(f *flag.Flag) bool {
	_, only := f.Value.(argumentOnly)
	return !only
}

// dashes is how a flag is written: -f for one letter, --name otherwise.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// newFlagSet makes a flag set whose --help names each option's variable.
// about is the command's description (without a Usage line: the synopsis
// makes that).
func newFlagSet(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { writeUsage(stderr, fs, synopsis, about) }
	return fs
}

func writeUsage(w io.Writer, fs *flag.FlagSet, synopsis, about string) {
	fmt.Fprintf(w, "Usage: clearhouse %s\n\n%s\n\nOptions (a $NAME after an option is the environment variable it is also read from):\n", synopsis, about)
	fs.VisitAll(func(f *flag.Flag) {
		def := ""
		if f.DefValue != "" && f.DefValue != "false" {
			def = fmt.Sprintf(" (default %q)", f.DefValue)
		}
		env := " (command line only)"
		if fromEnvironment(f) {
			env = "  [$" + envName(fs.Name(), f.Name) + "]"
		}
		fmt.Fprintf(w, "  %s%s%s\n      %s\n", dashes(f.Name), env, def, f.Usage)
	})
}

// parseFlags applies the environment, then the arguments, and returns the
// positional arguments. Flags may come before or after positionals. A bad
// flag is reported in one line plus a pointer to --help (not the whole
// help, which would bury the one line that matters).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if !fromEnvironment(f) {
			return
		}
		name := envName(fs.Name(), f.Name)
		if v, ok := os.LookupEnv(name); ok && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("$%s=%q: %v", name, v, err)
			}
		}
	})
	if envErr != nil {
		return nil, &exitError{code: 2, err: envErr}
	}
	usage, output := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	defer func() { fs.Usage = usage; fs.SetOutput(output) }()
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, errHelpShown
			}
			return nil, &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// usageError is a command-line mistake: what is wrong, then where the
// options are listed.
func usageError(command, problem string) error {
	return fmt.Errorf("%s\nRun 'clearhouse %s --help' for its options", problem, command)
}

// checkMode refuses a --mode that is neither test nor production, naming
// the value sent.
func checkMode(mode string) error {
	switch mode {
	case "test", "production":
		return nil
	case "":
		return errors.New("--mode is required: test or production")
	}
	return fmt.Errorf("--mode %q is not a mode: use test or production", mode)
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }
