package gen

import (
	"strconv"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// No 005010X230 (997) map is among the guide sources. The 997 is the 999
// without the implementation-level codes (x12-standards.md §6): the same
// ST, AK1, 2000 AK2 loop, AK9 and SE; AK3/AK4/AK5 where the 999 has
// IK3/IK4/IK5, no CTX. So the 997 guide is the 999 map with those segments
// renamed to their 997 data elements and the code lists without the 999's
// I-codes.
func recipe997(g *generator) *spec.File {
	const src = "azoner-pyx12/master/999.5010X231.A1.xml"
	root := g.read(src)
	setCodes(root.Children[0], "01", "997")
	// ST03 and AK103 are optional in the 005010 997 (public 997s leave them
	// out and name the guide in GS08 alone).
	setUsage(root.Children[0], "03", "S")
	// AK103 is optional in the 005010 997 (public 997s leave it out).
	setUsage(segAt(root, "AK1", ""), "03", "S")

	ak2 := loopAt(root, "2000")
	ak2.Name = "Transaction Set Response Header"
	ak3Loop := loopAt(ak2, "2100")
	ak3Loop.Name = "AK2/AK3 Data Segment Note"
	ak4Loop := loopAt(ak3Loop, "2110")
	ak4Loop.Name = "AK2/AK3/AK4 Data Element Note"

	ak3 := segAt(ak3Loop, "IK3", "")
	ak3.Seg, ak3.Name = "AK3", "Data Segment Note"
	g.redefine(ak3, 4, "720", "Segment Syntax Error Code", codeRange(1, 8))

	ak4 := segAt(ak4Loop, "IK4", "")
	ak4.Seg, ak4.Name = "AK4", "Data Element Note"
	g.redefine(ak4, 3, "723", "Data Element Syntax Error Code", codeRange(1, 13))

	ak5 := segAt(ak2, "IK5", "")
	ak5.Seg = "AK5"
	setErrors := append(codeRange(1, 13), "15", "16", "17", "18", "19", "23", "24", "25", "26", "27")
	for pos := 2; pos <= 6; pos++ {
		g.redefine(ak5, pos, "718", "Transaction Set Syntax Error Code", setErrors)
	}

	// No CTX in a 997.
	for _, l := range []*spec.Node{ak3Loop, ak4Loop} {
		var keep []*spec.Node
		for _, c := range l.Children {
			if c.Seg != "CTX" {
				keep = append(keep, c)
			}
		}
		l.Children = keep
	}
	return &spec.File{
		ID: "997", Transaction: "997", Version: "005010X230",
		Name: "Functional Acknowledgment",
		Provenance: spec.Source{
			Sources: []spec.Origin{
				origin(pyx12Master, src, "structure, usage and repeats shared with the 999 (ST, AK1, AK2, AK9, SE)"),
				origin(pyx12Master, srcDataele, dataeleUse),
			},
			Fixes: []string{
				"built from the 999 map because no 005010X230 map is among the guide sources: IK3/IK4/IK5 become AK3 (DE 720), AK4 (DE 723), AK5 (DE 718); CTX dropped; I-codes dropped from the error code lists",
				"ST03 and AK103 situational (optional in the 005010 997; the corpus 997s omit them)",
				"AK304 codes 1-8, AK403 1-13, AK502-AK506 1-13, 15-19, 23-27 (X12 dictionary code lists of DE 720, 723 and 718)",
			},
		},
		Root: root,
	}
}

// redefine gives the element at pos a new data element, name and codes,
// with type and lengths from the dictionary.
func (g *generator) redefine(seg *spec.Node, pos int, de, name string, codes []string) {
	e := elementAt(seg, strconv.Itoa(100 + pos)[1:])
	e.DE, e.Name, e.Codes, e.CodeList = de, name, codes, ""
	d, ok := g.maps.dict[de]
	if !ok {
		panic("no data element " + de + " in the dictionary")
	}
	e.Type, e.Min, e.Max = d.typ, d.min, d.max
}

func codeRange(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}
