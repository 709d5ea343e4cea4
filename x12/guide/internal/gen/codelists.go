package gen

import (
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

const srcCodes = "imsweb-x12-parser/master/codes.xml"

// advisoryLists change often, and our copies are the 2014 snapshot the maps
// ship with (no current public list in data form): a code outside them is
// reported as a warning only. The lists we keep current are in current.go.
var advisoryLists = map[string]string{
	"adjustment_reason": "CARC list as of about 2014; newer codes exist",
	"remark_code":       "RARC list as of about 2014; newer codes exist",
	"claim_status":      "claim status codes (source 508) as of about 2014",
	"claim_status_cat":  "claim status category codes (source 507) as of about 2014",
	"service_type":      "service type codes as of about 2014",
	"entity_id":         "entity identifier codes as of about 2014",
}

// codeLists reads the external code lists the guides refer to by name. The
// imsweb file is pyx12's plus the CARC list, so it is the one we read.
func (g *generator) codeLists() (*spec.CodeLists, error) {
	doc, err := parseXML(g.path(srcCodes))
	if err != nil {
		return nil, err
	}
	out := &spec.CodeLists{
		Format: spec.Format,
		Provenance: spec.Source{
			Generator: "x12/guide/cmd/guidegen",
			Sources:   []spec.Origin{origin(imswebMain, srcCodes, "external code lists, codes only")},
		},
	}
	for _, cs := range doc.children {
		if cs.tag != "codeset" {
			continue
		}
		l := spec.CodeList{ID: cs.prop("id"), Name: cleanName(cs.prop("name")), DE: cs.prop("data_ele")}
		if note, ok := advisoryLists[l.ID]; ok {
			l.Advisory, l.Note = true, note
		}
		seen := map[string]bool{}
		for _, v := range cs.children {
			if v.tag != "version" {
				continue
			}
			for _, c := range v.children {
				code := strings.TrimSpace(c.text)
				if c.tag == "code" && !seen[code] {
					seen[code] = true
					l.Codes = append(l.Codes, code)
				}
			}
		}
		applyCurrent(&l)
		out.Lists = append(out.Lists, l)
	}
	return out, nil
}
