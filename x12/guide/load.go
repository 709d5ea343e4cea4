package guide

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

//go:generate go run ./cmd/guidegen -src ../../../shared/reference/guide-sources -out data

//go:embed data/*.json
var dataFS embed.FS

// registry holds the embedded guides, compiled once on first use.
type registry struct {
	guides []*Guide
	byKey  map[string]*Guide // "ST01/version" → guide
	lists  map[string]*CodeList
	// envelope holds ISA, GS, GE, TA1 and IEA, for Guide JSON envelopes.
	envelope map[string]*Segment
}

var (
	loadOnce sync.Once
	loaded   *registry
	loadErr  error
)

func embedded() *registry {
	loadOnce.Do(func() {
		loaded, loadErr = loadFS(dataFS, "data")
	})
	if loadErr != nil {
		// The data is embedded and checked by the tests: a failure here is
		// a build defect, not an input problem.
		panic("guide: embedded data: " + loadErr.Error())
	}
	return loaded
}

// Guides returns every embedded guide, sorted by ID.
func Guides() []*Guide { return append([]*Guide(nil), embedded().guides...) }

// Lookup returns the guide for a transaction set id (ST01) and a guide
// version (ST03, or GS08 when ST03 is absent), e.g. Lookup("837",
// "005010X224A2"). Earlier or later errata listed in a guide's Accepts match
// too.
func Lookup(st01, version string) (*Guide, bool) {
	g, ok := embedded().byKey[st01+"/"+version]
	return g, ok
}

// For chooses the guide of a transaction set from its functional group's
// GS08 and its ST01 and ST03: ST03 names the guide when present (an 837I
// with ST03 005010X223 in a 005010X222 group is not an 837P), else GS08.
func For(gs08, st01, st03 string) (*Guide, bool) {
	if st03 != "" {
		return Lookup(st01, st03)
	}
	return Lookup(st01, gs08)
}

// ByID returns a guide by its short name ("270", "837D", "277CA"...).
func ByID(id string) (*Guide, bool) {
	for _, g := range embedded().guides {
		if strings.EqualFold(g.ID, id) {
			return g, true
		}
	}
	return nil, false
}

// CodeListByID returns a shared external code list ("states", "pos"...).
func CodeListByID(id string) (*CodeList, bool) {
	l, ok := embedded().lists[id]
	return l, ok
}

// loadFS compiles the code lists and every guide file of a folder.
func loadFS(fsys fs.FS, dir string) (*registry, error) {
	reg := &registry{byKey: map[string]*Guide{}, lists: map[string]*CodeList{}, envelope: map[string]*Segment{}}
	raw, err := fs.ReadFile(fsys, path.Join(dir, "codelists.json"))
	if err != nil {
		return nil, err
	}
	var cl spec.CodeLists
	if err := json.Unmarshal(raw, &cl); err != nil {
		return nil, fmt.Errorf("codelists.json: %w", err)
	}
	for _, l := range cl.Lists {
		reg.lists[l.ID] = &CodeList{ID: l.ID, Name: l.Name, Advisory: l.Advisory, AsOf: l.AsOf, codes: set(l.Codes)}
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Name() == "codelists.json" || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		raw, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(e.Name(), "envelope.") {
			if err := reg.loadEnvelope(raw); err != nil {
				return nil, fmt.Errorf("%s: %w", e.Name(), err)
			}
			continue
		}
		g, err := Parse(raw, reg.lists)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		for _, v := range append([]string{g.Version}, g.Accepts...) {
			k := g.Transaction + "/" + v
			if other, dup := reg.byKey[k]; dup {
				return nil, fmt.Errorf("%s: %s %s already served by %s", e.Name(), g.Transaction, v, other.ID)
			}
			reg.byKey[k] = g
		}
		reg.guides = append(reg.guides, g)
	}
	sort.Slice(reg.guides, func(i, j int) bool { return reg.guides[i].ID < reg.guides[j].ID })
	return reg, nil
}

