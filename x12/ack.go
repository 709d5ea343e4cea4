package x12

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TA1Policy decides when WriteAcks sends a TA1.
type TA1Policy uint8

const (
	// TA1WhenRequested sends a TA1 when ISA14 is "1" or when the
	// interchange has interchange-level errors (the default).
	TA1WhenRequested TA1Policy = iota
	// TA1Always sends a TA1 for every interchange.
	TA1Always
	// TA1Never sends no TA1.
	TA1Never
)

// AckOptions configure WriteAcks.
type AckOptions struct {
	// Delimiters of the acknowledgment interchange (default DefaultDelimiters).
	Delimiters Delimiters
	// Numbers supplies ISA13/GS06/ST02 of the acknowledgments (default: a
	// fresh SequentialControlNumbers).
	Numbers ControlNumbers
	// Date of the acknowledgment envelopes (default: now, UTC).
	Date time.Time
	// TA1 decides when a TA1 is written.
	TA1 TA1Policy
	// Usage is ISA15 of the acknowledgment (default: the original's, else "P").
	Usage string
	// LineBreaks writes a LF after each segment.
	LineBreaks bool
}

// WriteAcks writes the acknowledgments of a validated input: for each
// interchange of the report, one interchange addressed back to its sender
// holding a TA1 (per the TA1 policy) and one functional group "FA" with a
// 999 (005010X231A1) per acknowledged functional group. Groups of
// acknowledgments (GS01 "FA": 999, 997) get no 999; an interchange that
// needs neither a TA1 nor a 999 gets no acknowledgment interchange, so
// acknowledging a file of 999s may write nothing.
//
// Where IK3 points: IK301 is the segment id and IK302 its position in the
// set (ST = 1). A required segment or loop that is missing has no position
// of its own, so its IK3 names the missing segment (IK301) at the position
// of the last segment read before the place it belongs (IK302), with IK303
// the loop it belongs to and IK304 3; it never joins the IK4s of the
// segment that is present at that position. To acknowledge
// findings from another layer (x12/guide), add them first with Report.Add or
// let Validate collect them through ValidateOptions.Sets.
func WriteAcks(w io.Writer, rep *Report, opts AckOptions) error {
	if opts.Delimiters == (Delimiters{}) {
		opts.Delimiters = DefaultDelimiters
	}
	if opts.Numbers == nil {
		opts.Numbers = &SequentialControlNumbers{}
	}
	if opts.Date.IsZero() {
		opts.Date = time.Now().UTC()
	}
	if len(rep.Interchanges) == 0 {
		return fmt.Errorf("x12: nothing to acknowledge: the input holds no interchange")
	}
	var wopts []WriterOption
	if opts.LineBreaks {
		wopts = append(wopts, WithLineBreaks())
	}
	iw := NewInterchangeWriter(w, opts.Delimiters, opts.Numbers, wopts...)
	for _, ic := range rep.Interchanges {
		if err := writeInterchangeAck(iw, ic, opts); err != nil {
			return err
		}
	}
	return iw.Flush()
}

