package x12gen

import (
	"math/rand/v2"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// claims writes 837P sets: submitter, receiver and one billing provider per
// set, then per claim a subscriber HL (20% with a dependent patient HL 23),
// a CLM with 1-9 service lines whose charges add up to CLM02.
type claims struct{ hl int }

func (*claims) functionalID() string        { return "HC" }
func (*claims) version() string             { return "005010X222A1" }
func (c *claims) implementationRef() string { return c.version() }
func (*claims) setID() string               { return "837" }

func (c *claims) header(iw *x12.InterchangeWriter, rng *rand.Rand, set int) error {
	c.hl = 1
	segs := [][]string{
		{"BHT", "0019", "00", "B" + strconv.Itoa(set), "20240102", "0304", "CH"},
		{"NM1", "41", "2", "CLEARHOUSE GENERATOR", "", "", "", "", "46", "CHGEN01"},
		{"PER", "IC", "EDI DESK", "TE", "5555550100"},
		{"NM1", "40", "2", "GENERATED PAYER", "", "", "", "", "46", "PAYER01"},
		{"HL", "1", "", "20", "1"},
		{"PRV", "BI", "PXC", "207Q00000X"},
		{"NM1", "85", "2", "SYNTHETIC CLINIC " + strconv.Itoa(set%97), "", "", "", "", "XX", NPI(uint64(set) * 7919)},
		{"N3", pick(rng, streets)},
	}
	city := pick(rng, cities)
	segs = append(segs, []string{"N4", city.city, city.state, city.zip + "1234"},
		[]string{"REF", "EI", "99" + strconv.Itoa(1000000+set%9000000)})
	return writeAll(iw, segs)
}

func (c *claims) item(iw *x12.InterchangeWriter, rng *rand.Rand, n int) error {
	dependent := rng.IntN(5) == 0
	c.hl++
	subscriberHL := c.hl
	child := "0"
	if dependent {
		child = "1"
	}
	rel := "18"
	if dependent {
		rel = ""
	}
	member := "MBR" + strconv.Itoa(100000000+n)
	city := pick(rng, cities)
	segs := [][]string{
		{"HL", strconv.Itoa(subscriberHL), "1", "22", child},
		{"SBR", "P", rel, "GRP" + strconv.Itoa(1000+n%500), "", "", "", "", "", "CI"},
		{"NM1", "IL", "1", pick(rng, lastNames), pick(rng, firstNames), "", "", "", "MI", member},
		{"N3", pick(rng, streets)},
		{"N4", city.city, city.state, city.zip},
		{"DMG", "D8", "19" + strconv.Itoa(50+rng.IntN(50)) + "0" + strconv.Itoa(1+rng.IntN(9)) + "1" + strconv.Itoa(rng.IntN(9)), pick(rng, []string{"F", "M"})},
		{"NM1", "PR", "2", "GENERATED PAYER", "", "", "", "", "PI", "PAYER01"},
	}
	if dependent {
		c.hl++
		segs = append(segs,
			[]string{"HL", strconv.Itoa(c.hl), strconv.Itoa(subscriberHL), "23", "0"},
			[]string{"PAT", "19"},
			[]string{"NM1", "QC", "1", pick(rng, lastNames), pick(rng, firstNames)},
			[]string{"N3", pick(rng, streets)},
			[]string{"N4", city.city, city.state, city.zip},
			[]string{"DMG", "D8", "20" + strconv.Itoa(10+rng.IntN(10)) + "0612", pick(rng, []string{"F", "M"})})
	}
	lines := 1 + rng.IntN(9)
	charges := make([]int, lines)
	total := 0
	for i := range charges {
		charges[i] = 2500 + rng.IntN(40000)
		total += charges[i]
	}
	if err := writeAll(iw, segs); err != nil {
		return err
	}
	if err := iw.WriteSegmentFields("CLM", x12.Simple("C"+strconv.Itoa(n)), x12.Simple(cents(total)), x12.Simple(""), x12.Simple(""),
		x12.Composite("11", "B", "1"), x12.Simple("Y"), x12.Simple("A"), x12.Simple("Y"), x12.Simple("Y")); err != nil {
		return err
	}
	if err := iw.WriteSegmentFields("HI", x12.Composite("ABK", pick(rng, diagnoses))); err != nil {
		return err
	}
	for i, ch := range charges {
		if err := iw.WriteSegment("LX", strconv.Itoa(i+1)); err != nil {
			return err
		}
		if err := iw.WriteSegmentFields("SV1", x12.Composite("HC", pick(rng, procedures)), x12.Simple(cents(ch)),
			x12.Simple("UN"), x12.Simple("1"), x12.Simple(""), x12.Simple(""), x12.Composite("1")); err != nil {
			return err
		}
		if err := iw.WriteSegment("DTP", "472", "D8", "2024010"+strconv.Itoa(1+i%9)); err != nil {
			return err
		}
		if err := iw.WriteSegment("REF", "6R", "L"+strconv.Itoa(n)+"-"+strconv.Itoa(i+1)); err != nil {
			return err
		}
	}
	return nil
}

func writeAll(iw *x12.InterchangeWriter, segs [][]string) error {
	for _, s := range segs {
		if err := iw.WriteSegment(s[0], s[1:]...); err != nil {
			return err
		}
	}
	return nil
}
