package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at build time: go build -ldflags "-X main.version=v1.2.3".
var version = "dev"

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "version", "Prints the version, VCS revision and Go version of this build.", stderr)
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "clearhouse %s (%s)\n", buildVersion(), runtime.Version())
	return nil
}

// buildVersion is the -X version, plus the VCS revision when Go recorded it.
func buildVersion() string {
	v := version
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return v
}
