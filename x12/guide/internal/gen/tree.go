package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// Tree surgery used by the recipes. Every helper panics on a path that does
// not exist: a recipe that no longer fits its source must stop the generator.

// loopAt follows a path of loop ids ("2000A/2010AA") from n.
func loopAt(n *spec.Node, path string) *spec.Node {
	cur := n
	for _, id := range strings.Split(path, "/") {
		var next *spec.Node
		for _, c := range cur.Children {
			if c.Loop == id {
				next = c
				break
			}
		}
		if next == nil {
			panic(fmt.Sprintf("loop %q not found under %q", path, n.Loop))
		}
		cur = next
	}
	return cur
}

// segAt finds a segment of loop l by id and, when qual is not empty, by a
// code of its discriminating element ("REF", "F8").
func segAt(l *spec.Node, seg, qual string) *spec.Node {
	for _, c := range l.Children {
		if c.Seg == seg && (qual == "" || slices.Contains(qualCodes(c), qual)) {
			return c
		}
	}
	panic(fmt.Sprintf("segment %s[%s] not found in loop %s", seg, qual, l.Loop))
}

// qualCodes returns the codes of the element that tells same-id segments apart.
func qualCodes(seg *spec.Node) []string {
	m := discriminator(seg)
	if m == "" {
		return nil
	}
	e := elementAt(seg, m)
	return e.Codes
}

// elementAt returns the element at "05" or "05-3" of a segment.
func elementAt(seg *spec.Node, ref string) *spec.Element {
	pos, comp := spec.ParseRef(ref)
	for i := range seg.Elements {
		e := &seg.Elements[i]
		if e.Pos != pos {
			continue
		}
		if comp == 0 {
			return e
		}
		for j := range e.Components {
			if e.Components[j].Pos == comp {
				return &e.Components[j]
			}
		}
	}
	panic(fmt.Sprintf("element %s%s not found", seg.Seg, ref))
}

// discriminator follows pyx12's rule for telling same-id segments apart: the
// first element when it is required and has guide codes, the first component
// of a leading composite likewise (the 999's CTX01-1 is AN with codes), and
// HL03 for hierarchical levels.
func discriminator(seg *spec.Node) string {
	if seg.Seg == "HL" {
		if len(seg.Elements) >= 3 && len(seg.Elements[2].Codes) > 0 {
			return "03"
		}
		return ""
	}
	if len(seg.Elements) == 0 {
		return ""
	}
	first := seg.Elements[0]
	if first.Pos != 1 {
		return ""
	}
	if len(first.Components) > 0 {
		c := first.Components[0]
		if c.Usage == "R" && len(c.Codes) > 0 {
			return "01-1"
		}
		return ""
	}
	if first.Usage == "R" && len(first.Codes) > 0 {
		return "01"
	}
	return ""
}

// assignMatches records the discriminator of every segment in the tree,
// keeping one a recipe set where pyx12's rule cannot tell two segments
// apart.
func assignMatches(n *spec.Node) {
	for _, c := range n.Children {
		if c.IsLoop() {
			assignMatches(c)
		} else if c.Match == "" {
			c.Match = discriminator(c)
		}
	}
}

// clone deep-copies a node.
func clone(n *spec.Node) *spec.Node {
	c := *n
	c.Syntax = slices.Clone(n.Syntax)
	c.Elements = cloneElements(n.Elements)
	c.Children = nil
	for _, k := range n.Children {
		c.Children = append(c.Children, clone(k))
	}
	return &c
}

func cloneElements(es []spec.Element) []spec.Element {
	if es == nil {
		return nil
	}
	out := make([]spec.Element, len(es))
	for i, e := range es {
		e.Codes = slices.Clone(e.Codes)
		e.Components = cloneElements(e.Components)
		out[i] = e
	}
	return out
}

// indexOf returns the index of child c in l, panicking when absent.
func indexOf(l, c *spec.Node) int {
	i := slices.Index(l.Children, c)
	if i < 0 {
		panic(fmt.Sprintf("node %s%s is not a child of %s", c.Loop, c.Seg, l.Loop))
	}
	return i
}

// remove deletes the given children from l.
func remove(l *spec.Node, nodes ...*spec.Node) {
	for _, n := range nodes {
		i := indexOf(l, n)
		l.Children = slices.Delete(l.Children, i, i+1)
	}
}

// insertAfter places nodes after anchor among l's children (anchor nil: first).
func insertAfter(l, anchor *spec.Node, nodes ...*spec.Node) {
	i := 0
	if anchor != nil {
		i = indexOf(l, anchor) + 1
	}
	l.Children = slices.Insert(l.Children, i, nodes...)
}

// moveInto detaches child from its parent and appends it to newParent.
func moveInto(parent, child, newParent *spec.Node) {
	remove(parent, child)
	newParent.Children = append(newParent.Children, child)
}

// renameAll prefixes-replaces names in a loop's segments, e.g. "Rendering
// Provider" → "Assistant Surgeon", for loops derived from a sibling.
func renameAll(l *spec.Node, from, to string) {
	l.Name = strings.ReplaceAll(l.Name, from, to)
	for _, c := range l.Children {
		if c.IsLoop() {
			renameAll(c, from, to)
			continue
		}
		c.Name = strings.ReplaceAll(c.Name, from, to)
		for i := range c.Elements {
			renameElement(&c.Elements[i], from, to)
		}
	}
}

func renameElement(e *spec.Element, from, to string) {
	e.Name = strings.ReplaceAll(e.Name, from, to)
	for i := range e.Components {
		renameElement(&e.Components[i], from, to)
	}
}

// setCodes replaces the guide codes of an element.
func setCodes(seg *spec.Node, ref string, codes ...string) {
	e := elementAt(seg, ref)
	e.Codes = codes
	e.CodeList = ""
}

// setUsage changes the usage of an element.
func setUsage(seg *spec.Node, ref, usage string) {
	elementAt(seg, ref).Usage = usage
}

// walkSegments calls f for every segment under n.
func walkSegments(n *spec.Node, f func(parent, seg *spec.Node)) {
	for _, c := range n.Children {
		if c.IsLoop() {
			walkSegments(c, f)
		} else {
			f(n, c)
		}
	}
}

// walkLoops calls f for every loop under n (not n itself), parents first.
func walkLoops(n *spec.Node, f func(parent, loop *spec.Node)) {
	for _, c := range n.Children {
		if c.IsLoop() {
			f(n, c)
			walkLoops(c, f)
		}
	}
}