func writeInterchangeAck(iw *InterchangeWriter, ic *InterchangeReport, opts AckOptions) error {
	if ic.Synthetic {
		return fmt.Errorf("x12: the envelopes at offset %d have no ISA, so there is no sender to acknowledge", ic.Offset)
	}
	if ic.SenderID == "" || ic.ReceiverID == "" {
		return fmt.Errorf("x12: interchange %s at offset %d has no sender or receiver id (ISA06/ISA08) to address an acknowledgment to", ic.ControlNumber, ic.Offset)
	}
	usage := opts.Usage
	if usage == "" {
		usage = ic.Usage
	}
	if !oneOf(usage, "P", "T", "I") {
		usage = "P"
	}
	h := InterchangeHeader{
		SenderQualifier: safeValue(clip(ic.ReceiverQualifier, 2), opts.Delimiters), SenderID: safeValue(clip(ic.ReceiverID, 15), opts.Delimiters),
		ReceiverQualifier: safeValue(clip(ic.SenderQualifier, 2), opts.Delimiters), ReceiverID: safeValue(clip(ic.SenderID, 15), opts.Delimiters),
		Date: opts.Date, Version: "00501", Usage: usage,
	}
	// A qualifier outside the HIPAA list (say "00") would make our own
	// acknowledgment fail the validator: address it as mutually defined.
	if !oneOf(h.SenderQualifier, hipaaIDQualifiers...) {
		h.SenderQualifier = "ZZ"
	}
	if !oneOf(h.ReceiverQualifier, hipaaIDQualifiers...) {
		h.ReceiverQualifier = "ZZ"
	}
	status, note := TA1Status(ic)
	var groups []*GroupReport
	for _, g := range ic.Groups {
		switch {
		case g.FunctionalID == "FA":
			// Acknowledgments (999, 997) are never acknowledged with a
			// 999: that would start an endless exchange (X231A1 1.4.3).
		case g.FunctionalID != "" && g.ControlNumber != "":
			groups = append(groups, g)
		case status == "A":
			// A group without GS01 or GS06 cannot be named in a 999 (AK1);
			// the TA1 reports the interchange content as invalid instead.
			status, note = "R", "024"
		}
	}
	sendTA1 := opts.TA1 == TA1Always || (opts.TA1 == TA1WhenRequested && (ic.AckRequested || status != "A"))
	if !sendTA1 && len(groups) == 0 {
		return nil // nothing to say: no interchange at all rather than an empty one
	}
	if err := iw.BeginInterchange(h); err != nil {
		return err
	}
	if sendTA1 {
		if err := iw.WriteSegment("TA1", ic.ControlNumber, ic.Date, ic.Time, status, note); err != nil {
			return err
		}
	}
	if len(groups) > 0 {
		g0 := groups[0]
		sender, ok1 := ackAppCode(g0.ReceiverCode, ic.ReceiverID, opts.Delimiters)
		receiver, ok2 := ackAppCode(g0.SenderCode, ic.SenderID, opts.Delimiters)
		if !ok1 || !ok2 {
			return fmt.Errorf("x12: group %s at offset %d has no usable application codes (GS02/GS03, 2-15 characters) to address a 999 to", g0.ControlNumber, g0.Offset)
		}
		if err := iw.BeginGroup(GroupHeader{FunctionalID: "FA", SenderCode: sender, ReceiverCode: receiver,
			Date: opts.Date, Version: "005010X231A1"}); err != nil {
			return err
		}
		for _, g := range groups {
			if err := write999(iw, g); err != nil {
				return err
			}
		}
		if err := iw.EndGroup(); err != nil {
			return err
		}
	}
	return iw.EndInterchange()
}

// TA1Status returns TA104 and TA105 for an interchange: "R" with the note
// code of its first rejecting interchange-level finding, "E" with the first
// non-rejecting one's code, else "A" and "000".
func TA1Status(ic *InterchangeReport) (status, note string) {
	status, note = "A", "000"
	for _, f := range ic.Findings {
		if f.TA1 == "" {
			continue
		}
		if f.Rejects() {
			return "R", f.TA1
		}
		if status == "A" {
			status, note = "E", f.TA1
		}
	}
	return status, note
}

// write999 writes one 999 transaction set acknowledging group g.
func write999(iw *InterchangeWriter, g *GroupReport) error {
	if err := iw.BeginTransaction("999", "005010X231A1"); err != nil {
		return err
	}
	if err := iw.WriteSegment("AK1", g.FunctionalID, g.ControlNumber, g.Version); err != nil {
		return err
	}
	accepted := 0
	for _, s := range g.Sets {
		ok, err := write999Set(iw, s)
		if err != nil {
			return err
		}
		if ok {
			accepted++
		}
	}
	status, codes := AK9Status(g, accepted)
	included := g.DeclaredSets
	if included < 0 {
		included = len(g.Sets)
	}
	elems := []string{status, strconv.Itoa(included), strconv.Itoa(len(g.Sets)), strconv.Itoa(accepted)}
	if err := iw.WriteSegment("AK9", append(elems, codes...)...); err != nil {
		return err
	}
	return iw.EndTransaction()
}

