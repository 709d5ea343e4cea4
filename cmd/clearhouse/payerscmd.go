package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/clearhouse/clearhouse/internal/payers"
)

const payersUsage = `Usage: clearhouse payers [import|export] [options]

  (no subcommand) lists the payers: id, name, other ids, transactions, connection
  import FILE [--out PATH]
         checks a payer directory file (JSON or the hosted CSV) and reports
         every problem at once with its line; with --out writes it, checked
         and normalized, where serve --payer-directory reads it
  export [--format json|csv]
         prints the directory (shipped, --payer-directory, --payers) as a
         directory file that import reads back

Run 'clearhouse payers <subcommand> --help' for the options of each.`

// runPayers prints the payer directory (the shipped one, with the
// --payer-directory and --payers files applied when given), or imports or
// exports a directory file. --markdown prints docs/payers.md.
func runPayers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "import":
			return payersImport(ctx, args[1:], stdout, stderr)
		case "export":
			return payersExport(ctx, args[1:], stdout, stderr)
		case "help":
			fmt.Fprintln(stderr, payersUsage)
			return errHelpShown
		}
	}
	var markdown bool
	fs := newFlagSet("payers", "payers [--payer-directory FILE] [--payers FILE] [--markdown]",
		"Lists the payers a tradingPartnerServiceId may name: id, name, other ids, the transactions\n"+
			"each takes and its production routes per kind (test keys reach the mock payers whatever they say).\n"+
			"'clearhouse payers import' and 'clearhouse payers export' read and write directory files.", stderr)
	fs.BoolVar(&markdown, "markdown", false, "print the list as the Markdown page docs/payers.md")
	commandLineOnly(fs, "markdown")
	dir, err := parseDirectoryFlags(fs, args)
	if err != nil {
		return err
	}
	if markdown {
		return writePayersMarkdown(stdout, dir.List())
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tOTHER IDS\tTRANSACTIONS\tPRODUCTION ROUTES")
	for _, p := range dir.List() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.ID, p.Name, orDash(strings.Join(p.Aliases, ", ")),
			transactionsColumn(p), orDash(routesColumn(p)))
	}
	return tw.Flush()
}

// parseDirectoryFlags adds --payer-directory and --payers to fs, parses
// args (no positional argument) and loads the directory they name.
func parseDirectoryFlags(fs *flag.FlagSet, args []string) (*payers.Directory, error) {
	var directory, file string
	fs.StringVar(&directory, "payer-directory", "", "payer directory file (JSON or the hosted CSV), as serve --payer-directory; empty for none")
	fs.StringVar(&file, "payers", "", "payer directory overrides, as serve --payers; empty for none")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, &exitError{code: 2, err: usageError(fs.Name(), fmt.Sprintf("unexpected argument %q", rest[0]))}
	}
	return payerDirectory(directory, file)
}

// routesColumn names the connections production traffic to the payer
// goes over, per kind ("eligibility: a, b; claims: c"), as the router
// (eligibility, claim status: "connections", else the single
// "connection") and the claims delivery ("connections" only) read them.
func routesColumn(p payers.Payer) string {
	var out []string
	for _, k := range []struct{ kind, code string }{
		{payers.RouteEligibility, payers.Eligibility}, {payers.RouteClaimStatus, payers.ClaimStatus},
	} {
		if names := p.RoutesFor(k.code); len(names) > 0 && p.Supports(k.code) {
			out = append(out, k.kind+": "+strings.Join(names, ", "))
		}
	}
	if names := p.Connections[payers.RouteClaims]; len(names) > 0 {
		out = append(out, payers.RouteClaims+": "+strings.Join(names, ", "))
	}
	return strings.Join(out, "; ")
}

