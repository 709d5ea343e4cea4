package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// x12Subcommand is one "clearhouse x12 <name>" tool; x12Subcommands lists
// them all (translate lives in x12translate.go).
type x12Subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// x12Subcommands are the x12 tool's subcommands, in one table.
func x12Subcommands() map[string]x12Subcommand {
	return map[string]x12Subcommand{
		"parse":    x12Subcommand{summary: "print segments as JSON lines (id, offset, elements)", run: runX12Parse},
		"validate": {summary: "check envelopes (and guides) and print findings; exit 0 no errors, 1 errors, 2 unreadable, 3 a set had no guide", run: runX12Validate},
		"ack":      x12Subcommand{summary: "print the TA1/999 acknowledgment of a file", run: runX12Ack},
		"translate": {
			summary: "X12 → Guide JSON, or Guide JSON → X12 with --to x12",
			run:     runX12Translate,
		},
	}
}

// exitNotChecked is "x12 validate"'s status when nothing is wrong with what
// was checked but some transaction set had no guide: it was not validated,
// so it is not reported valid.
const exitNotChecked = 3

// x12GuideOptions are the guide flags validate and ack share.
type x12GuideOptions struct {
	noGuide bool // envelope checks only
	SkipNPI bool // no NPI check-digit rule (some official examples fail it)
}

func (o *x12GuideOptions) register(fs *flag.FlagSet, noGuideUsage string) {
	fs.BoolVar(&o.noGuide, "no-guide", false, noGuideUsage)
	fs.BoolVar(&o.SkipNPI, "skip-npi", false, "do not check NPI check digits in the guide validation")
}

// setValidator returns the guide validator the flags ask for, nil for none.
func (o *x12GuideOptions) setValidator() x12.SetValidator {
	if o.noGuide {
		return nil
	}
	return guide.NewSetValidator(guide.Options{SkipNPI: o.SkipNPI})
}

func runX12(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, "Usage: clearhouse x12 <tool> [options] FILE|-")
		fmt.Fprintln(stderr, "\nTools:")
		subs := x12Subcommands()
		for _, n := range slices.Sorted(maps.Keys(subs)) {
			fmt.Fprintf(stderr, "  %-10s %s\n", n, subs[n].summary)
		}
		fmt.Fprintln(stderr, "\nRun 'clearhouse x12 <tool> --help' for a tool's options.")
		if len(args) == 0 {
			return &exitError{code: 2}
		}
		return errHelpShown
	}
	sub, ok := x12Subcommands()[args[0]]
	if !ok {
		return &exitError{code: 2, err: fmt.Errorf("unknown x12 tool %q (run 'clearhouse x12 --help')", args[0])}
	}
	return sub.run(ctx, args[1:], stdout, stderr)
}

// x12Input holds the options every x12 tool shares: how to read the input.
type x12Input struct {
	delimiters string
	strict     bool
}

func (in *x12Input) register(fs *flag.FlagSet) {
	fs.StringVar(&in.delimiters, "delimiters", "",
		"delimiters for a bare ST..SE fragment without ISA, as 4 characters: element, repetition, component, segment (e.g. '*^:~'; \\n, \\r, \\xNN escapes)")
	fs.BoolVar(&in.strict, "strict", false, "accept only the fixed 106-character ISA (default: relaxed, deviations are findings)")
}

func (in *x12Input) readerOptions() ([]x12.ReaderOption, error) {
	var opts []x12.ReaderOption
	if in.delimiters != "" {
		d, err := x12.ParseDelimiters(in.delimiters)
		if err != nil {
			return nil, err
		}
		opts = append(opts, x12.WithDelimiters(d))
	}
	if in.strict {
		opts = append(opts, x12.WithStrictISA())
	}
	return opts, nil
}

// open opens FILE|- and returns the reader options the flags ask for.
func (in *x12Input) open(name string) (io.ReadCloser, []x12.ReaderOption, error) {
	opts, err := in.readerOptions()
	if err != nil {
		return nil, nil, &exitError{code: 2, err: err}
	}
	f, err := openX12Input(name)
	return f, opts, err
}

// parseX12Flags parses a tool's flags and returns its one FILE|- argument.
func parseX12Flags(fs *flag.FlagSet, args []string, stderr io.Writer, usage string) (string, error) {
	// The flag package prints the whole help after a bad flag; we print
	// the problem and where the help is instead.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			// The same layout as every other command's help (x12 tools
			// read no environment variables).
			fs.VisitAll(func(f *flag.Flag) { f.Value = argumentOnly{f.Value} })
			synopsis, about, _ := strings.Cut(strings.TrimPrefix(usage, "Usage: clearhouse "), "\n\n")
			writeUsage(stderr, fs, synopsis, about)
			return "", errHelpShown
		}
		return "", &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
	}
	if fs.NArg() != 1 {
		return "", &exitError{code: 2, err: usageError(fs.Name(), "want exactly one FILE (or - for standard input)")}
	}
	return fs.Arg(0), nil
}

