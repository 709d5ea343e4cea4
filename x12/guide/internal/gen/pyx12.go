package gen

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// xnode is a minimal DOM of a pyx12 map: enough to walk loops, segments and
// elements without binding the whole schema to structs.
type xnode struct {
	tag      string
	attr     map[string]string
	text     string
	children []*xnode
}

func (n *xnode) child(tag string) *xnode {
	for _, c := range n.children {
		if c.tag == tag {
			return c
		}
	}
	return nil
}

// prop reads a single-valued property, as a child element (v1 maps) or an
// attribute (v2 maps).
func (n *xnode) prop(name string) string {
	if c := n.child(name); c != nil {
		return strings.TrimSpace(c.text)
	}
	return n.attr[name]
}

func parseXML(path string) (*xnode, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	root := &xnode{tag: "#document"}
	stack := []*xnode{root}
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xnode{tag: t.Name.Local, attr: map[string]string{}}
			for _, a := range t.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			top := stack[len(stack)-1]
			top.children = append(top.children, n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top := stack[len(stack)-1]
			top.text += string(t)
		}
	}
	if len(root.children) != 1 {
		return nil, fmt.Errorf("%s: expected one root element", path)
	}
	return root.children[0], nil
}

// dataElement is one entry of pyx12's dataele.xml.
type dataElement struct {
	typ      string
	min, max int
	name     string
}

func loadDataElements(path string) (map[string]dataElement, error) {
	root, err := parseXML(path)
	if err != nil {
		return nil, err
	}
	out := map[string]dataElement{}
	for _, c := range root.children {
		if c.tag != "data_ele" {
			continue
		}
		lo, _ := strconv.Atoi(c.attr["min_len"])
		hi, _ := strconv.Atoi(c.attr["max_len"])
		out[c.attr["ele_num"]] = dataElement{typ: c.attr["data_type"], min: lo, max: hi, name: c.attr["name"]}
	}
	return out, nil
}

// mapReader converts pyx12 maps to our nodes.
type mapReader struct {
	dict map[string]dataElement
}

// readTransaction returns the ST_LOOP of a pyx12 map as our root node, with
// wrapper loops flattened and each top-level child given its Guide JSON area.
func (r *mapReader) readTransaction(path string) (*spec.Node, error) {
	doc, err := parseXML(path)
	if err != nil {
		return nil, err
	}
	st := findLoop(doc, "ST_LOOP")
	if st == nil {
		return nil, fmt.Errorf("%s: no ST_LOOP", filepath.Base(path))
	}
	root := &spec.Node{Loop: "ST", Name: "Transaction Set", Usage: "R", Max: 0}
	if err := r.children(st, root, "heading"); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return root, nil
}

func findLoop(n *xnode, id string) *xnode {
	for _, c := range n.children {
		if c.tag == "loop" && c.attr["xid"] == id {
			return c
		}
		if f := findLoop(c, id); f != nil {
			return f
		}
	}
	return nil
}

// positioned is a child with its TR3 position, for sorting siblings.
type positioned struct {
	pos  int
	seq  int
	node *spec.Node
}

// children appends x's loops and segments to parent in document order, with
// the tables of the transaction (header, detail areas, footer) in TR3 order.
// Wrapper loops (HEADER, DETAIL, FOOTER, TABLE2AREAn) are flattened; their
// kind sets the area of the root's children.
func (r *mapReader) children(x *xnode, parent *spec.Node, area string) error {
	var kids []positioned
	var walk func(x *xnode, area string, basePos int) error
	walk = func(x *xnode, area string, basePos int) error {
		for _, c := range x.children {
			switch c.tag {
			case "loop":
				// Document order within a table: the maps' <pos> values mix
				// numbering schemes between loops and segments (271 2115C).
				pos := len(kids)
				if c.attr["type"] == "wrapper" {
					a := area
					id := c.attr["xid"]
					switch {
					case id == "HEADER":
						a = "heading"
					case id == "DETAIL" || strings.HasPrefix(id, "TABLE2"):
						a = "detail"
					case id == "FOOTER":
						a = "summary"
					}
					if err := walk(c, a, wrapperBase(id)); err != nil {
						return err
					}
					continue
				}
				n, err := r.loop(c)
				if err != nil {
					return err
				}
				if parent.Loop == "ST" {
					n.Area = area
				}
				kids = append(kids, positioned{pos: basePos + pos, seq: len(kids), node: n})
			case "segment":
				n, err := r.segment(c)
				if err != nil {
					return err
				}
				pos := len(kids)
				if parent.Loop == "ST" {
					n.Area = area
					switch n.Seg {
					case "ST":
						n.Area, pos = "heading", -1
					case "SE":
						n.Area, pos = "summary", 1<<30
					}
				}
				kids = append(kids, positioned{pos: basePos + pos, seq: len(kids), node: n})
			}
		}
		return nil
	}
	if err := walk(x, area, 0); err != nil {
		return err
	}
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].pos < kids[j].pos })
	for _, k := range kids {
		parent.Children = append(parent.Children, k.node)
	}
	return nil
}