// transactionsColumn lists the payer's transactions, a * after those that
// need enrollment.
func transactionsColumn(p payers.Payer) string {
	var out []string
	for _, t := range p.Transactions {
		if p.NeedsEnrollment(t) {
			t += "*"
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

// payersImport checks a directory file and, with --out, writes it where
// serve reads it.
func payersImport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var out string
	fs := newFlagSet("payers import", "payers import FILE [--out PATH]",
		"Checks a payer directory file: JSON ({\"items\": [payer records], \"enrollments\": [...]}, as\n"+
			"GET /2024-04-01/payers answers) or CSV (as GET /2024-04-01/payers/csv answers). A file\n"+
			"with problems is reported whole, each problem with its line, and nothing is written. With --out, the\n"+
			"checked directory (the shipped payers with the file applied) is written there as JSON,\n"+
			"replacing the file atomically; point serve --payer-directory at it and restart.", stderr)
	fs.StringVar(&out, "out", "", "where to write the checked directory (JSON); empty: check only")
	commandLineOnly(fs, "out")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &exitError{code: 2, err: usageError(fs.Name(), "name one directory file to import")}
	}
	f, err := payers.ReadDirectoryFile(rest[0])
	if err == nil {
		var dir *payers.Directory
		if dir, err = payers.Default().WithDirectoryFile(rest[0], f); err == nil {
			if out != "" {
				var b bytes.Buffer
				if err := dir.ExportJSON(&b); err != nil {
					return err
				}
				if err := writeFileDurably(out, b.Bytes()); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
			}
			fmt.Fprintf(stdout, "%s: %d payer records, %d enrollments: no problems; the directory has %d payers",
				rest[0], len(f.Records), len(f.Enrollments), dir.Len())
			if out != "" {
				fmt.Fprintf(stdout, "; written to %s", out)
			}
			fmt.Fprintln(stdout)
			return nil
		}
	}
	return &exitError{code: 1, err: err}
}

// payersExport prints the directory as a directory file.
func payersExport(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var format string
	fs := newFlagSet("payers export", "payers export [--format json|csv] [--payer-directory FILE] [--payers FILE]",
		"Prints the payer directory (the shipped one, with --payer-directory and --payers applied) as a\n"+
			"directory file that 'clearhouse payers import' and serve --payer-directory read back. JSON keeps\n"+
			"the accounts' enrollments; the CSV (the hosted API's columns) has no place for them.", stderr)
	fs.StringVar(&format, "format", "json", "json or csv")
	commandLineOnly(fs, "format")
	dir, err := parseDirectoryFlags(fs, args)
	if err != nil {
		return err
	}
	switch format {
	case "json":
		return dir.ExportJSON(stdout)
	case "csv":
		if n := len(dir.Enrollments()); n > 0 {
			fmt.Fprintf(stderr, "warning: the CSV has no place for the directory's %d enrollments; export JSON to keep them\n", n)
		}
		return dir.ExportCSV(stdout)
	}
	return &exitError{code: 2, err: usageError(fs.Name(), fmt.Sprintf("--format %q is neither json nor csv", format))}
}

// writeFileDurably replaces path with data: a synced temporary file
// renamed over it, then the directory synced, so a crash leaves the old
// file or the new one, never a part.
func writeFileDurably(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writePayersMarkdown writes docs/payers.md.
func writePayersMarkdown(w io.Writer, list []payers.Payer) error {
	var b strings.Builder
	b.WriteString("# Payers\n\n")
	b.WriteString("<!-- Generated by `go run ./cmd/clearhouse payers --markdown > docs/payers.md`; a test fails when it drifts. -->\n\n")
	b.WriteString("The payers a `tradingPartnerServiceId` may name in the shipped directory (`internal/payers/directory.json`).\n")
	b.WriteString("A running server lists its own, with `clearhouse payers [--payer-directory FILE] [--payers FILE]`: the operator's\n")
	b.WriteString("directory file adds payers and marks transactions ENROLLMENT_REQUIRED (shown with a `*` there), see\n")
	b.WriteString("[the payer directory](api/payers.md#the-directory-file).\n")
	b.WriteString("Test keys reach the mock payers only (see [mock payers](guides/mock-payers.md)); production checks and claims\n")
	b.WriteString("need the payer's connection, declared with `serve --payers` (see [connections](guides/connections.md)).\n\n")
	b.WriteString("| id | name | other ids | transactions | connection |\n|---|---|---|---|---|\n")
	for _, p := range list {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.ID, p.Name, orDash(strings.Join(p.Aliases, ", ")),
			strings.Join(p.Transactions, " "), orDash(p.Connection))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
