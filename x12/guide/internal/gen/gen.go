// Package gen derives Clearhouse's guide files (x12/guide/data/*.json)
// from community guide maps, which are not shipped with the repository
// (docs/development.md, "Adding a guide"): the BSD pyx12 and imsweb maps
// (github.com/azoner/pyx12, github.com/imsweb/x12-parser) and the Apache
// StAEDI 837 schema (github.com/xlate/staedi). It writes facts only, in our own format, and
// records each file's sources and the fixes applied to them. The OopFactory
// (CDDL) files in the same folder are never opened.
//
// Each guide is a recipe: read the best source, apply the known-defect fixes
// of guide-sources README §5, add the rules that can be written as data.
package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// generator holds what every recipe needs: the source folder and the pyx12
// element dictionary.
type generator struct {
	src  string
	maps mapReader
}

func (g *generator) path(rel string) string { return filepath.Join(g.src, rel) }

// read loads a pyx12/imsweb map as our root node.
func (g *generator) read(rel string) *spec.Node {
	root, err := g.maps.readTransaction(g.path(rel))
	if err != nil {
		panic(err)
	}
	return root
}

// recipe builds one guide file.
type recipe func(g *generator) *spec.File

var recipes = []recipe{
	recipe270, recipe271, recipe276, recipe277, recipe277CA,
	recipe835, recipe837P, recipe837I, recipe837D, recipe999, recipe997,
}

// Run reads the guide sources in src and writes the data files to out.
func Run(src, out string) (err error) {
	if strings.Contains(strings.ToLower(src), "oopfactory") {
		return fmt.Errorf("refusing to read OopFactory (CDDL) files")
	}
	dict, err := loadDataElements(filepath.Join(src, "azoner-pyx12/master/dataele.xml"))
	if err != nil {
		return err
	}
	g := &generator{src: src, maps: mapReader{dict: dict}}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	lists, err := g.codeLists()
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, l := range lists.Lists {
		known[l.ID] = true
	}
	var files []*spec.File
	for _, r := range recipes {
		f := r(g)
		finish(f, known)
		if err := checkKeys(f); err != nil {
			return fmt.Errorf("%s: %w", f.ID, err)
		}
		shareLoops(f.Root)
		if err := writeGuide(filepath.Join(out, guideFileName(f)), f); err != nil {
			return err
		}
		files = append(files, f)
	}
	env := g.envelope()
	finish(env, known)
	if err := writeGuide(filepath.Join(out, "envelope.00501.json"), env); err != nil {
		return err
	}
	files = append(files, env)
	if err := writeJSON(filepath.Join(out, "codelists.json"), lists); err != nil {
		return err
	}
	return writeSources(filepath.Join(out, "SOURCES.md"), files, lists)
}

// envelope collects the interchange and group segments of pyx12's control
// map, for the envelope part of Guide JSON.
func (g *generator) envelope() *spec.File {
	const src = "azoner-pyx12/master/x12.control.00501.xml"
	doc, err := parseXML(g.path(src))
	if err != nil {
		panic(err)
	}
	root := &spec.Node{Loop: "ENV", Name: "Envelope", Usage: "R"}
	var visit func(x *xnode)
	visit = func(x *xnode) {
		for _, c := range x.children {
			switch c.tag {
			case "segment":
				n, err := g.maps.segment(c)
				if err != nil {
					panic(err)
				}
				root.Children = append(root.Children, n)
			case "loop":
				visit(c)
			}
		}
	}
	visit(doc)
	return &spec.File{
		Kind: "envelope", ID: "envelope", Version: "00501", Name: "Interchange and functional group envelope",
		Provenance: spec.Source{Sources: []spec.Origin{origin(pyx12Master, src, "ISA, GS, GE, TA1, IEA elements"), origin(pyx12Master, srcDataele, dataeleUse)}},
		Root:       root,
	}
}

func guideFileName(f *spec.File) string {
	if f.Kind == "envelope" {
		return "envelope.00501.json"
	}
	return strings.ToLower(f.ID) + "." + f.Version + ".json"
}

// finish applies what every guide needs after its recipe: discriminators and
// the format marker.
func finish(f *spec.File, knownLists map[string]bool) {
	f.Format = spec.Format
	f.Provenance.Generator = "x12/guide/cmd/guidegen"
	assignMatches(f.Root)
	applyHostedNames(f)
	// ST03 names the guide: its code list is the versions the guide reads.
	st := f.Root.Children[0]
	if st.Seg == "ST" && len(st.Elements) >= 3 {
		e := elementAt(st, "03")
		e.Codes = append([]string{f.Version}, f.Accepts...)
	}
	dropped := map[string]bool{}
	walkSegments(f.Root, func(_, seg *spec.Node) {
		for i := range seg.Elements {
			dropUnknownList(&seg.Elements[i], knownLists, dropped)
		}
	})
	for id := range dropped {
		f.Provenance.Fixes = append(f.Provenance.Fixes, "external code list "+id+" is not shipped, so its elements are not checked against it")
	}
}

// dropUnknownList removes references to external lists we do not ship
// (e.g. the 4010 map's prov_taxonomy).
func dropUnknownList(e *spec.Element, known, dropped map[string]bool) {
	if e.CodeList != "" && !known[e.CodeList] {
		dropped[e.CodeList] = true
		e.CodeList = ""
	}
	for i := range e.Components {
		dropUnknownList(&e.Components[i], known, dropped)
	}
}

// shareLoops replaces a loop identical to one met earlier (same id, same
// content) by a same_as reference to it.
func shareLoops(root *spec.Node) {
	seen := map[string]string{}
	var visit func(l *spec.Node, path string)
	visit = func(l *spec.Node, path string) {
		for i, c := range l.Children {
			if !c.IsLoop() {
				continue
			}
			p := c.Loop
			if path != "" {
				p = path + "/" + c.Loop
			}
			body, err := marshal(c)
			if err != nil {
				panic(err)
			}
			sig := c.Loop + string(body)
			if first, ok := seen[sig]; ok && len(c.Children) > 1 {
				l.Children[i] = &spec.Node{Loop: c.Loop, Name: c.Name, Usage: c.Usage, Max: c.Max, SameAs: first}
				continue
			}
			seen[sig] = p
			visit(c, p)
		}
	}
	visit(root, "")
}

// Upstream files, with the commit each was read at and its license.
var (
	pyx12Master = spec.Origin{Repo: "azoner/pyx12", Commit: "8893c59ffd95ccc213cc7661757dc4298b9f430a", License: "BSD-3-Clause (pyx12 LICENSE.txt)"}
	pyx12PR30   = spec.Origin{Repo: "azoner/pyx12", Commit: "a564361e2f302b9a740421ce88c26f4b473f97da", License: "BSD-3-Clause (pyx12 LICENSE.txt; unmerged PR #30)"}
	imswebMain  = spec.Origin{Repo: "imsweb/x12-parser", Commit: "083c4e2a34805b1b92f2850d96c6d3e42cc6b755", License: "BSD-3-Clause (imsweb LICENSE)"}
	staedi      = spec.Origin{Repo: "xlate/staedi", Commit: "76718ac4bda142423882275dac6119bcdf232e08", License: "Apache-2.0 (StAEDI LICENSE)"}
)

func origin(base spec.Origin, file, use string) spec.Origin {
	base.File = file
	base.Use = use
	return base
}

const dataeleUse = "element types and min/max lengths (joined on data element number)"
