package gen

import "github.com/clearhouse/clearhouse/x12/guide/internal/spec"

// No element-level 5010 276 map exists (guide-sources README §6). The 276 is
// built on the loop tree of the 4010 276 map (2000A-E, 2100A-E, 2200D/E,
// 2210D/E) with the 5010 segment definitions of the 277 X212, which uses the
// same segments for HL, NM1, TRN, REF, DTP and SVC, minus STC and QTY.

const (
	src276x4010 = "azoner-pyx12/master/276.4010.X093.A1.xml"
	src277X212  = "imsweb-x12-parser/master/277.5010.X212.xml"
)

func recipe276(g *generator) *spec.File {
	root := g.read(src276x4010)
	resp := g.read(src277X212)
	nestHL(resp, "2000A", "2000B", "2000C", "2000D", "2000E")

	// Header: the 5010 ST (with ST03) and BHT, with the request codes.
	st := clone(segAt(resp, "ST", ""))
	setCodes(st, "01", "276")
	root.Children[0] = st
	// Header: the 5010 BHT with the request purpose code.
	bht := clone(segAt(resp, "BHT", ""))
	setCodes(bht, "02", "13")
	setUsage(bht, "06", "N")
	elementAt(bht, "06").Codes = nil
	root.Children[indexOf(root, segAt(root, "BHT", ""))] = bht

	r2000A := loopAt(root, "2000A")
	s2000A := loopAt(resp, "2000A")
	nameLoop(r2000A, "2100A", s2000A, "2100A", "NM1")
	r2000B := loopAt(r2000A, "2000B")
	s2000B := loopAt(s2000A, "2000B")
	nameLoop(r2000B, "2100B", s2000B, "2100B", "NM1")
	r2000C := loopAt(r2000B, "2000C")
	s2000C := loopAt(s2000B, "2000C")
	nameLoop(r2000C, "2100C", s2000C, "2100C", "NM1")
	loopAt(r2000C, "2100C").Max = 1
	r2000D := loopAt(r2000C, "2000D")
	s2000D := loopAt(s2000C, "2000D")
	nameLoop(r2000D, "2100D", s2000D, "2100D", "NM1")
	r2000E := loopAt(r2000D, "2000E")
	s2000E := loopAt(s2000D, "2000E")
	nameLoop(r2000E, "2100E", s2000E, "2100E", "NM1")

	claimStatus(r2000D, "2200D", "2210D", loopAt(s2000D, "2200D"))
	claimStatus(r2000E, "2200E", "2210E", loopAt(s2000E, "2200E"))

	return &spec.File{
		ID: "276", Transaction: "276", Version: "005010X212",
		Name: "Health Care Claim Status Request",
		Provenance: spec.Source{
			Sources: []spec.Origin{
				origin(pyx12Master, src276x4010, "loop tree, loop usage and repeats, DMG and AMT*T3 (4010 276)"),
				origin(imswebMain, src277X212, "5010 segment definitions shared with the 277 (BHT, NM1, TRN, REF, DTP, SVC)"),
				origin(pyx12Master, srcDataele, dataeleUse),
			},
			Fixes: []string{
				"built per guide-sources README §6 because no element-level 5010 276 map exists",
				"ST and BHT of the 5010 277 (ST03 present); BHT02 = 13 (request), BHT06 not used; 2200 TRN01 = 1 (current transaction trace)",
				"2200D/E REF set of 5010 (1K, BLT, EJ, XZ, D9); 4010's REF*EA and REF*LU dropped; DTP*472 replaces 4010's DTP*232",
				"SVC03 (payment) not used in a request; SVC07 situational",
			},
		},
		Rules: npiRules("NM1"),
		Root:  root,
	}
}

// nameLoop replaces the children of a 4010 name loop with the 5010
// response's name segment.
func nameLoop(parent *spec.Node, id string, src *spec.Node, srcID, seg string) {
	l := loopAt(parent, id)
	sl := loopAt(src, srcID)
	l.Name = sl.Name
	l.Children = []*spec.Node{clone(segAt(sl, seg, ""))}
}

// claimStatus rebuilds a 2200 claim loop and its service-line loop from the
// 5010 277 definitions.
func claimStatus(hl *spec.Node, claimID, lineID string, resp *spec.Node) {
	claim := loopAt(hl, claimID)
	old := claim
	amt := clone(segAt(old, "AMT", "T3"))
	line := loopAt(old, lineID)

	trn := clone(segAt(resp, "TRN", ""))
	setCodes(trn, "01", "1")
	elementAt(trn, "02").Name = "Current Transaction Trace Number"
	r := func(q string) *spec.Node { return clone(segAt(resp, "REF", q)) }
	claim.Name = resp.Name
	claim.Children = []*spec.Node{
		trn, r("1K"), r("BLT"), r("EJ"), r("XZ"), r("D9"), amt, clone(segAt(resp, "DTP", "472")),
	}

	respLine := loopAt(resp, "2220"+claimID[len(claimID)-1:])
	svc := clone(segAt(respLine, "SVC", ""))
	setUsage(svc, "03", "N")
	setUsage(svc, "07", "S")
	line.Name = respLine.Name
	line.Children = []*spec.Node{svc, clone(segAt(respLine, "REF", "FJ")), clone(segAt(respLine, "DTP", "472"))}
	line.Children[2].Usage = "S"
	claim.Children = append(claim.Children, line)
}