func (reg *registry) loadEnvelope(raw []byte) error {
	var f spec.File
	if err := json.Unmarshal(raw, &f); err != nil {
		return err
	}
	if f.Kind != "envelope" || f.Root == nil {
		return fmt.Errorf("not an envelope file")
	}
	c := &compiler{lists: reg.lists, byPath: map[string]*Loop{}}
	for _, n := range f.Root.Children {
		s, err := c.segment(n)
		if err != nil {
			return err
		}
		reg.envelope[s.ID] = s
	}
	return nil
}

// Parse compiles one guide file. lists resolves external code list names;
// nil uses the embedded lists. Companion guides (a payer's stricter copy of
// a guide) are parsed the same way.
func Parse(raw []byte, lists map[string]*CodeList) (*Guide, error) {
	if lists == nil {
		lists = embedded().lists
	}
	var f spec.File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	if f.Format != spec.Format {
		return nil, fmt.Errorf("format %q, want %q", f.Format, spec.Format)
	}
	if f.Root == nil {
		return nil, fmt.Errorf("no root")
	}
	c := &compiler{lists: lists, byPath: map[string]*Loop{}}
	g := &Guide{
		ID: f.ID, Transaction: f.Transaction, Version: f.Version, Accepts: f.Accepts,
		Name: f.Name, Provenance: f.Provenance,
		segIDs: map[string]bool{},
	}
	root, err := c.loop(f.Root, "ST", true)
	if err != nil {
		return nil, err
	}
	g.root = root
	walk(root, func(s *Segment) { g.segIDs[s.ID] = true })
	if err := g.numberIDs(); err != nil {
		return nil, err
	}
	for i := range f.Rules {
		r, err := compileRule(g, &f.Rules[i])
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", f.Rules[i].ID, err)
		}
		g.rules = append(g.rules, r)
	}
	return g, nil
}

// numberIDs gives every segment id of the guide a small number and each
// loop its slot table, for the walker's one-read loop test.
func (g *Guide) numberIDs() error {
	ids := make([]string, 0, len(g.segIDs))
	for id := range g.segIDs {
		if !validID(id) {
			return fmt.Errorf("segment id %q is not 2-3 letters and digits", id)
		}
		ids = append(ids, id)
	}
	if len(ids) > 255 {
		return fmt.Errorf("%d segment ids, at most 255", len(ids))
	}
	sort.Strings(ids) // the same numbers on every load
	g.ids.init(ids)
	g.nIDs = len(ids)
	eachLoop(g.root, func(l *Loop) {
		l.slots = make([]uint8, g.nIDs+1)
		for row, k := range l.index.ids {
			for _, c := range l.Children {
				if s := c.trigger(); idKey([]byte(s.ID)) == k {
					l.slots[g.ids.num([]byte(s.ID))] = uint8(row + 1)
					break
				}
			}
		}
	})
	return nil
}

// eachLoop calls f for l and every loop under it, once each (the 837s
// share loops between HL levels).
func eachLoop(l *Loop, f func(*Loop)) {
	seen := map[*Loop]bool{}
	var visit func(l *Loop)
	visit = func(l *Loop) {
		if seen[l] {
			return
		}
		seen[l] = true
		f(l)
		for _, c := range l.Children {
			if c.Loop != nil {
				visit(c.Loop)
			}
		}
	}
	visit(l)
}

// walk calls f for every segment of the tree once (shared loops once).
func walk(l *Loop, f func(*Segment)) {
	eachLoop(l, func(l *Loop) {
		for _, c := range l.Children {
			if c.Segment != nil {
				f(c.Segment)
			}
		}
	})
}

type compiler struct {
	lists  map[string]*CodeList
	byPath map[string]*Loop
}