// wrapperBase orders the tables of a transaction: positions restart at each
// table, so the table itself decides the order of its contents.
func wrapperBase(id string) int {
	switch {
	case id == "HEADER":
		return 100000
	case id == "DETAIL":
		return 200000
	case strings.HasPrefix(id, "TABLE2AREA"):
		n, _ := strconv.Atoi(strings.TrimPrefix(id, "TABLE2AREA"))
		return 200000 + n*10000
	case id == "FOOTER":
		return 900000
	}
	return 0
}

func parseRepeat(s string) int {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, ">") || strings.HasPrefix(s, "&gt;") {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

func (r *mapReader) loop(x *xnode) (*spec.Node, error) {
	n := &spec.Node{
		Loop:  x.attr["xid"],
		Name:  cleanName(x.prop("name")),
		Usage: x.prop("usage"),
		Max:   parseRepeat(x.prop("repeat")),
	}
	if err := r.children(x, n, ""); err != nil {
		return nil, err
	}
	if len(n.Children) == 0 || n.Children[0].IsLoop() {
		return nil, fmt.Errorf("loop %s does not start with a segment", n.Loop)
	}
	return n, nil
}

func (r *mapReader) segment(x *xnode) (*spec.Node, error) {
	n := &spec.Node{
		Seg:   x.attr["xid"],
		Name:  cleanName(x.prop("name")),
		Usage: x.prop("usage"),
		Max:   parseRepeat(x.prop("max_use")),
	}
	for _, c := range x.children {
		switch c.tag {
		case "syntax":
			n.Syntax = append(n.Syntax, strings.TrimSpace(c.text))
		case "element":
			e, err := r.element(c, n.Seg)
			if err != nil {
				return nil, err
			}
			n.Elements = append(n.Elements, e)
		case "composite":
			e, err := r.composite(c, n.Seg)
			if err != nil {
				return nil, err
			}
			n.Elements = append(n.Elements, e)
		}
	}
	sort.SliceStable(n.Elements, func(i, j int) bool { return n.Elements[i].Pos < n.Elements[j].Pos })
	return n, nil
}

func (r *mapReader) element(x *xnode, seg string) (spec.Element, error) {
	de := x.prop("data_ele")
	d, ok := r.dict[de]
	if !ok {
		return spec.Element{}, fmt.Errorf("%s: data element %q not in dataele.xml", seg, de)
	}
	pos, err := elementPos(x)
	if err != nil {
		return spec.Element{}, fmt.Errorf("%s: %w", seg, err)
	}
	e := spec.Element{
		Pos: pos, DE: de, Name: cleanName(x.prop("name")), Usage: x.prop("usage"),
		Type: d.typ, Min: d.min, Max: d.max,
	}
	if rep := parseRepeat(x.prop("repeat")); rep > 1 || strings.HasPrefix(strings.TrimSpace(x.prop("repeat")), ">") {
		e.Repeat = rep
		if e.Repeat == 0 {
			e.Repeat = 99
		}
	}
	if vc := x.child("valid_codes"); vc != nil {
		if ext := vc.attr["external"]; ext != "" {
			e.CodeList = ext
		}
		for _, c := range vc.children {
			if c.tag == "code" {
				e.Codes = append(e.Codes, strings.TrimSpace(c.text))
			}
		}
	}
	if re := x.child("regex"); re != nil {
		e.Pattern = strings.TrimSpace(re.text)
	}
	return e, nil
}

func (r *mapReader) composite(x *xnode, seg string) (spec.Element, error) {
	pos, err := elementPos(x)
	if err != nil {
		return spec.Element{}, fmt.Errorf("%s: %w", seg, err)
	}
	e := spec.Element{Pos: pos, DE: x.prop("data_ele"), Name: cleanName(x.prop("name")), Usage: x.prop("usage")}
	if rep := strings.TrimSpace(x.prop("repeat")); rep != "" && rep != "1" {
		e.Repeat = parseRepeat(rep)
		if e.Repeat == 0 {
			e.Repeat = 99
		}
	}
	for i, c := range x.children {
		if c.tag != "element" {
			continue
		}
		comp, err := r.element(c, seg)
		if err != nil {
			return spec.Element{}, err
		}
		if comp.Pos == 0 {
			comp.Pos = i + 1
		}
		e.Components = append(e.Components, comp)
	}
	return e, nil
}

// elementPos reads <seq>, or the position from an xid such as "CLM05" or
// "CLM05-01" (composite components number from 1 in their xid).
func elementPos(x *xnode) (int, error) {
	xid := x.attr["xid"]
	if i := strings.IndexByte(xid, '-'); i >= 0 {
		return strconv.Atoi(xid[i+1:])
	}
	if s := x.prop("seq"); s != "" {
		return strconv.Atoi(s)
	}
	if len(xid) >= 2 {
		return strconv.Atoi(xid[len(xid)-2:])
	}
	return 0, fmt.Errorf("element without position")
}

// cleanName collapses the whitespace that wrapped names carry in the maps.
func cleanName(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
