package gen

import (
	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// Recipes for the guides whose public maps are element-level (grade A in the
// guide-sources README). Each reads its best source, applies the known-defect
// fixes of README §5, and adds the rules that can be written as data.

const srcDataele = "azoner-pyx12/master/dataele.xml"

// nestHL moves each HL loop under the HL loop that is its parent level, as
// X12 nests them (the pyx12 270/271 and the imsweb 277 keep them flat).
func nestHL(root *spec.Node, chain ...string) {
	for i := 1; i < len(chain); i++ {
		child := findLoopAnywhere(root, chain[i])
		parent := findLoopAnywhere(root, chain[i-1])
		holder := parentOf(root, child)
		moveInto(holder, child, parent)
		child.Area = ""
	}
}

func findLoopAnywhere(n *spec.Node, id string) *spec.Node {
	var found *spec.Node
	walkLoops(n, func(_, l *spec.Node) {
		if found == nil && l.Loop == id {
			found = l
		}
	})
	if found == nil {
		panic("loop " + id + " not found")
	}
	return found
}

func parentOf(root, n *spec.Node) *spec.Node {
	var p *spec.Node
	if containsChild(root, n) {
		return root
	}
	walkLoops(root, func(_, l *spec.Node) {
		if p == nil && containsChild(l, n) {
			p = l
		}
	})
	if p == nil {
		panic("no parent for loop " + n.Loop)
	}
	return p
}

func containsChild(l, n *spec.Node) bool {
	for _, c := range l.Children {
		if c == n {
			return true
		}
	}
	return false
}

// npiRules checks NPI check digits wherever an identifier is qualified XX.
func npiRules(segs ...string) []spec.Rule {
	var out []spec.Rule
	for _, s := range segs {
		switch s {
		case "NM1":
			out = append(out, spec.Rule{ID: "npi-nm1", Kind: "npi", Target: "NM109",
				When: &spec.Condition{Element: "NM108", In: []string{"XX"}}, Business: true,
				Message: "NM109 is not a valid NPI: its check digit (Luhn with prefix 80840) does not match"})
		case "N1":
			out = append(out, spec.Rule{ID: "npi-n1", Kind: "npi", Target: "N104",
				When: &spec.Condition{Element: "N103", In: []string{"XX"}}, Business: true,
				Message: "N104 is not a valid NPI: its check digit (Luhn with prefix 80840) does not match"})
		}
	}
	return out
}

func recipe270(g *generator) *spec.File {
	const src = "azoner-pyx12/pr30-270-271/270.5010.X279.A1.xml"
	root := g.read(src)
	nestHL(root, "2000A", "2000B", "2000C", "2000D")
	return &spec.File{
		ID: "270", Transaction: "270", Version: "005010X279A1", Accepts: []string{"005010X279"},
		Name: "Health Care Eligibility Benefit Inquiry",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(pyx12PR30, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
			Fixes:   []string{"HL loops 2000B-2000D nested under their parent level (pyx12 keeps them in flat table areas)"},
		},
		Rules: npiRules("NM1"),
		Root:  root,
	}
}

func recipe271(g *generator) *spec.File {
	const src = "azoner-pyx12/pr30-270-271/271.5010.X279.A1.xml"
	root := g.read(src)
	nestHL(root, "2000A", "2000B", "2000C", "2000D")
	// README §5: LS and LE belong to loop 2110, bracketing the 2120 loop(s).
	for _, lvl := range []string{"C", "D"} {
		l2110 := findLoopAnywhere(root, "2110"+lvl)
		l2115 := loopAt(l2110, "2115"+lvl)
		l2120 := loopAt(l2115, "2120"+lvl)
		ls := segAt(l2115, "LS", "")
		le := segAt(l2120, "LE", "")
		remove(l2115, ls, l2120)
		remove(l2120, le)
		l2110.Children = append(l2110.Children, ls, l2120, le)
	}
	return &spec.File{
		ID: "271", Transaction: "271", Version: "005010X279A1", Accepts: []string{"005010X279"},
		Name: "Health Care Eligibility Benefit Response",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(pyx12PR30, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
			Fixes: []string{
				"HL loops 2000B-2000D nested under their parent level",
				"LS/LE moved to loop 2110C/2110D around loop 2120C/2120D (README §5: pyx12 places LS in 2115 and LE in 2120)",
			},
		},
		Rules: append(npiRules("NM1"),
			spec.Rule{ID: "ls-needs-le-c", Kind: "require", Loop: "2110C", When: &spec.Condition{Element: "LS01", Present: true}, Target: "LE",
				Message: "LS opens loop 2120C, so an LE must close it"},
			spec.Rule{ID: "ls-needs-le-d", Kind: "require", Loop: "2110D", When: &spec.Condition{Element: "LS01", Present: true}, Target: "LE",
				Message: "LS opens loop 2120D, so an LE must close it"},
		),
		Root: root,
	}
}

func recipe277(g *generator) *spec.File {
	const src = "imsweb-x12-parser/master/277.5010.X212.xml"
	root := g.read(src)
	nestHL(root, "2000A", "2000B", "2000C", "2000D", "2000E")
	return &spec.File{
		ID: "277", Transaction: "277", Version: "005010X212",
		Name: "Health Care Claim Status Response",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(imswebMain, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
			Fixes: []string{
				"imsweb copy used instead of pyx12's (README §5: pyx12 has GS01=RA, GS08=005010X218 and a misplaced SE)",
				"HL loops 2000B-2000E nested under their parent level",
			},
		},
		Rules: npiRules("NM1"),
		Root:  root,
	}
}

func recipe277CA(g *generator) *spec.File {
	const src = "imsweb-x12-parser/master/277.5010.X214.xml"
	root := g.read(src)
	c2200 := loopAt(loopAt(loopAt(loopAt(root, "2000A"), "2000B"), "2000C"), "2200C")
	segAt(c2200, "STC", "").Usage = "S"
	return &spec.File{
		ID: "277CA", Transaction: "277", Version: "005010X214",
		Name: "Health Care Claim Acknowledgment",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(imswebMain, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
			Fixes: []string{
				"imsweb copy used: its 2000C HL04 allows 0 and 1 (pyx12 allows one code)",
				"2200C STC (billing provider status) situational, as the TR3 has it; the map's R rejects all three public 277CA samples, imsweb's own included",
			},
		},
		Rules: npiRules("NM1"),
		Root:  root,
	}
}

func recipe835(g *generator) *spec.File {
	const src = "imsweb-x12-parser/master/835.5010.X221.A1.xml"
	root := g.read(src)
	plb := []string{"PLB04", "PLB06", "PLB08", "PLB10", "PLB12", "PLB14"}
	return &spec.File{
		ID: "835", Transaction: "835", Version: "005010X221A1", Accepts: []string{"005010X221"},
		Name: "Health Care Claim Payment/Advice",
		Provenance: spec.Source{
			Sources: []spec.Origin{
				origin(imswebMain, src, "loops, segments, elements, usage, repeats, guide codes; CAS reason codes refer to the external CARC list"),
				origin(pyx12Master, srcDataele, dataeleUse),
			},
		},
		Rules: append(npiRules("NM1", "N1"),
			spec.Rule{ID: "835-balance", Kind: "sum", Loop: "ST", Total: "BPR02", Items: []string{"CLP04"}, Minus: plb, Business: true,
				Message: "BPR02 (total actual provider payment) must equal the sum of CLP04 (claim payments) minus the PLB provider adjustments"}),
		Root: root,
	}
}

// claimRules are the 837 rules shared by the professional, institutional
// and dental guides.
func claimRules(lineCharge string) []spec.Rule {
	return append(npiRules("NM1"),
		spec.Rule{ID: "837-lx-sequence", Kind: "sequence", Loop: "2300", Target: "LX01",
			Message: "service lines are numbered 1, 2, 3... within each claim (LX01)"},
		spec.Rule{ID: "837-billing-zip9", Kind: "format", Loop: "2010AA", Target: "N403", Pattern: "[0-9]{9}",
			When:    &spec.Condition{Element: "N404", Absent: true},
			Message: "the billing provider's ZIP code must be all nine digits (ZIP+4) for a U.S. address"},
		spec.Rule{ID: "837-claim-balance", Kind: "sum", Loop: "2300", Total: "CLM02", Items: []string{lineCharge}, Business: true,
			Message: "CLM02 (total claim charge) must equal the sum of the service line charges (" + lineCharge + ")"},
		spec.Rule{ID: "837-replacement-needs-f8", Kind: "require", Loop: "2300", When: &spec.Condition{Element: "CLM05-3", In: []string{"7", "8"}}, Target: "REF[F8]",
			Message: "a replacement or void claim (CLM05-3 = 7 or 8) needs the payer claim control number (REF*F8)"},
		spec.Rule{ID: "837-accident-date", Kind: "require", Loop: "2300", When: &spec.Condition{Element: "CLM11-1", In: []string{"AA", "OA"}}, Target: "DTP[439]",
			Message: "an accident-related claim (CLM11 = AA or OA) needs the accident date (DTP*439)"},
		spec.Rule{ID: "837-patient-is-subscriber", Kind: "forbid", Loop: "2000B", When: &spec.Condition{Element: "SBR02", In: []string{"18"}}, Target: "2000C",
			Message: "the patient is the subscriber (SBR02 = 18), so the patient loop 2000C must not be sent"},
		spec.Rule{ID: "837-patient-not-subscriber", Kind: "require", Loop: "2000B", When: &spec.Condition{Element: "SBR02", NotIn: []string{"18"}}, Target: "2000C",
			Message: "the patient is not the subscriber (SBR02 is not 18), so the patient loop 2000C is required"},
		spec.Rule{ID: "837-subscriber-dmg", Kind: "require", Loop: "2000B", When: &spec.Condition{Element: "SBR02", In: []string{"18"}}, Target: "2010BA/DMG",
			Message: "the subscriber is the patient (SBR02 = 18), so the subscriber demographics (DMG) are required"},
	)
}

func recipe837P(g *generator) *spec.File {
	const src = "azoner-pyx12/master/837.5010.X222.A1.xml"
	root := g.read(src)
	// Both 2400 PWKs take PWK01 = CT; only PWK02 tells the DME certificate
	// (AB AD AF AG NS) from line supplemental information.
	walkLoops(root, func(_, l *spec.Node) {
		if l.Loop != "2400" {
			return
		}
		for _, c := range l.Children {
			if c.Seg == "PWK" {
				c.Match = "02"
			}
		}
	})
	return &spec.File{
		ID: "837P", Transaction: "837", Version: "005010X222A1", Accepts: []string{"005010X222", "005010X222A2"},
		Name: "Health Care Claim: Professional",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(pyx12Master, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
			Fixes:   []string{"2400 PWK (line supplemental) and PWK (DME certificate of medical necessity) told apart by PWK02 (AA BM EL EM FT FX vs AB AD AF AG NS): both take PWK01 CT, so matching on PWK01 took a DME PWK*CT*AB for the first and refused its code"},
		},
		Rules: claimRules("SV102"),
		Root:  root,
	}
}

func recipe999(g *generator) *spec.File {
	const src = "azoner-pyx12/master/999.5010X231.A1.xml"
	root := g.read(src)
	return &spec.File{
		ID: "999", Transaction: "999", Version: "005010X231A1", Accepts: []string{"005010X231"},
		Name: "Implementation Acknowledgment",
		Provenance: spec.Source{
			Sources: []spec.Origin{origin(pyx12Master, src, "loops, segments, elements, usage, repeats, guide codes"), origin(pyx12Master, srcDataele, dataeleUse)},
		},
		Root: root,
	}
}