func (c *compiler) loop(n *spec.Node, path string, isRoot bool) (*Loop, error) {
	if n.SameAs != "" {
		l, ok := c.byPath[n.SameAs]
		if !ok {
			return nil, fmt.Errorf("loop %s: same_as %q not found before it", path, n.SameAs)
		}
		return l, nil
	}
	if isRoot && n.Loop != "ST" {
		return nil, fmt.Errorf("root loop is %q, want ST", n.Loop)
	}
	if len(n.Children) == 0 || n.Children[0].IsLoop() {
		return nil, fmt.Errorf("loop %s must start with a segment", path)
	}
	l := &Loop{ID: n.Loop, Name: n.Name, Usage: usage(n.Usage), Max: n.Max, Area: area(n.Area),
		byKey: map[string]int32{}}
	for i, ch := range n.Children {
		var node Node
		if ch.IsLoop() {
			sub := ch.Loop
			if !isRoot {
				sub = path + "/" + ch.Loop
			}
			sl, err := c.loop(ch, sub, false)
			if err != nil {
				return nil, err
			}
			node.Loop = sl
		} else {
			s, err := c.segment(ch)
			if err != nil {
				return nil, fmt.Errorf("loop %s: %w", path, err)
			}
			if isRoot {
				s.area = area(ch.Area)
			}
			node.Segment = s
		}
		l.Children = append(l.Children, node)
		l.index.add(int32(i), node)
	}
	first := l.Children[0].Segment
	l.hasHL = first.ID == "HL"
	for i := 1; i < len(l.Children); i++ {
		if l.Children[i].usage() == Required {
			l.required = append(l.required, int32(i))
		}
	}
	l.Key = n.Key
	if l.Key == "" {
		l.Key = first.keyLoop
	}
	l.keyJSON = quoteKey(l.Key)
	if err := uniqueKeys(l); err != nil {
		return nil, fmt.Errorf("loop %s: %w", path, err)
	}
	if !isRoot {
		c.byPath[path] = l
	}
	return l, nil
}

// uniqueKeys fills l.byKey, failing on two children with one key.
func uniqueKeys(l *Loop) error {
	for i, c := range l.Children {
		k := ""
		if c.Loop != nil {
			k = c.Loop.Key
		} else {
			k = c.Segment.Key
		}
		if _, dup := l.byKey[k]; dup {
			return fmt.Errorf("two children with key %s", k)
		}
		l.byKey[k] = int32(i)
	}
	return nil
}

func (c *compiler) segment(n *spec.Node) (*Segment, error) {
	s := &Segment{ID: n.Seg, Name: n.Name, Usage: usage(n.Usage), Max: n.Max}
	s.Key = n.Key
	if s.Key == "" {
		s.Key = spec.SnakeName(n.Name) + "_" + n.Seg
	}
	s.keyLoop = s.Key + "_loop"
	s.keyJSON = quoteKey(s.Key)
	s.Elements = blankElements(n.Elements)
	for i := range n.Elements {
		e, err := c.element(&n.Elements[i])
		if err != nil {
			return nil, fmt.Errorf("%s%02d: %w", n.Seg, n.Elements[i].Pos, err)
		}
		if e.Pos < 1 {
			return nil, fmt.Errorf("%s: element position %d", n.Seg, e.Pos)
		}
		s.Elements[e.Pos-1] = e
	}
	if n.Match != "" {
		pos, comp := spec.ParseRef(n.Match)
		e := s.element(pos, comp)
		if e == nil || e.codes == nil {
			return nil, fmt.Errorf("%s: match %s names no coded element", n.Seg, n.Match)
		}
		s.match = matcher{pos: pos, comp: comp, codes: e.codes}
		if all := e.codes.all; len(all) == 1 && len(all[0]) > 0 {
			if p, ok := pack([]byte(all[0])); ok {
				s.match.one = p
			}
		}
	}
	for _, x := range n.Syntax {
		r, err := parseSyntax(x)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Seg, err)
		}
		s.syntax = append(s.syntax, r)
	}
	for i := range s.Elements {
		if s.Elements[i].Usage == Required {
			s.lastReq = i + 1
			if i+1 > maxSyntaxPos {
				s.noQuick = true
			} else {
				s.reqMask |= 1 << (i + 1)
			}
		}
	}
	s.qs = qchecks(s.Elements)
	for i := 0; i+1 < len(s.Elements); i++ {
		if s.Elements[i].DE == "1250" && s.Elements[i+1].DE == "1251" {
			s.dates = append(s.dates, datePair{qual: i + 1, value: i + 2})
		}
	}
	s.q = qsegOf(s)
	return s, nil
}

