// Package spec defines the on-disk guide format: the JSON files under
// x12/guide/data that the guide package embeds and the guidegen tool writes.
// It holds only the shape of the data; the guide package compiles it into
// lookup tables at load time.
//
// A guide is a tree. The root is the transaction set (ST..SE); every other
// node is either a loop (with children) or a segment (with elements). Loops
// are recognised by their first segment, and a segment among same-ID
// siblings by its discriminator ("match"): the element whose guide code list
// tells the variants apart (NM101, REF01, DTP01, HL03...).
package spec

import (
	"strconv"
	"strings"
)

// Format is the value of File.Format for files this package describes.
const Format = "clearhouse-guide/1"

// File is one implementation guide.
type File struct {
	Format string `json:"format"`
	// Kind is "envelope" for the file of interchange and group segments
	// (ISA, GS, GE, TA1, IEA), empty for a transaction set guide.
	Kind        string   `json:"kind,omitempty"`
	ID          string   `json:"id"`          // short name, e.g. "837P"
	Transaction string   `json:"transaction"` // ST01, e.g. "837"
	Version     string   `json:"version"`     // GS08/ST03 of the guide, e.g. "005010X222A1"
	Accepts     []string `json:"accepts,omitempty"`
	Name        string   `json:"name"`
	Provenance  Source   `json:"provenance"`
	// Rules are the situational and business rules that can be written as data.
	Rules []Rule `json:"rules,omitempty"`
	Root  *Node  `json:"root,omitempty"`
}

// Source records where the facts in a file came from.
type Source struct {
	Generator string   `json:"generator"`
	Sources   []Origin `json:"sources"`
	Fixes     []string `json:"fixes,omitempty"`
}

// Origin is one upstream file the generator read.
type Origin struct {
	File    string `json:"file"` // path under shared/reference/guide-sources
	Repo    string `json:"repo"`
	Commit  string `json:"commit"`
	License string `json:"license"`
	Use     string `json:"use"`
}

// Node is a loop (Loop set, Children set) or a segment (Seg set, Elements set).
type Node struct {
	Loop  string `json:"loop,omitempty"` // loop id, e.g. "2300"
	Seg   string `json:"seg,omitempty"`  // segment id, e.g. "CLM"
	Name  string `json:"name"`
	Usage string `json:"usage"` // R, S or N
	// Max is the repeat limit: loop repeat or segment max use; 0 means unbounded.
	Max int `json:"max"`
	// Area places a child of the root in the Guide JSON: heading, detail or summary.
	Area string `json:"area,omitempty"`
	// Key overrides the derived Guide JSON key (snake_case(Name)_SEG).
	Key string `json:"key,omitempty"`
	// Match names the discriminating element of a segment: "01", "03" or "01-1".
	Match    string    `json:"match,omitempty"`
	Syntax   []string  `json:"syntax,omitempty"` // X12 relational conditions, e.g. "P0809"
	Elements []Element `json:"elements,omitempty"`
	Children []*Node   `json:"children,omitempty"`
	// SameAs makes a loop a copy of the loop at this path of loop ids from
	// the root ("2000A/2000B/2300"): the 837s hang the same claim loop under
	// the subscriber and the patient levels.
	SameAs string `json:"same_as,omitempty"`
}

// IsLoop reports whether n is a loop.
func (n *Node) IsLoop() bool { return n.Loop != "" }

// Element is a simple element, a component, or a composite (Components set).
type Element struct {
	Pos   int    `json:"pos"`          // position in the segment or composite, 1-based
	DE    string `json:"de,omitempty"` // X12 data element number or composite id
	Name  string `json:"name"`
	Usage string `json:"usage"`
	Type  string `json:"type,omitempty"` // AN, ID, DT, TM, R, N0, N2...
	Min   int    `json:"min,omitempty"`
	Max   int    `json:"max,omitempty"`
	// Repeat is the repetition limit of a repeating element (EQ01, EB03...).
	Repeat     int       `json:"repeat,omitempty"`
	Codes      []string  `json:"codes,omitempty"`
	CodeList   string    `json:"code_list,omitempty"` // name of an external list in codelists.json
	Pattern    string    `json:"pattern,omitempty"`   // regular expression the value must match
	Key        string    `json:"key,omitempty"`
	Components []Element `json:"components,omitempty"`
}

