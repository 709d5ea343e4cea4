package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Every option is a flag and, with the prefix CLEARHOUSE_, an environment
// variable (--max-body-bytes ↔ CLEARHOUSE_MAX_BODY_BYTES). A flag on the
// command line wins over the environment, which wins over the default.

// envName is the environment variable of a flag.
func envName(flagName string) string {
	return "CLEARHOUSE_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// newFlagSet makes a flag set whose --help names each option's variable.
func newFlagSet(name, synopsis, about string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: clearhouse %s\n\n%s\n\nOptions (each also read from the environment variable shown):\n", synopsis, about)
		fs.VisitAll(func(f *flag.Flag) {
			def := ""
			if f.DefValue != "" {
				def = fmt.Sprintf(" (default %q)", f.DefValue)
			}
			fmt.Fprintf(stderr, "  --%s  [$%s]%s\n      %s\n", f.Name, envName(f.Name), def, f.Usage)
		})
	}
	return fs
}

// parseFlags applies the environment, then the arguments, and returns the
// positional arguments. Flags may come before or after positionals.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("$%s: %v", envName(f.Name), err)
			}
		}
	})
	if envErr != nil {
		return nil, &exitError{code: 2, err: envErr}
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelpShown
			}
			return nil, &exitError{code: 2} // flag already printed the problem and usage
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
