package gen

import (
	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// No public 005010X223A2 map is among the guide sources (guide-sources
// README §1 lists none; pyx12's 837Q3.I map exists upstream but was not
// copied). Ours is assembled the way the 837D is:
//   - the 5010 837P map for everything 837I shares with 837P (1000A/B,
//     2000A-C, 2010xx, CLM, the REF, K3, HCP and CRC segments of 2300, the
//     provider loops it derives 2310/2330/2420 from, 2320, 2410, 2430);
//   - the 835 map's MIA (inpatient adjudication) for 2320;
//   - StAEDI's 005010 837 types and pyx12's element dictionary for the
//     institutional segments CL1 and SV2;
// following the X223A2 loop and segment list (x12-standards.md §3.1) for
// the institutional parts: statement dates, CL1, the thirteen HI variants,
// attending/operating/other operating providers, SV2 revenue lines.

const src835 = "imsweb-x12-parser/master/835.5010.X221.A1.xml"

func recipe837I(g *generator) *spec.File {
	prof := g.read(src837P)
	remit := g.read(src835)
	root := clone(prof)

	p2000B := loopAt(prof, "2000A/2000B")
	p2300 := loopAt(p2000B, "2300")
	claim := institutionalClaim(g, p2300, remit)

	r2000B := loopAt(root, "2000A/2000B")
	// X223A2: the subscriber level is HL and SBR; PAT is the patient level's,
	// where only PAT01 (relationship) is used.
	remove(r2000B, segAt(r2000B, "PAT", ""))
	r2000C := loopAt(r2000B, "2000C")
	pat := segAt(r2000C, "PAT", "")
	for i := range pat.Elements {
		if pat.Elements[i].Pos > 1 {
			pat.Elements[i].Usage = "N"
		}
	}
	replaceLoop(r2000B, "2300", clone(claim))
	replaceLoop(r2000C, "2300", clone(claim))

	var rules []spec.Rule
	for _, r := range claimRules("SV203") {
		if r.ID != "837-accident-date" { // CLM11 is not used: accidents are occurrence codes
			rules = append(rules, r)
		}
	}
	return &spec.File{
		ID: "837I", Transaction: "837", Version: "005010X223A2", Accepts: []string{"005010X223", "005010X223A1", "005010X223A3"},
		Name: "Health Care Claim: Institutional",
		Provenance: spec.Source{
			Sources: []spec.Origin{
				origin(pyx12Master, src837P, "structure and segments shared with 837P (5010)"),
				origin(imswebMain, src835, "MIA inpatient adjudication segment for 2320"),
				origin(pyx12Master, srcDataele, dataeleUse),
			},
			Fixes: []string{
				"2400 REF*9B (repriced line item reference number) and REF*9D (adjusted repriced line item reference number) after REF*6R, as in X223A3 and pyx12's 837Q3.I.5010.X223.A1 map",
				"2430 SVD03 (procedure) situational and SVD04 the service line revenue code, required (X223A3, pyx12's map); the 837P's SVD has SVD03 required and SVD04 not used",
				"built per x12-standards.md §3.1 from the 837P map because no 005010X223 map is among the guide sources (pyx12's 837Q3.I map, upstream at azoner/pyx12 6f12f57, was consulted for the HI variants)",
				"2000B without PAT; 2000C PAT02-PAT09 not used",
				"CLM05-1 facility type code (no place of service list), CLM05-2 A, CLM06 and CLM10-CLM12 not used",
				"2300 dates: discharge hour (096, TM), statement dates (434, RD8, required), admission date/hour (435, D8/DT), repricer received (050); CL1 institutional claim code (required); AMT*F3 patient estimated amount due; REF*LU and REF*G4 added, REF*LX up to 5; claim note (10) and billing note (ADD) apart",
				"2300 HI: principal (ABK/BK), admitting (ABJ/BJ), reason for visit (APR/PR), external cause (ABN/BN), DRG (DR), other diagnoses (ABF/BF), principal procedure (BBR/BR/CAH), other procedures (BBQ/BQ), occurrence span (BI), occurrence (BH), value (BE), condition (BG), treatment code (TC)",
				"2310A-F attending (71, PRV*AT), operating (72), other operating (ZZ), rendering (82), service facility (77), referring (DN); 2330C-I the other payer's counterparts",
				"2320 MIA from the 835 map; 2400 SV2 (revenue code, C003 procedure, charge, DA/UN, units, rate, non-covered amount), AMT*GT/N8, NTE*TPO; 2420A-D operating, other operating, rendering, referring",
				"837P-only segments dropped (CR1/CR2/CR3/CRC other than EPSDT, PAT in 2000B, SV1/SV5, ambulance and purchased service loops, 2440)",
			},
		},
		Rules: rules,
		Root:  root,
	}
}

// institutionalClaim builds loop 2300 of the institutional guide.
func institutionalClaim(g *generator, p2300, remit *spec.Node) *spec.Node {
	p := func(seg, q string) *spec.Node { return clone(segAt(p2300, seg, q)) }

	clm := p("CLM", "")
	fac := elementAt(clm, "05-1")
	fac.Name, fac.CodeList, fac.Codes = "Facility Type Code", "", nil
	setCodes(clm, "05-2", "A")
	for _, ref := range []string{"06", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"} {
		setUsage(clm, ref, "N")
		elementAt(clm, ref).Codes = nil
		elementAt(clm, ref).Components = notUsed(elementAt(clm, ref).Components)
	}

	date := func(qual, name, usage string, formats ...string) *spec.Node {
		d := p("DTP", "435")
		renameDTP(d, qual, name)
		setCodes(d, "02", formats...)
		d.Usage = usage
		return d
	}
	amt := p("AMT", "F5")
	amt.Name = "Patient Estimated Amount Due"
	setCodes(amt, "01", "F3")
	elementAt(amt, "02").Name = "Patient Responsibility Amount"

	nte := p("NTE", "")
	nte.Name, nte.Max = "Claim Note", 10
	setCodes(nte, "01", "ALG", "DCP", "DGN", "DME", "MED", "NTR", "ODT", "RHB", "RLH", "RNH", "SET", "SFM", "SPT", "UPI")
	billingNote := p("NTE", "")
	billingNote.Name, billingNote.Max = "Billing Note", 1
	setCodes(billingNote, "01", "ADD")
	elementAt(billingNote, "02").Name = "Billing Note Text"
	ref := func(qual, name, value string, max int) *spec.Node {
		r := p("REF", "4N")
		r.Name, r.Max = name, max
		setCodes(r, "01", qual)
		elementAt(r, "02").Name = value
		return r
	}
	ide := p("REF", "LX")
	ide.Max = 5

	claim := &spec.Node{Loop: "2300", Name: p2300.Name, Usage: p2300.Usage, Max: p2300.Max}
	claim.Children = []*spec.Node{
		clm,
		date("096", "Date - Discharge Hour", "S", "TM"),
		date("434", "Date - Statement Dates", "R", "RD8"),
		date("435", "Date - Admission Date/Hour", "S", "D8", "DT"),
		p("DTP", "050"),
		g.cl1(),
		p("PWK", ""), p("CN1", ""), amt,
		p("REF", "4N"), p("REF", "9F"), p("REF", "G1"), p("REF", "F8"), p("REF", "9A"), p("REF", "9C"),
		ide, p("REF", "D9"), ref("LU", "Auto Accident State", "Auto Accident State or Province Code", 1),
		p("REF", "EA"), p("REF", "P4"), ref("G4", "Peer Review Organization (PRO) Approval Number", "Peer Review Authorization Number", 1),
		p("K3", ""), nte, billingNote, p("CRC", "ZZ"),
	}
	claim.Children = append(claim.Children, institutionalHI(segAt(p2300, "HI", "ABK"))...)
	claim.Children = append(claim.Children, p("HCP", ""))

	referring, rendering := loopAt(p2300, "2310A"), loopAt(p2300, "2310B")
	person := func(id, name, nm101 string) *spec.Node {
		l := derive(referring, id, "Referring Provider", name, nm101, "")
		l.Max = 1
		return l
	}
	attending := derive(rendering, "2310A", "Rendering Provider", "Attending Provider", "71", "AT")
	referral := relabel(clone(referring), "2310F")
	referral.Max = 1
	setCodes(referral.Children[0], "01", "DN")
	claim.Children = append(claim.Children,
		attending,
		person("2310B", "Operating Physician", "72"),
		person("2310C", "Other Operating Physician", "ZZ"),
		person("2310D", "Rendering Provider", "82"),
		relabel(clone(loopAt(p2300, "2310C")), "2310E"),
		referral,
		institutionalCOB(p2300, remit),
		institutionalLine(g, p2300),
	)
	return claim
}

// notUsed marks every component not used.
func notUsed(cs []spec.Element) []spec.Element {
	for i := range cs {
		cs[i].Usage = "N"
		cs[i].Codes, cs[i].CodeList = nil, ""
	}
	return cs
}

// cl1 is the institutional claim code segment (admission type, admission
// source, patient status).
func (g *generator) cl1() *spec.Node {
	return &spec.Node{Seg: "CL1", Name: "Institutional Claim Code", Usage: "R", Max: 1, Elements: []spec.Element{
		g.simple(1, "1315", "Admission Type Code", "R"),
		g.simple(2, "1314", "Admission Source Code", "S"),
		g.simple(3, "1352", "Patient Status Code", "R"),
		g.simple(4, "1345", "Nursing Home Residential Status Code", "N"),
	}}
}

// simple is a simple element typed from the element dictionary.
func (g *generator) simple(pos int, de, name, usage string, codes ...string) spec.Element {
	e := spec.Element{Pos: pos, DE: de, Name: name, Usage: usage, Codes: codes}
	g.typeElement(&e, de, name)
	e.Name = name
	return e
}

// hiVariant is one of the institutional HI segments: its qualifiers, how
// many composites it has, its repeat and what the components carry.
type hiVariant struct {
	name       string
	usage      string
	max        int
	quals      []string // HIxx-1 codes
	composites int
	codeName   string
	dates      []string // HIxx-3 formats, when the composite carries a date
	amount     bool     // HIxx-5 monetary amount (value codes)
	poa        bool     // HIxx-9 present on admission indicator
}

var institutionalHIs = []hiVariant{
	{name: "Principal Diagnosis", usage: "R", max: 1, quals: []string{"ABK", "BK"}, composites: 1, codeName: "Principal Diagnosis Code", poa: true},
	{name: "Admitting Diagnosis", usage: "S", max: 1, quals: []string{"ABJ", "BJ"}, composites: 1, codeName: "Admitting Diagnosis Code"},
	{name: "Patient's Reason For Visit", usage: "S", max: 1, quals: []string{"APR", "PR"}, composites: 3, codeName: "Patient Reason For Visit"},
	{name: "External Cause of Injury", usage: "S", max: 1, quals: []string{"ABN", "BN"}, composites: 12, codeName: "External Cause of Injury Code", poa: true},
	{name: "Diagnosis Related Group (DRG) Information", usage: "S", max: 1, quals: []string{"DR"}, composites: 1, codeName: "Diagnosis Related Group (DRG) Code"},
	{name: "Other Diagnosis Information", usage: "S", max: 2, quals: []string{"ABF", "BF"}, composites: 12, codeName: "Other Diagnosis", poa: true},
	{name: "Principal Procedure Information", usage: "S", max: 1, quals: []string{"BBR", "BR", "CAH"}, composites: 1, codeName: "Principal Procedure Code", dates: []string{"D8"}},
	{name: "Other Procedure Information", usage: "S", max: 2, quals: []string{"BBQ", "BQ"}, composites: 12, codeName: "Procedure Code", dates: []string{"D8"}},
	{name: "Occurrence Span Information", usage: "S", max: 2, quals: []string{"BI"}, composites: 12, codeName: "Occurrence Span Code", dates: []string{"RD8"}},
	{name: "Occurrence Information", usage: "S", max: 2, quals: []string{"BH"}, composites: 12, codeName: "Occurrence Code", dates: []string{"D8"}},
	{name: "Value Information", usage: "S", max: 2, quals: []string{"BE"}, composites: 12, codeName: "Value Code", amount: true},
	{name: "Condition Information", usage: "S", max: 2, quals: []string{"BG"}, composites: 12, codeName: "Condition Code"},
	{name: "Treatment Code Information", usage: "S", max: 2, quals: []string{"TC"}, composites: 12, codeName: "Treatment Code"},
}

// institutionalHI builds the HI variants from the 837P diagnosis HI, whose
// twelve C022 composites carry every component.
func institutionalHI(profHI *spec.Node) []*spec.Node {
	var out []*spec.Node
	for _, v := range institutionalHIs {
		hi := clone(profHI)
		hi.Name, hi.Usage, hi.Max = v.name, v.usage, v.max
		for i := range hi.Elements {
			e := &hi.Elements[i]
			if e.Pos > v.composites {
				e.Usage = "N"
				e.Components = notUsed(e.Components)
				continue
			}
			e.Usage = "S"
			if e.Pos == 1 {
				e.Usage = "R"
			}
			for j := range e.Components {
				c := &e.Components[j]
				c.Usage, c.Codes, c.CodeList = "N", nil, ""
				switch c.Pos {
				case 1:
					c.Usage, c.Codes, c.Name = "R", v.quals, "Code List Qualifier Code"
				case 2:
					c.Usage, c.Name = "R", v.codeName
				case 3:
					if len(v.dates) > 0 {
						c.Usage, c.Codes = "R", v.dates
					}
				case 4:
					if len(v.dates) > 0 {
						c.Usage, c.Name = "R", v.codeName+" Date"
					}
				case 5:
					if v.amount {
						c.Usage, c.Name = "R", "Value Code Amount"
					}
				case 9:
					if v.poa {
						c.Usage, c.Codes, c.Name = "S", []string{"N", "U", "W", "Y"}, "Present on Admission Indicator"
					}
				}
			}
		}
		out = append(out, hi)
	}
	return out
}

// institutionalCOB is 837P's 2320 with MIA and the institutional provider
// loops of the other payer (2330C-I).
func institutionalCOB(p2300, remit *spec.Node) *spec.Node {
	p := loopAt(p2300, "2320")
	cob := clone(p)
	var mia *spec.Node
	walkSegments(remit, func(_, s *spec.Node) {
		if s.Seg == "MIA" && mia == nil {
			mia = clone(s)
		}
	})
	if mia == nil {
		panic("the 835 map has no MIA")
	}
	mia.Name, mia.Usage, mia.Max = "Inpatient Adjudication Information", "S", 1
	referring := loopAt(p, "2330C")
	person := func(id, name, nm101 string) *spec.Node {
		l := derive(referring, id, "Referring Provider", name, nm101, "")
		l.Max = 1
		return l
	}
	keep := []*spec.Node{}
	for _, c := range cob.Children {
		if c.IsLoop() {
			break
		}
		keep = append(keep, c)
		if c.Seg == "OI" {
			keep = append(keep, mia)
		}
	}
	otherReferring := relabel(clone(referring), "2330H")
	otherReferring.Max = 1
	keep = append(keep,
		clone(loopAt(p, "2330A")), clone(loopAt(p, "2330B")),
		person("2330C", "Attending Provider", "71"),
		person("2330D", "Operating Physician", "72"),
		person("2330E", "Other Operating Physician", "ZZ"),
		relabel(clone(loopAt(p, "2330E")), "2330F"),
		relabel(clone(loopAt(p, "2330D")), "2330G"),
		otherReferring,
		relabel(clone(loopAt(p, "2330G")), "2330I"),
	)
	cob.Children = keep
	return cob
}

// institutionalLine builds loop 2400: revenue code lines.
func institutionalLine(g *generator, p2300 *spec.Node) *spec.Node {
	p2400 := loopAt(p2300, "2400")
	p := func(seg, q string) *spec.Node { return clone(segAt(p2400, seg, q)) }

	proc := *cloneElement(elementAt(segAt(p2400, "SV1", ""), "01"))
	proc.Pos, proc.Usage = 2, "S"
	proc.Name = "Composite Medical Procedure Identifier"
	proc.Components[0].Codes = []string{"ER", "HC", "HP", "IV", "WK"}
	sv2 := &spec.Node{Seg: "SV2", Name: "Institutional Service Line", Usage: "R", Max: 1, Elements: []spec.Element{
		g.simple(1, "234", "Service Line Revenue Code", "R"),
		proc,
		g.simple(3, "782", "Line Item Charge Amount", "R"),
		g.simple(4, "355", "Unit or Basis for Measurement Code", "R", "DA", "UN"),
		g.simple(5, "380", "Service Unit Count", "R"),
		g.simple(6, "1371", "Unit Rate", "S"),
		g.simple(7, "782", "Line Item Denied Charge or Non-Covered Charge Amount", "S"),
	}}

	pwk := p("PWK", "")
	svcDate := p("DTP", "472")
	setCodes(svcDate, "02", "D8", "RD8")
	tax := p("AMT", "T")
	tax.Name = "Service Tax Amount"
	setCodes(tax, "01", "GT")
	facilityTax := p("AMT", "T")
	facilityTax.Name = "Facility Tax Amount"
	setCodes(facilityTax, "01", "N8")
	note := p("NTE", "TPO")

	referring := loopAt(p2400, "2420F")
	person := func(id, name, nm101 string) *spec.Node {
		l := derive(referring, id, "Referring Provider", name, nm101, "")
		l.Max = 1
		return l
	}
	lineReferring := relabel(clone(referring), "2420D")
	lineReferring.Max = 1
	setCodes(lineReferring.Children[0], "01", "DN")

	adjudication := clone(loopAt(p2400, "2430"))
	svd := segAt(adjudication, "SVD", "")
	setCodes(svd, "03-1", "ER", "HC", "HP", "IV", "WK")
	// X223: the procedure is situational and SVD04 carries the line's
	// revenue code (the 837P's SVD has SVD03 required, SVD04 not used).
	setUsage(svd, "03", "S")
	setUsage(svd, "04", "R")
	elementAt(svd, "04").Name = "Service Line Revenue Code"

	line := &spec.Node{Loop: "2400", Name: p2400.Name, Usage: p2400.Usage, Max: 999}
	line.Children = []*spec.Node{
		p("LX", ""), sv2, pwk, svcDate, p("REF", "6R"), p("REF", "9B"), p("REF", "9D"), tax, facilityTax, note, p("HCP", ""),
		clone(loopAt(p2400, "2410")),
		person("2420A", "Operating Physician", "72"),
		person("2420B", "Other Operating Physician", "ZZ"),
		person("2420C", "Rendering Provider", "82"),
		lineReferring,
		adjudication,
	}
	return line
}

func cloneElement(e *spec.Element) *spec.Element {
	c := cloneElements([]spec.Element{*e})
	return &c[0]
}