// openX12Input opens FILE or standard input ("-").
func openX12Input(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &exitError{code: 2, err: err}
	}
	return f, nil
}

func runX12Parse(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("x12 parse", flag.ContinueOnError)
	var in x12Input
	in.register(fs)
	name, err := parseX12Flags(fs, args, stderr, `Usage: clearhouse x12 parse [options] FILE|-

Prints every segment as one JSON object per line:
  {"id":"NM1","offset":1234,"elements":["IL","1","DOE"]}
offset is the byte offset of the segment in the input; elements are the raw
element values (composites and repetitions unsplit). Exit status: 0 read to
the end, 1 the input is not X12, 2 unreadable.`)
	if err != nil {
		return err
	}
	f, opts, err := in.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	r := x12.NewReader(f, opts...)
	w := bufio.NewWriterSize(stdout, 64<<10)
	var line []byte
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Flush()
			var se *x12.SyntaxError
			if errors.As(err, &se) {
				return &exitError{code: 1, err: err}
			}
			return &exitError{code: 2, err: err}
		}
		line = appendSegmentJSON(line[:0], seg)
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}

// appendSegmentJSON renders a segment as a JSON line without reflection.
func appendSegmentJSON(b []byte, seg *x12.Segment) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, seg.IDBytes())
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, seg.Offset(), 10)
	b = append(b, `,"elements":[`...)
	for i := 1; i <= seg.Len(); i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = appendJSONString(b, seg.ElementBytes(i))
	}
	return append(b, "]}\n"...)
}

// appendJSONString quotes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(b, s []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
			i++
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r)
			i += size
		}
	}
	return append(b, '"')
}

func runX12Validate(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("x12 validate", flag.ContinueOnError)
	var in x12Input
	in.register(fs)
	asJSON := fs.Bool("json", false, "print findings as JSON lines instead of text")
	maxFindings := fs.Int("max-findings", 1000, "print at most N findings, then a summary line of what was not printed (0: no limit)")
	failOn := fs.String("fail-on", "error", "lowest severity that makes the exit status 1: error or warning")
	var gopts x12GuideOptions
	gopts.register(fs, "check envelopes only, skip implementation-guide validation")
	name, err := parseX12Flags(fs, args, stderr, `Usage: clearhouse x12 validate [options] FILE|-

Checks interchange, group and transaction set envelopes (counts, control
numbers, versions, ISA fields, segment syntax) and, when guides are built in,
each transaction set against its implementation guide. Prints one finding per
line: FILE:LINE:COL: SEVERITY CODE [SEGMENT]: MESSAGE (offset N), at most
--max-findings of them, then (when some were held back) one summary line.
Exit status: 0 no errors and every transaction set checked against its guide
(warnings and notes are printed but pass, unless --fail-on warning); 1 errors;
2 unreadable; 3 no errors, but some transaction set has no built-in guide
(e.g. a 4010 set, or a transaction Clearhouse has no guide for), so only its
envelope was checked (finding guide.not-found). With --no-guide only the
envelopes are checked, as asked, and 3 is not used.`)
	if err != nil {
		return err
	}
	threshold, ok := map[string]x12.Severity{"error": x12.Error, "warning": x12.Warning}[*failOn]
	if !ok {
		return &exitError{code: 2, err: fmt.Errorf("--fail-on %q: want error or warning", *failOn)}
	}
	if *maxFindings < 0 {
		return &exitError{code: 2, err: fmt.Errorf("--max-findings %d: want 0 (no limit) or more", *maxFindings)}
	}
	f, opts, err := in.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	var counts [x12.Fatal + 1]int
	printed, unchecked := 0, 0
	vo := x12.ValidateOptions{Reader: opts, NoTree: true, OnFinding: func(fd x12.Finding) {
		counts[fd.Severity]++
		if fd.Code == guide.CodeNoGuide {
			unchecked++
		}
		// A hostile file can hold a finding in every segment: past the
		// limit findings are only counted, so output stays bounded.
		if *maxFindings > 0 && printed >= *maxFindings {
			return
		}
		printed++
		if *asJSON {
			w.Write(appendFindingJSON(nil, fd))
			return
		}
		fmt.Fprintf(w, "%s:%s\n", name, formatFinding(fd))
	}}
	vo.Sets = gopts.setValidator()
	rep, err := x12.Validate(f, vo)
	if err != nil {
		w.Flush()
		return &exitError{code: 2, err: err}
	}
	total := counts[x12.Info] + counts[x12.Warning] + counts[x12.Error] + counts[x12.Fatal]
	if held := total - printed; held > 0 {
		summary := fmt.Sprintf("%d more findings not shown (--max-findings %d): %d fatal, %d errors, %d warnings, %d notes in all",
			held, *maxFindings, counts[x12.Fatal], counts[x12.Error], counts[x12.Warning], counts[x12.Info])
		if *asJSON {
			w.Write(appendSummaryJSON(nil, held, counts))
		} else {
			fmt.Fprintf(w, "%s: %s\n", name, summary)
		}
	}
	w.Flush()
	fmt.Fprintf(stderr, "%s: %d segments, %d bytes: %d fatal, %d errors, %d warnings, %d notes\n",
		name, rep.Segments, rep.Bytes, counts[x12.Fatal], counts[x12.Error], counts[x12.Warning], counts[x12.Info])
	failing := 0
	for sev := threshold; sev <= x12.Fatal; sev++ {
		failing += counts[sev]
	}
	if failing > 0 {
		return &exitError{code: 1}
	}
	if unchecked > 0 && !gopts.noGuide {
		fmt.Fprintf(stderr, "%s: %d transaction sets not checked: no implementation guide for them, only their envelopes were checked (exit status %d)\n",
			name, unchecked, exitNotChecked)
		return &exitError{code: exitNotChecked}
	}
	return nil
}

