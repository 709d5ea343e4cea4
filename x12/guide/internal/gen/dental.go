package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// No faithful public 005010X224A2 map exists (guide-sources README §1, §5,
// §6). Ours is assembled from three sources:
//   - the 5010 837P map for everything 837D shares with 837P (envelope of the
//     transaction, 1000A/B, 2000A-C, 2010xx, most of 2300, 2310, 2320/2330,
//     2400's LX/REF/AMT/NTE/HCP, 2420 and 2430);
//   - the 4010 dental map for the dental segments (DN1, DN2, SV3, TOO, the
//     dental DTP and REF variants) and the assistant-surgeon loops;
//   - StAEDI's 005010 837 types for the 5010 element and component lists of
//     SV3, TOO and DN2 (SV301-08, SV311-01..04, DN206);
// following the loop map of x12-standards.md §3.1 and the element notes of §3.2.
// PR #86's 837D map is not used (README §5).

const (
	src837P      = "azoner-pyx12/master/837.5010.X222.A1.xml"
	src837D4010  = "azoner-pyx12/master/837.4010.X097.A1.xml"
	srcStaedi837 = "xlate-staedi/005010/837-types.xml"
)

func recipe837D(g *generator) *spec.File {
	prof := g.read(src837P)
	dent := g.read(src837D4010)
	types, err := loadStaediTypes(g.path(srcStaedi837))
	if err != nil {
		panic(err)
	}
	root := clone(prof)

	d2000A := loopAt(dent, "2000A")
	d2000B := loopAt(d2000A, "2000B")
	d2300 := loopAt(d2000B, "2300")
	p2000A := loopAt(prof, "2000A")
	p2000B := loopAt(p2000A, "2000B")
	p2300 := loopAt(p2000B, "2300")

	claim := dentalClaim(g, p2300, d2300, types)

	r2000A := loopAt(root, "2000A")
	r2000B := loopAt(r2000A, "2000B")
	// x12-standards §3.1: the dental subscriber level is HL and SBR only.
	remove(r2000B, segAt(r2000B, "PAT", ""))
	replaceLoop(r2000B, "2300", clone(claim))
	replaceLoop(loopAt(r2000B, "2000C"), "2300", clone(claim))

	return &spec.File{
		ID: "837D", Transaction: "837", Version: "005010X224A2", Accepts: []string{"005010X224", "005010X224A1", "005010X224A3"},
		Name: "Health Care Claim: Dental",
		Provenance: spec.Source{
			Sources: []spec.Origin{
				origin(pyx12Master, src837P, "structure and segments shared with 837P (5010)"),
				origin(pyx12Master, src837D4010, "dental segments DN1, DN2, SV3, TOO, dental DTP/REF variants, assistant surgeon (4010, updated to 5010)"),
				origin(staedi, srcStaedi837, "005010 element and component lists of SV3, TOO, DN1, DN2"),
				origin(pyx12Master, srcDataele, dataeleUse),
			},
			Fixes: []string{
				"built per x12-standards.md §3.1-3.2 because no faithful public X224A2 map exists (README §6); PR #86's map not used (README §5)",
				"SV305-SV310 data elements 1358/380/352/1327/1360/1073 as in the 4010 dental map (PR #86 shifts them by one)",
				"SV301-08, SV311 (C004, 4 pointers) and DN206 added from StAEDI 005010 types; SV311 situational; SV301-07 (description) situational",
				"SV304 oral cavity codes: 4010 list plus the 5010 sextants 03-08; TOO03 tooth surfaces B D F I L M O",
				"DN2 status codes E and M (5010), DN206 required with JP; DN1 DN103 not used, DN104 orthodontic treatment indicator",
				"2310A PRV02 PXC (5010 taxonomy qualifier; the 4010 map has ZZ)",
				"2310D assistant surgeon (NM1*DD, PRV*AS), 2310E supervising; 2420A-D rendering, assistant surgeon, supervising, service facility; 2330H other payer assistant surgeon",
				"837P-only segments dropped (PAT in 2000B, CR1/CR2/CRC, anesthesia and condition HI, ambulance loops, 2400 SV5/CR/MEA/PS1, 2410, 2420B/E-H, 2440)",
			},
		},
		Rules: append(claimRules("SV302"),
			spec.Rule{ID: "837d-replacement-prior-date", Kind: "require", Loop: "2400", When: &spec.Condition{Element: "SV305", In: []string{"R"}}, Target: "DTP[441]",
				Message: "a replacement prosthesis (SV305 = R) needs the prior placement date (DTP*441)"},
		),
		Root: root,
	}
}

func replaceLoop(parent *spec.Node, id string, with *spec.Node) {
	old := loopAt(parent, id)
	parent.Children[indexOf(parent, old)] = with
}

