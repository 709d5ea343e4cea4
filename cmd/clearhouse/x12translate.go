package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// This file is "x12 translate": X12 to Guide JSON and back (package
// x12/guide; x12cmd.go uses the guides for "x12 validate" and "x12 ack").

func runX12Translate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("x12 translate", flag.ContinueOnError)
	var in x12Input
	in.register(fs)
	to := fs.String("to", "json", "output format: json (Guide JSON, from X12) or x12 (from Guide JSON)")
	pretty := fs.Bool("pretty", false, "indent the JSON")
	check := fs.Bool("validate", false, "also validate against the guides; findings go to standard error (exit 1 if any reject a set)")
	skipNPI := fs.Bool("skip-npi", false, "with --validate: do not check NPI check digits")
	lineBreaks := fs.Bool("line-breaks", false, "with --to x12: end each segment with a line feed")
	name, err := parseX12Flags(fs, args, stderr, `Usage: clearhouse x12 translate [options] FILE|-

Without --to, reads X12 and prints Guide JSON: per transaction set a
"heading", "detail" and "summary" object keyed by the guide's names
(e.g. "claim_information_CLM_loop"), inside interchange and group objects.
With --to x12, reads that JSON and prints the X12 again. The guide of each
set comes from its GS08/ST01/ST03; sets without a guide keep their segments
keyed by position. Exit status: 0 done, 1 findings (with --validate),
2 unreadable input.`)
	if err != nil {
		return err
	}
	src, err := openX12Input(name)
	if err != nil {
		return err
	}
	defer src.Close()
	out := bufio.NewWriterSize(stdout, 64<<10)
	defer out.Flush()

	switch *to {
	case "x12":
		opts := guide.DecodeOptions{LineBreaks: *lineBreaks}
		if in.delimiters != "" {
			d, err := x12.ParseDelimiters(in.delimiters)
			if err != nil {
				return &exitError{code: 2, err: err}
			}
			opts.Delimiters = d
		}
		if err := guide.DecodeJSON(out, bufio.NewReader(src), opts); err != nil {
			return &exitError{code: 2, err: err}
		}
		return nil
	case "json":
	default:
		return &exitError{code: 2, err: fmt.Errorf("--to %q: want json or x12", *to)}
	}
	ropts, err := in.readerOptions()
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	rejected := 0
	topts := guide.TranslateOptions{Reader: ropts, Indent: *pretty, Validate: *check,
		Options: guide.Options{SkipNPI: *skipNPI},
		OnFinding: func(f x12.Finding) {
			if f.Rejects() {
				rejected++
			}
			fmt.Fprintln(stderr, f.String())
		}}
	if err := guide.Translate(out, src, topts); err != nil {
		return &exitError{code: 2, err: err}
	}
	if rejected > 0 {
		return &exitError{code: 1}
	}
	return nil
}
