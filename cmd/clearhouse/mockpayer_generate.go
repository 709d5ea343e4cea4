package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer/generate"
)

const generateSynopsis = "mockpayer generate --scenarios FILE [--claims-dir DIR] [options]"

// mockpayerGenerate writes synthetic members as a scenario file and their
// dental claims as claim request JSON files (internal/mockpayer/generate).
func mockpayerGenerate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var scenarios, claimsDir, payer string
	var seed uint64
	var members int
	fs := newFlagSet("mockpayer generate", generateSynopsis,
		"Writes synthetic members (names, dates of birth, member ids in the payer's pattern, codes from\n"+
			"shipped lists) as a payer simulator scenario file, and with --claims-dir one dental claim request\n"+
			"per member (POST /2024-04-01/dental-claims/submission). The same --seed writes the same files.\n"+
			"No value comes from a real person.", stderr)
	fs.StringVar(&scenarios, "scenarios", "", "the scenario file to write (- for standard output)")
	fs.StringVar(&claimsDir, "claims-dir", "", "a directory to write claim-NNN.json files into (dental payers)")
	fs.StringVar(&payer, "payer", "52133", "payer id: 52133, 62308, AMTAS00425 (dental), 60054, 87726")
	fs.Uint64Var(&seed, "seed", 1, "random seed")
	fs.IntVar(&members, "members", 10, fmt.Sprintf("members to generate (1-%d)", generate.MaxMembers))
	commandLineOnly(fs, "scenarios", "claims-dir", "payer", "seed", "members")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 || scenarios == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "--scenarios FILE is required")}
	}
	d, err := generate.New(generate.Options{Seed: seed, Members: members, PayerID: payer, Today: time.Now().UTC()})
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	file, err := d.ScenarioFile()
	if err != nil {
		return err
	}
	if scenarios == "-" {
		if _, err := stdout.Write(file); err != nil {
			return err
		}
	} else if err := os.WriteFile(scenarios, file, 0o644); err != nil {
		return err
	}
	if claimsDir == "" {
		return nil
	}
	claims, err := d.DentalClaims()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if err := os.MkdirAll(claimsDir, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(claims))
	for name := range claims {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(claimsDir, name), claims[name], 0o644); err != nil {
			return err
		}
	}
	if scenarios != "-" {
		fmt.Fprintf(stdout, "wrote %d members to %s and %d claims to %s\n", members, scenarios, len(names), claimsDir)
	}
	return nil
}