// dentalClaim builds loop 2300 of the dental guide.
func dentalClaim(g *generator, p2300, d2300 *spec.Node, types *staediTypes) *spec.Node {
	p := func(seg, q string) *spec.Node { return clone(segAt(p2300, seg, q)) }
	d := func(seg, q string) *spec.Node { return clone(segAt(d2300, seg, q)) }

	clm := p("CLM", "")
	c19 := elementAt(clm, "19")
	c19.Name, c19.Usage, c19.Codes = "Predetermination of Benefits Code", "S", []string{"PB"}

	dn1 := d("DN1", "")
	setUsage(dn1, "03", "N")
	elementAt(dn1, "03").Codes = nil
	dn104 := elementAt(dn1, "04")
	dn104.Name, dn104.Usage, dn104.Codes = "Orthodontic Treatment Indicator", "S", []string{"Y"}

	dn2 := d("DN2", "")
	setCodes(dn2, "02", "E", "M")
	types.complete(g, dn2, map[string]string{"DN206": "1270"})
	// X224A2 requires DN206 = JP (ADA Universal National Tooth Designation
	// System), the form the hosted API and payers' examples send.
	setUsage(dn2, "06", "R")
	setCodes(dn2, "06", "JP")

	pwk := p("PWK", "")
	setCodes(pwk, "01", "B4", "DA", "DG", "EB", "OZ", "P6", "RB", "RR")

	hi := p("HI", "ABK")
	hi.Usage = "S"
	for i := range hi.Elements {
		if hi.Elements[i].Pos > 4 {
			hi.Elements[i].Usage = "N"
		}
	}

	claim := &spec.Node{Loop: "2300", Name: p2300.Name, Usage: p2300.Usage, Max: p2300.Max}
	claim.Children = []*spec.Node{
		clm,
		p("DTP", "439"), d("DTP", "452"), d("DTP", "472"), p("DTP", "050"),
		dn1, dn2, pwk, p("CN1", ""), p("AMT", "F5"),
		p("REF", "4N"), p("REF", "F8"), d("REF", "G3"), p("REF", "9F"), p("REF", "G1"),
		p("REF", "9A"), p("REF", "9C"), p("REF", "D9"),
		p("K3", ""), p("NTE", ""), hi, p("HCP", ""),
	}

	// 2310A referring gets the 4010 dental PRV*RF with 5010's taxonomy
	// qualifier (PXC, where 4010 had ZZ); 2310D/E follow §3.1.
	ref := clone(loopAt(p2300, "2310A"))
	refPRV := clone(segAt(loopAt(d2300, "2310A"), "PRV", "RF"))
	setCodes(refPRV, "02", "PXC")
	refPRV.Syntax = []string{"P0203"}
	insertAfter(ref, ref.Children[0], refPRV)
	assistant := derive(loopAt(p2300, "2310B"), "2310D", "Rendering Provider", "Assistant Surgeon", "DD", "AS")
	super := clone(loopAt(p2300, "2310D"))
	super.Loop = "2310E"
	claim.Children = append(claim.Children,
		ref, clone(loopAt(p2300, "2310B")), clone(loopAt(p2300, "2310C")), assistant, super,
		dentalCOB(p2300), dentalLine(g, p2300, d2300, types))
	return claim
}

// derive copies a provider loop under a new id and role: names, NM101 and
// (when present) PRV01 change; everything else is the source loop's.
func derive(src *spec.Node, id, from, to, nm101, prv01 string) *spec.Node {
	l := clone(src)
	l.Loop = id
	renameAll(l, from, to)
	setCodes(l.Children[0], "01", nm101)
	for _, c := range l.Children {
		if c.Seg == "PRV" && prv01 != "" {
			setCodes(c, "01", prv01)
		}
	}
	return l
}

// dentalCOB is 837P's 2320 with an added 2330H (other payer assistant surgeon).
func dentalCOB(p2300 *spec.Node) *spec.Node {
	cob := clone(loopAt(p2300, "2320"))
	h := derive(loopAt(cob, "2330D"), "2330H", "Rendering Provider", "Assistant Surgeon", "DD", "")
	cob.Children = append(cob.Children, h)
	return cob
}

