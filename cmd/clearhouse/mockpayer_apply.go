package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/store"
)

const scenariosApplySynopsis = "mockpayer scenarios apply -f FILE --account NAME [options]"

// mockpayerScenariosApply stores an account's test-mode payer simulator
// scenario file, as PUT /2024-04-01/mock-payer/scenarios does: validated
// whole first, then replacing the one there.
func mockpayerScenariosApply(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "apply" {
		fmt.Fprintf(stderr, "Usage: clearhouse %s\n", scenariosApplySynopsis)
		return &exitError{code: 2}
	}
	var db storeFlags
	var account, file string
	fs := newFlagSet("mockpayer scenarios apply", scenariosApplySynopsis,
		"Replaces the account's test-mode payer simulator scenarios with FILE (JSON or YAML, - for stdin;\n"+
			"docs/guides/payer-simulator.md). A file with a problem is refused with its line and field,\n"+
			"and then nothing changes.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "account name (required)")
	fs.StringVar(&file, "f", "", "the scenario file (- for standard input)")
	commandLineOnly(fs, "account", "f")
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) > 0 || file == "" || account == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "-f FILE and --account NAME are required")}
	}
	data, err := readDocument(file)
	if err != nil {
		return err
	}
	set, err := scenario.Parse(data)
	if err != nil {
		return &exitError{code: 1, err: fmt.Errorf("%s: %w", file, err)}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	acct, err := (&accountMode{account: account, mode: store.ModeTest}).resolve(ctx, st)
	if err != nil {
		return err
	}
	if err := store.ForTenant(st, store.Scope{AccountID: acct.ID, Mode: store.ModeTest}).PutMockScenarios(ctx, data, time.Now()); err != nil {
		return err
	}
	for _, s := range set.Scenarios {
		fmt.Fprintf(stdout, "scenario %s (line %d)\n", s.Name, s.Line)
	}
	fmt.Fprintf(stdout, "applied %d scenarios to %s (test mode)\n", len(set.Scenarios), account)
	return nil
}
