package x12gen

import (
	"math/rand/v2"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// inquiries writes 270 sets: one payer and one provider per set, then per
// inquiry a subscriber HL with a TRN trace, member name and id, birth date,
// date of service and a generic EQ*30 request.
type inquiries struct{ hl int }

func (*inquiries) functionalID() string        { return "HS" }
func (*inquiries) version() string             { return "005010X279A1" }
func (q *inquiries) implementationRef() string { return q.version() }
func (*inquiries) setID() string               { return "270" }

func (q *inquiries) header(iw *x12.InterchangeWriter, _ *rand.Rand, set int) error {
	q.hl = 2
	return writeAll(iw, [][]string{
		{"BHT", "0022", "13", "E" + strconv.Itoa(set), "20240102", "0304"},
		{"HL", "1", "", "20", "1"},
		{"NM1", "PR", "2", "GENERATED PAYER", "", "", "", "", "PI", "PAYER01"},
		{"HL", "2", "1", "21", "1"},
		{"NM1", "1P", "2", "SYNTHETIC CLINIC " + strconv.Itoa(set%97), "", "", "", "", "XX", NPI(uint64(set) * 104729)},
	})
}

func (q *inquiries) item(iw *x12.InterchangeWriter, rng *rand.Rand, n int) error {
	q.hl++
	return writeAll(iw, [][]string{
		{"HL", strconv.Itoa(q.hl), "2", "22", "0"},
		{"TRN", "1", "T" + strconv.Itoa(n), "9877281234"},
		{"NM1", "IL", "1", pick(rng, lastNames), pick(rng, firstNames), "", "", "", "MI", "MBR" + strconv.Itoa(100000000+n)},
		{"DMG", "D8", "19" + strconv.Itoa(50+rng.IntN(50)) + "0" + strconv.Itoa(1+rng.IntN(9)) + "15"},
		{"DTP", "291", "D8", "20240102"},
		{"EQ", "30"},
	})
}