// Rule is a situational or business rule. Paths are relative to the loop
// named by Loop (a loop id, or "ST" for the whole transaction set):
//   - "CLM05-3"   an element (segment id, position, optional component) of a
//     segment of that loop;
//   - "REF[F8]"   a segment of that loop told apart by its qualifier;
//   - "2000C"     a child loop; "2010BA/DMG" a segment of a child loop.
type Rule struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"` // require, forbid, sum, npi, format, sequence
	Loop    string `json:"loop,omitempty"`
	Message string `json:"message"`
	// When restricts the rule to loops where an element has (or lacks) values.
	When *Condition `json:"when,omitempty"`
	// Target is what a require/forbid rule wants present or absent, the
	// element an npi or format rule checks, or the element a sequence rule
	// numbers (found anywhere inside Loop: "LX01" counts 1, 2, 3... in each
	// instance of the loop).
	Target string `json:"target,omitempty"`
	// Pattern is the regular expression a format rule's target must match
	// (whole value) where its When holds; Loop, when set, limits the rule
	// to that loop's segment.
	Pattern string `json:"pattern,omitempty"`
	// Total, Items and Minus describe a sum rule: Total = Σ Items − Σ Minus,
	// where Items and Minus are element paths found anywhere inside the loop.
	Total string   `json:"total,omitempty"`
	Items []string `json:"items,omitempty"`
	Minus []string `json:"minus,omitempty"`
	// Business marks a rule beyond the TR3 syntax (SNIP 3 and up) that the
	// caller may switch off.
	Business bool `json:"business,omitempty"`
}

// Condition tests one element of the rule's loop.
type Condition struct {
	Element string   `json:"element"`
	In      []string `json:"in,omitempty"`
	NotIn   []string `json:"not_in,omitempty"`
	Present bool     `json:"present,omitempty"`
	// Absent holds when the element is empty or not sent.
	Absent bool `json:"absent,omitempty"`
}

// CodeLists is the shared file of external code lists (codelists.json).
type CodeLists struct {
	Format     string     `json:"format"`
	Provenance Source     `json:"provenance"`
	Lists      []CodeList `json:"lists"`
}

// CodeList is one external list, e.g. "states".
type CodeList struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	DE   string `json:"de,omitempty"`
	// Advisory lists change often and ours are old snapshots: a value outside
	// them is a warning, not an error.
	Advisory bool   `json:"advisory,omitempty"`
	Note     string `json:"note,omitempty"`
	// AsOf is the date the codes were last brought up to date with Source.
	AsOf   string   `json:"as_of"`
	Source string   `json:"source"`
	Codes  []string `json:"codes"`
}

// ParseRef reads an element reference of a segment: "05" or "05-3"
// (position 5, component 3).
func ParseRef(ref string) (pos, comp int) {
	p, c, _ := strings.Cut(ref, "-")
	pos, _ = strconv.Atoi(p)
	if c != "" {
		comp, _ = strconv.Atoi(c)
	}
	return pos, comp
}

// SnakeName turns a guide name into the snake_case stem of a Guide JSON key:
// "Billing Provider City, State, ZIP Code" → "billing_provider_city_state_zip_code".
// Letters and digits are kept (lower-cased); every other run of characters
// becomes one underscore; apostrophes vanish ("Provider's" → "providers").
func SnakeName(name string) string {
	b := make([]byte, 0, len(name))
	pending := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if pending && len(b) > 0 {
				b = append(b, '_')
			}
			pending = false
			b = append(b, c)
		case c == '\'':
		default:
			pending = true
		}
	}
	return string(b)
}
