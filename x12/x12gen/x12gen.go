// Package x12gen writes large, valid, deterministic X12 files for tests and
// benchmarks: 837P professional claims (005010X222A1), 835 claim payments
// (005010X221A1) and 270 eligibility inquiries (005010X279A1). The same
// options and seed always give the same bytes. All names, ids and addresses are synthetic; NPIs carry a valid
// check digit and every count and control number is consistent, so the
// envelope validator finds nothing.
package x12gen

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// Kind selects the transaction to generate.
type Kind string

const (
	// Claims837P generates 837 professional claims, 005010X222A1.
	Claims837P Kind = "837P"
	// Inquiries270 generates 270 eligibility inquiries, 005010X279A1.
	Inquiries270 Kind = "270"
	// Remittances835 generates 835 claim payments, 005010X221A1.
	Remittances835 Kind = "835"
)

// Options control generation.
type Options struct {
	Kind Kind
	// Seed makes the output reproducible (0 is a valid seed).
	Seed uint64
	// TargetBytes stops adding claims or inquiries once the output reaches
	// this size (the envelopes are then closed). Items is used when 0.
	TargetBytes int64
	// Items is the number of claims or inquiries when TargetBytes is 0.
	Items int
	// PerSet is the number of claims (default 5000, the 837 guide's
	// recommended maximum) or inquiries (default 99) per transaction set.
	PerSet int
	// SetsPerInterchange closes the interchange and opens a new one after
	// this many sets (default 0: one interchange).
	SetsPerInterchange int
	// Delimiters default to x12.DefaultDelimiters.
	Delimiters x12.Delimiters
	// LineBreaks puts a LF after every segment.
	LineBreaks bool
}

// Stats describe what Generate wrote.
type Stats struct {
	Bytes        int64
	Segments     int
	Items        int // claims or inquiries
	Sets         int
	Interchanges int
}

// date is the fixed envelope date, so output does not depend on the clock.
var date = time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC)

// Generate writes one or more interchanges to w.
func Generate(w io.Writer, o Options) (Stats, error) {
	if o.Delimiters == (x12.Delimiters{}) {
		o.Delimiters = x12.DefaultDelimiters
	}
	if o.TargetBytes == 0 && o.Items <= 0 {
		return Stats{}, fmt.Errorf("x12gen: set TargetBytes or Items")
	}
	var g generator
	switch o.Kind {
	case Claims837P:
		g = &claims{}
		if o.PerSet == 0 {
			o.PerSet = 5000
		}
	case Inquiries270:
		g = &inquiries{}
		if o.PerSet == 0 {
			o.PerSet = 99
		}
	case Remittances835:
		g = &remittances{}
		if o.PerSet == 0 {
			o.PerSet = 5000
		}
	default:
		return Stats{}, fmt.Errorf("x12gen: unknown kind %q (want %s, %s or %s)", o.Kind, Claims837P, Inquiries270, Remittances835)
	}
	var wopts []x12.WriterOption
	if o.LineBreaks {
		wopts = append(wopts, x12.WithLineBreaks())
	}
	numbers := &x12.SequentialControlNumbers{}
	iw := x12.NewInterchangeWriter(w, o.Delimiters, numbers, wopts...)
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	var st Stats
	done := func() bool {
		if o.TargetBytes > 0 {
			return iw.BytesWritten() >= o.TargetBytes
		}
		return st.Items >= o.Items
	}
	for !done() {
		if err := iw.BeginInterchange(x12.InterchangeHeader{SenderID: "CLEARHOUSEGEN", ReceiverID: "PAYERGEN",
			Date: date, Usage: "T"}); err != nil {
			return st, err
		}
		st.Interchanges++
		if err := iw.BeginGroup(x12.GroupHeader{FunctionalID: g.functionalID(), SenderCode: "CLEARHOUSEGEN",
			ReceiverCode: "PAYERGEN", Date: date, Version: g.version()}); err != nil {
			return st, err
		}
		for sets := 0; !done() && (o.SetsPerInterchange == 0 || sets < o.SetsPerInterchange); sets++ {
			if err := iw.BeginTransaction(g.setID(), g.implementationRef()); err != nil {
				return st, err
			}
			st.Sets++
			if err := g.header(iw, rng, st.Sets); err != nil {
				return st, err
			}
			for n := 0; n < o.PerSet && !done(); n++ {
				st.Items++
				if err := g.item(iw, rng, st.Items); err != nil {
					return st, err
				}
			}
			if t, ok := g.(trailerWriter); ok {
				if err := t.trailer(iw); err != nil {
					return st, err
				}
			}
			if err := iw.EndTransaction(); err != nil {
				return st, err
			}
		}
		if err := iw.EndGroup(); err != nil {
			return st, err
		}
		if err := iw.EndInterchange(); err != nil {
			return st, err
		}
	}
	st.Bytes, st.Segments = iw.BytesWritten(), iw.Count()
	return st, iw.Flush()
}

// generator writes the content of one kind of transaction set.
type generator interface {
	functionalID() string
	version() string
	setID() string
	implementationRef() string // ST03; empty where the guide leaves it unused
	header(iw *x12.InterchangeWriter, rng *rand.Rand, set int) error
	item(iw *x12.InterchangeWriter, rng *rand.Rand, n int) error
}

// trailerWriter is a generator with segments to write after the last item
// of a set.
type trailerWriter interface {
	trailer(iw *x12.InterchangeWriter) error
}

// NPI returns a valid NPI (Luhn check digit with the 80840 prefix) built
// from the 9 digits of base (mod 10^9), starting with 1.
func NPI(base uint64) string {
	digits := []byte(fmt.Sprintf("1%08d", base%100000000))
	sum := 24 // the prefix 80840 contributes 24
	for i := 8; i >= 0; i-- {
		d := int(digits[i] - '0')
		if (8-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return string(digits) + strconv.Itoa((10-sum%10)%10)
}

var (
	lastNames  = []string{"SAMPLE", "EXAMPLE", "TESTCASE", "DEMO", "PLACEHOLDER", "SYNTHETIC", "FICTION", "MODEL"}
	firstNames = []string{"ALEX", "JORDAN", "TAYLOR", "MORGAN", "CASEY", "RILEY", "AVERY", "QUINN"}
	streets    = []string{"100 MAIN ST", "25 OAK AVE", "9 ELM RD", "410 PINE BLVD", "77 CEDAR LN"}
	cities     = []struct{ city, state, zip string }{{"SPRINGFIELD", "IL", "62701"}, {"RIVERTON", "WY", "82501"},
		{"FAIRVIEW", "TN", "37062"}, {"MADISON", "WI", "53703"}}
	procedures = []string{"99213", "99214", "87880", "93000", "81002", "36415", "90471"}
	diagnoses  = []string{"J069", "I10", "E119", "M545", "R05", "Z0000"}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func cents(c int) string { return strconv.Itoa(c/100) + "." + fmt.Sprintf("%02d", c%100) }
