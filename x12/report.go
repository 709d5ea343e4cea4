package x12

import "sort"

// Report is the result of validating an input: the envelopes found, each
// with the findings that belong to it. Acknowledgments (WriteAcks) are
// rendered from a Report.
type Report struct {
	Interchanges []*InterchangeReport
	// Findings holds findings that belong to no interchange (no ISA, data
	// outside any interchange).
	Findings []Finding
	// Fragment is set when the input was a bare ST..SE fragment read with
	// supplied delimiters; its sets sit in a synthetic interchange and group
	// without ISA/GS data.
	Fragment bool
	// Segments and Bytes count what was read.
	Segments int64
	Bytes    int64
	// Dropped counts findings not kept because an envelope already held
	// MaxFindingsPerEnvelope (they were still passed to OnFinding); envelope
	// findings are kept past the cap, one per acknowledgment code.
	Dropped int
}

// InterchangeReport describes one ISA..IEA.
type InterchangeReport struct {
	Offset     int64
	End        int64 // offset just past the IEA (or the last segment read)
	Delimiters Delimiters
	// ISA fields, trimmed of padding.
	SenderQualifier, SenderID     string // ISA05, ISA06
	ReceiverQualifier, ReceiverID string // ISA07, ISA08
	Date, Time                    string // ISA09 YYMMDD, ISA10 HHMM
	Version                       string // ISA12
	ControlNumber                 string // ISA13
	AckRequested                  bool   // ISA14 = "1"
	Usage                         string // ISA15
	Findings                      []Finding
	Groups                        []*GroupReport
	// Synthetic marks a record made for groups or sets found without an
	// ISA (a bare fragment, or a GS with no interchange around it).
	Synthetic bool
}

// GroupReport describes one GS..GE.
type GroupReport struct {
	Offset        int64
	End           int64
	FunctionalID  string // GS01
	SenderCode    string // GS02
	ReceiverCode  string // GS03
	ControlNumber string // GS06
	Version       string // GS08
	// DeclaredSets is GE01 as a number (-1 when absent or not a number).
	DeclaredSets int
	Findings     []Finding
	Sets         []*SetReport
	// Synthetic marks a record made for sets found without a GS.
	Synthetic bool
}

// SetReport describes one ST..SE.
type SetReport struct {
	Offset            int64
	End               int64
	ID                string // ST01
	ControlNumber     string // ST02
	ImplementationRef string // ST03
	Segments          int    // counted ST..SE inclusive
	Findings          []Finding
}

// MaxFindingsPerEnvelope bounds the findings a Report keeps per envelope, so
// a file with an error in every segment cannot exhaust memory.
const MaxFindingsPerEnvelope = 1000

// Rejected reports whether any finding of the set rejects it.
func (s *SetReport) Rejected() bool { return anyRejects(s.Findings) }

// Rejected reports whether a group-level finding rejects the group.
func (g *GroupReport) Rejected() bool { return anyRejects(g.Findings) }

// Rejected reports whether an interchange-level finding rejects it.
func (ic *InterchangeReport) Rejected() bool { return anyRejects(ic.Findings) }

func anyRejects(fs []Finding) bool {
	for i := range fs {
		if fs[i].Rejects() {
			return true
		}
	}
	return false
}

// All returns every finding of the report in input order.
func (r *Report) All() []Finding {
	out := append([]Finding(nil), r.Findings...)
	for _, ic := range r.Interchanges {
		out = append(out, ic.Findings...)
		for _, g := range ic.Groups {
			out = append(out, g.Findings...)
			for _, s := range g.Sets {
				out = append(out, s.Findings...)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Offset < out[j].Offset })
	return out
}

// Count returns how many findings have at least the given severity.
func (r *Report) Count(min Severity) int {
	n := 0
	for _, f := range r.All() {
		if f.Severity >= min {
			n++
		}
	}
	return n
}

// Add files an extra finding (e.g. from a guide validator run separately)
// under the envelope that contains its offset, at the level its codes name.
// Findings outside every interchange go to Report.Findings.
func (r *Report) Add(f Finding) {
	for _, ic := range r.Interchanges {
		if f.Offset < ic.Offset || f.Offset > ic.End {
			continue
		}
		lvl := f.Level()
		if lvl == LevelInterchange {
			r.keep(&ic.Findings, f)
			return
		}
		for _, g := range ic.Groups {
			if f.Offset < g.Offset || f.Offset > g.End {
				continue
			}
			if lvl == LevelGroup {
				r.keep(&g.Findings, f)
				return
			}
			for _, s := range g.Sets {
				if f.Offset >= s.Offset && f.Offset <= s.End {
					r.keep(&s.Findings, f)
					return
				}
			}
			r.keep(&g.Findings, f)
			return
		}
		r.keep(&ic.Findings, f)
		return
	}
	r.keep(&r.Findings, f)
}

// keep files f under an envelope, up to MaxFindingsPerEnvelope. Past the
// cap, envelope findings (those carrying a TA1, AK9 or IK5 code) are still
// kept, one per distinct code: the acknowledgment's TA105, AK905 and IK502
// codes must not depend on how many segment errors came first (a large set
// keeps its SE01 count finding and so IK5 code 4). Everything past the cap
// is passed to OnFinding all the same.
func (r *Report) keep(dst *[]Finding, f Finding) {
	if len(*dst) >= MaxFindingsPerEnvelope {
		if lvl := f.Level(); lvl == LevelInterchange || lvl == LevelGroup || lvl == LevelSet {
			if !sameAckCode((*dst)[MaxFindingsPerEnvelope:], f) {
				*dst = append(*dst, f)
				return
			}
		}
		r.Dropped++
		return
	}
	*dst = append(*dst, f)
}

// sameAckCode reports whether fs (the few envelope findings kept past the
// cap) already holds f's acknowledgment code at f's severity.
func sameAckCode(fs []Finding, f Finding) bool {
	for i := range fs {
		g := &fs[i]
		if g.TA1 == f.TA1 && g.AK9 == f.AK9 && g.IK5 == f.IK5 && g.Rejects() == f.Rejects() {
			return true
		}
	}
	return false
}