// element returns the element at pos (and component comp, if > 0).
func (s *Segment) element(pos, comp int) *Element {
	if pos < 1 || pos > len(s.Elements) {
		return nil
	}
	e := &s.Elements[pos-1]
	if comp == 0 {
		return e
	}
	if comp > len(e.Components) {
		return nil
	}
	return &e.Components[comp-1]
}

func (c *compiler) element(e *spec.Element) (Element, error) {
	out := Element{
		Pos: e.Pos, DE: e.DE, Name: e.Name, Usage: usage(e.Usage), Type: e.Type,
		Min: e.Min, Max: e.Max, Repeat: e.Repeat, decimals: -1,
	}
	out.Key = e.Key
	if out.Key == "" {
		out.Key = fmt.Sprintf("%s_%02d", spec.SnakeName(e.Name), e.Pos)
	}
	out.keyJSON = quoteKey(out.Key)
	out.keyNext = "," + out.keyJSON
	out.next = padName(out.keyNext)
	if len(e.Codes) > 0 {
		out.codes = set(e.Codes)
	}
	if e.CodeList != "" {
		l, ok := c.lists[e.CodeList]
		if !ok {
			return out, fmt.Errorf("unknown code list %q", e.CodeList)
		}
		out.codeList = l
	}
	if e.Pattern != "" {
		re, err := regexp.Compile("^(?:" + e.Pattern + ")$")
		if err != nil {
			return out, err
		}
		out.pattern = re
	}
	out.kind = kindOf(e.Type)
	if out.kind == kindInteger {
		out.decimals = int8(e.Type[1] - '0')
	}
	simple := out.Usage != NotUsed && len(e.Components) == 0 && out.Repeat <= 1 && out.pattern == nil
	out.text = simple && out.kind == kindOther
	out.number = simple && (out.kind == kindDecimal || out.kind == kindInteger) && out.codes == nil && out.codeList == nil
	if len(e.Components) > 0 {
		out.Components = blankElements(e.Components)
		for i := range e.Components {
			sub, err := c.element(&e.Components[i])
			if err != nil {
				return out, err
			}
			out.Components[sub.Pos-1] = sub
		}
		out.qs = qchecks(out.Components)
	}
	out.quick = quickOf(&out)
	return out, nil
}

// blankElements returns one element per position up to the last the guide
// lists, each "not used" until the guide's own definition replaces it.
func blankElements(listed []spec.Element) []Element {
	last := 0
	for _, e := range listed {
		last = max(last, e.Pos)
	}
	out := make([]Element, last)
	for i := range out {
		k := fmt.Sprintf("%02d", i+1)
		out[i] = Element{Pos: i + 1, Usage: NotUsed, Key: k, keyJSON: quoteKey(k), keyNext: "," + quoteKey(k), decimals: -1}
		out[i].next = padName(out[i].keyNext)
	}
	return out
}

// quoteKey renders a key as it appears before a JSON value: "key":.
func quoteKey(k string) string { return `"` + k + `":` }

func usage(s string) Usage {
	switch s {
	case "R":
		return Required
	case "N":
		return NotUsed
	}
	return Situational
}

func area(s string) Area {
	switch s {
	case "detail":
		return Detail
	case "summary":
		return Summary
	}
	return Heading
}