// elementNumber is IK402, the data element reference number (N0, 1-4
// digits): a composite's id (C023) is no element number, so a finding about
// a whole composite leaves IK402 out.
func elementNumber(ref string) string {
	for i := 0; i < len(ref); i++ {
		if ref[i] < '0' || ref[i] > '9' {
			return ""
		}
	}
	return ref
}

// standardLoopID is IK303: the loop identifier (data element 447, at most 4
// characters) of the X12 standard's loop, "2010" for the guides' 2010AA and
// 2010BA, "1000" for 1000A. A guide's longer loop name there fails the
// element's length, by pyx12 and by our own 999 guide.
func standardLoopID(loop string) string {
	if len(loop) > 4 {
		return loop[:4]
	}
	return loop
}

// write999Set writes AK2, the IK3/IK4 loops and IK5 for one set; it reports
// whether the set was accepted (IK501 A or E). A set with neither ST01 nor
// ST02 cannot be named in an AK2; it is only counted in AK9.
func write999Set(iw *InterchangeWriter, s *SetReport) (bool, error) {
	if s.ID == "" && s.ControlNumber == "" {
		return false, nil
	}
	if err := iw.WriteSegment("AK2", s.ID, s.ControlNumber, s.ImplementationRef); err != nil {
		return false, err
	}
	for _, seg := range SegmentErrors(s.Findings) {
		f := seg[0]
		if err := iw.WriteSegment("IK3", safeValue(f.SegmentID, iw.d), strconv.Itoa(f.Position), standardLoopID(f.LoopID), f.IK3); err != nil {
			return false, err
		}
		if f.ContextName != "" {
			ctx := Composite(safeValue(f.ContextName, iw.d), safeValue(f.ContextValue, iw.d))
			if err := iw.WriteSegmentFields("CTX", ctx); err != nil {
				return false, err
			}
		}
		for _, e := range seg {
			if e.IK4 == "" {
				continue
			}
			pos := []string{strconv.Itoa(e.Element)}
			if e.Component > 0 || e.Repetition > 0 {
				pos = append(pos, strconv.Itoa(e.Component))
			}
			if e.Repetition > 0 {
				pos = append(pos, strconv.Itoa(e.Repetition))
			}
			if err := iw.WriteSegmentFields("IK4", Composite(pos...), Simple(elementNumber(e.ElementRef)), Simple(e.IK4),
				Simple(safeValue(e.Value, iw.d))); err != nil {
				return false, err
			}
		}
	}
	status, codes := IK5Status(s)
	if err := iw.WriteSegment("IK5", append([]string{status}, codes...)...); err != nil {
		return false, err
	}
	return status == "A" || status == "E", nil
}

// SegmentErrors groups a set's segment-level findings (IK3 or IK4 codes)
// into IK3 loops, in input order; each group's first finding carries the
// IK3 code (IK304 "8", data element errors, when only element codes are
// present).
//
// A group is one segment: its position, id and loop. Required segments or
// loops found missing are reported at the position of the last segment
// before them, so several may share a position (a missing BHT and a missing
// 2000A HL both after ST): each gets its own group, and none is merged into
// the findings of the segment that is present there. A finding without a
// loop (the envelope validator's) joins the group of the same segment that
// a guide validator placed in a loop.
func SegmentErrors(fs []Finding) [][]Finding {
	type segKey struct {
		pos     int
		id      string
		loop    string
		missing bool
	}
	var out [][]Finding
	index := map[segKey]int{}
	// byPlace finds a present segment's group by position and id alone, to
	// join loop-less findings with looped ones.
	byPlace := map[segKey]int{}
	for _, f := range fs {
		if f.Level() != LevelSegment {
			continue
		}
		missing := f.IK3 == "3"
		k := segKey{pos: f.Position, id: f.SegmentID, loop: f.LoopID, missing: missing}
		place := segKey{pos: f.Position, id: f.SegmentID}
		i, ok := index[k]
		if !ok && !missing {
			if j, found := byPlace[place]; found {
				if g := &out[j][0]; f.LoopID == "" || g.LoopID == "" {
					if g.LoopID == "" {
						g.LoopID = f.LoopID
					}
					i, ok = j, true
					index[k] = j
				}
			}
		}
		if !ok {
			if f.IK3 == "" {
				f.IK3 = "8"
			}
			index[k] = len(out)
			if !missing {
				byPlace[place] = len(out)
			}
			out = append(out, []Finding{f})
			continue
		}
		if out[i][0].IK3 == "8" && f.IK3 != "" && f.IK3 != "8" {
			out[i][0].IK3 = f.IK3
		}
		out[i] = append(out[i], f)
	}
	slices.SortStableFunc(out, func(a, b []Finding) int { return cmp.Compare(a[0].Offset, b[0].Offset) })
	return out
}