// dentalLine builds loop 2400.
func dentalLine(g *generator, p2300, d2300 *spec.Node, types *staediTypes) *spec.Node {
	p2400 := loopAt(p2300, "2400")
	d2400 := loopAt(d2300, "2400")
	p := func(seg, q string) *spec.Node { return clone(segAt(p2400, seg, q)) }
	d := func(seg, q string) *spec.Node { return clone(segAt(d2400, seg, q)) }

	sv3 := d("SV3", "")
	types.complete(g, sv3, map[string]string{"SV301": "C003", "SV30108": "234", "SV311": "C004",
		"SV31101": "1328", "SV31102": "1328", "SV31103": "1328", "SV31104": "1328"})
	sv311 := elementAt(sv3, "11")
	sv311.Name, sv311.Usage = "Composite Diagnosis Code Pointer", "S"
	for i := range sv311.Components {
		sv311.Components[i].Name = "Diagnosis Code Pointer"
		sv311.Components[i].Usage = "S"
	}
	sv311.Components[0].Usage = "R"
	oral := []string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "20", "30", "40", "L", "R"}
	for i := 1; i <= 5; i++ {
		setCodes(sv3, "04-"+strconv.Itoa(i), oral...)
	}
	elementAt(sv3, "01-8").Usage = "N"
	// SV301-7, the procedure's description (for a not-otherwise-classified
	// CDT code), is situational in X224A2 (PR #86's map agrees); the 4010
	// map did not list it.
	sv3017 := elementAt(sv3, "01-7")
	sv3017.Usage, sv3017.Name = "S", "Description"

	too := d("TOO", "JP")
	setUsage(too, "02", "R")

	svcDate := p("DTP", "472")
	svcDate.Usage = "S"
	start := d("DTP", "441")
	renameDTP(start, "196", "Date - Treatment Start")
	done := d("DTP", "441")
	renameDTP(done, "198", "Date - Treatment Completion")

	// 2430 SVD03 names the adjudicated procedure: a CDT code (AD) in the
	// dental guide, where the 837P's lists HC/ER/IV/WK.
	adjudication := clone(loopAt(p2400, "2430"))
	setCodes(segAt(adjudication, "SVD", ""), "03-1", "AD")

	line := &spec.Node{Loop: "2400", Name: p2400.Name, Usage: p2400.Usage, Max: p2400.Max}
	line.Children = []*spec.Node{
		p("LX", ""), sv3, too,
		svcDate, d("DTP", "441"), d("DTP", "452"), d("DTP", "446"), start, done,
		d("REF", "G3"), p("REF", "G1"), p("REF", "9F"), p("REF", "9B"), p("REF", "9D"), p("REF", "6R"),
		p("AMT", "T"), p("NTE", "ADD"), p("HCP", ""),
		clone(loopAt(p2400, "2420A")),
		derive(loopAt(p2400, "2420A"), "2420B", "Rendering Provider", "Assistant Surgeon", "DD", "AS"),
		relabel(clone(loopAt(p2400, "2420D")), "2420C"),
		relabel(clone(loopAt(p2400, "2420C")), "2420D"),
		adjudication,
	}
	return line
}

func relabel(l *spec.Node, id string) *spec.Node {
	l.Loop = id
	return l
}

func renameDTP(seg *spec.Node, qual, name string) {
	seg.Name = name
	setCodes(seg, "01", qual)
}

// staediTypes reads StAEDI's segment and composite type lists: which
// positions a 005010 segment has and how many components each composite has.
type staediTypes struct {
	segments   map[string][]string // segment → element/composite type names in order
	composites map[string][]string // composite type → component type names
	composite  map[string]bool     // type names that are composites
}

func loadStaediTypes(path string) (*staediTypes, error) {
	doc, err := parseXML(path)
	if err != nil {
		return nil, err
	}
	t := &staediTypes{segments: map[string][]string{}, composites: map[string][]string{}, composite: map[string]bool{}}
	for _, c := range doc.children {
		seq := c.child("sequence")
		if seq == nil {
			continue
		}
		var names []string
		for _, e := range seq.children {
			names = append(names, e.attr["type"])
			if e.tag == "composite" {
				t.composite[e.attr["type"]] = true
			}
		}
		switch c.tag {
		case "segmentType":
			t.segments[c.attr["name"]] = names
		case "compositeType":
			t.composites[c.attr["name"]] = names
		}
	}
	return t, nil
}

// complete adds the positions and components StAEDI lists for seg that our
// node lacks, as not-used elements unless a caller changes them. de maps a
// StAEDI type name to its X12 element number (types come from dataele.xml).
func (t *staediTypes) complete(g *generator, seg *spec.Node, de map[string]string) {
	names, ok := t.segments[seg.Seg]
	if !ok {
		panic("StAEDI has no segment " + seg.Seg)
	}
	have := map[int]*spec.Element{}
	for i := range seg.Elements {
		have[seg.Elements[i].Pos] = &seg.Elements[i]
	}
	for i, name := range names {
		pos := i + 1
		e, ok := have[pos]
		if !ok {
			ne := spec.Element{Pos: pos, Usage: "N", DE: de[name], Name: name}
			if !t.composite[name] {
				g.typeElement(&ne, de[name], name)
			}
			seg.Elements = append(seg.Elements, ne)
			e = &seg.Elements[len(seg.Elements)-1]
			have[pos] = e
		}
		if !t.composite[name] {
			continue
		}
		comps := t.composites[name]
		for j := len(e.Components); j < len(comps); j++ {
			c := spec.Element{Pos: j + 1, Usage: "N", DE: de[comps[j]], Name: comps[j]}
			g.typeElement(&c, de[comps[j]], comps[j])
			e.Components = append(e.Components, c)
		}
	}
}

// typeElement fills type, lengths and the generic X12 name from dataele.xml.
func (g *generator) typeElement(e *spec.Element, de, what string) {
	d, ok := g.maps.dict[de]
	if !ok {
		panic(fmt.Sprintf("no data element number for StAEDI type %s", what))
	}
	e.Type, e.Min, e.Max = d.typ, d.min, d.max
	if strings.HasPrefix(e.Name, strings.ToUpper(e.Name[:1])) && e.Name == what {
		e.Name = d.name
	}
}