// appendSummaryJSON renders the line that closes a --json listing cut short
// by --max-findings: how many findings were held back, and the totals.
func appendSummaryJSON(b []byte, held int, counts [x12.Fatal + 1]int) []byte {
	b = append(b, `{"summary":true,"notShown":`...)
	b = strconv.AppendInt(b, int64(held), 10)
	for _, c := range []struct {
		key string
		sev x12.Severity
	}{{"fatal", x12.Fatal}, {"errors", x12.Error}, {"warnings", x12.Warning}, {"notes", x12.Info}} {
		b = append(b, `,"`+c.key+`":`...)
		b = strconv.AppendInt(b, int64(counts[c.sev]), 10)
	}
	return append(b, "}\n"...)
}

// formatFinding renders "LINE:COL: severity code SEG01: message (offset N)".
func formatFinding(f x12.Finding) string {
	where := ""
	if f.SegmentID != "" {
		where = " " + f.SegmentID
		if f.Element > 0 {
			where += fmt.Sprintf("%02d", f.Element)
		}
	}
	return fmt.Sprintf("%d:%d: %s %s%s: %s (offset %d)", f.Line, f.Column, f.Severity, f.Code, where, f.Message, f.Offset)
}

// appendFindingJSON renders a finding as a JSON line.
func appendFindingJSON(b []byte, f x12.Finding) []byte {
	str := func(key, v string) {
		if v != "" {
			b = append(b, `,"`+key+`":`...)
			b = appendJSONString(b, []byte(v))
		}
	}
	num := func(key string, v int64) {
		if v != 0 {
			b = append(b, `,"`+key+`":`...)
			b = strconv.AppendInt(b, v, 10)
		}
	}
	b = append(b, `{"severity":"`+f.Severity.String()+`","code":`...)
	b = appendJSONString(b, []byte(f.Code))
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, f.Offset, 10)
	num("line", int64(f.Line))
	num("column", int64(f.Column))
	str("segment", f.SegmentID)
	num("position", int64(f.Position))
	str("loop", f.LoopID)
	num("element", int64(f.Element))
	num("component", int64(f.Component))
	num("repetition", int64(f.Repetition))
	str("elementRef", f.ElementRef)
	str("ta1", f.TA1)
	str("ak9", f.AK9)
	str("ik5", f.IK5)
	str("ik3", f.IK3)
	str("ik4", f.IK4)
	str("message", f.Message)
	return append(b, "}\n"...)
}

func runX12Ack(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("x12 ack", flag.ContinueOnError)
	var in x12Input
	in.register(fs)
	ta1 := fs.String("ta1", "requested", "when to send a TA1: requested (ISA14=1 or interchange errors), always, never")
	lines := fs.Bool("line-breaks", false, "write a line break after each segment")
	var gopts x12GuideOptions
	gopts.register(fs, "acknowledge envelope findings only, skip implementation-guide validation")
	control := fs.Int64("control-number", 1, "first control number for ISA13/GS06/ST02 of the acknowledgment")
	name, err := parseX12Flags(fs, args, stderr, `Usage: clearhouse x12 ack [options] FILE|-

Validates FILE and prints its acknowledgment: per interchange, an interchange
addressed back to the sender with a TA1 (see -ta1) and a 999 (005010X231A1)
per functional group, with IK3/IK4/IK5/AK9 codes from the findings.
Exit status: 0 printed, 2 unreadable or not X12.`)
	if err != nil {
		return err
	}
	policy, ok := map[string]x12.TA1Policy{"requested": x12.TA1WhenRequested, "always": x12.TA1Always, "never": x12.TA1Never}[*ta1]
	if !ok {
		return &exitError{code: 2, err: fmt.Errorf("-ta1 %q: want requested, always or never", *ta1)}
	}
	f, opts, err := in.open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	vo := x12.ValidateOptions{Reader: opts}
	vo.Sets = gopts.setValidator()
	rep, err := x12.Validate(f, vo)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	start := *control - 1
	numbers := &x12.SequentialControlNumbers{Interchange: start, Group: start, Transaction: start}
	if err := x12.WriteAcks(stdout, rep, x12.AckOptions{TA1: policy, LineBreaks: *lines, Numbers: numbers}); err != nil {
		return &exitError{code: 2, err: err}
	}
	return nil
}