// IK5Status returns IK501 and the IK502..IK506 codes of a set: "R" when a
// finding rejects it, "E" when findings with codes were noted, else "A".
// Segment errors add code "5" unless a set-level code explains the set.
func IK5Status(s *SetReport) (status string, codes []string) {
	status = "A"
	segErr := false
	for _, f := range s.Findings {
		lvl := f.Level()
		if lvl != LevelSet && lvl != LevelSegment {
			continue
		}
		if f.Rejects() {
			status = "R"
		} else if status == "A" {
			status = "E"
		}
		if lvl == LevelSet {
			codes = addCode(codes, f.IK5)
		} else if f.Rejects() {
			segErr = true
		}
	}
	if segErr {
		codes = addCode(codes, "5")
	}
	return status, sortCodes(codes, 5)
}

// AK9Status returns AK901 and the AK905..AK909 codes of a group with
// accepted sets: "R" for a rejecting group-level finding or when no set was
// accepted, "P" when some were, "E" when all were but errors were noted.
func AK9Status(g *GroupReport, accepted int) (status string, codes []string) {
	rejected, noted := false, false
	for _, f := range g.Findings {
		if f.AK9 == "" {
			continue
		}
		codes = addCode(codes, f.AK9)
		if f.Rejects() {
			rejected = true
		} else {
			noted = true
		}
	}
	for _, s := range g.Sets {
		if st, _ := IK5Status(s); st == "E" {
			noted = true
		}
	}
	switch {
	case rejected || (len(g.Sets) > 0 && accepted == 0):
		status = "R"
	case accepted < len(g.Sets):
		status = "P"
	case noted:
		status = "E"
	default:
		status = "A"
	}
	return status, sortCodes(codes, 5)
}

func addCode(codes []string, c string) []string {
	if c == "" || slices.Contains(codes, c) {
		return codes
	}
	return append(codes, c)
}

// sortCodes orders numeric codes numerically before the "I" codes and keeps
// at most max (the 999 has five code positions).
func sortCodes(codes []string, max int) []string {
	slices.SortFunc(codes, func(a, b string) int {
		na, ea := strconv.Atoi(a)
		nb, eb := strconv.Atoi(b)
		switch {
		case ea == nil && eb == nil:
			return na - nb
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
	if len(codes) > max {
		codes = codes[:max]
	}
	return codes
}

// safeValue replaces the acknowledgment's delimiters in a copied value, so
// echoing bad data can never break the 999 itself.
func safeValue(s string, d Delimiters) string {
	b := []byte(clipValue(s))
	for i, c := range b {
		if c == d.Element || c == d.Component || c == d.Segment || (d.Repetition != 0 && c == d.Repetition) || c < ' ' {
			b[i] = '?'
		}
	}
	return string(b)
}

// ackAppCode picks the GS02/GS03 of the acknowledgment: the original
// group's code, else the interchange id, trimmed and made delimiter-safe;
// ok is false when neither has the 2-15 characters GS requires.
func ackAppCode(code, fallback string, d Delimiters) (string, bool) {
	for _, c := range []string{code, fallback} {
		if c = strings.TrimSpace(c); len(c) >= 2 && len(c) <= 15 {
			return safeValue(c, d), true
		}
	}
	return "", false
}
