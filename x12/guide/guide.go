package guide

import (
	"regexp"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// Usage is the TR3 usage of a loop, segment or element.
type Usage byte

const (
	Required    Usage = 'R'
	Situational Usage = 'S'
	NotUsed     Usage = 'N'
)

func (u Usage) String() string { return string(rune(u)) }

// Area is where a top-level node of a transaction appears in Guide JSON.
type Area uint8

const (
	Heading Area = iota
	Detail
	Summary
)

func (a Area) String() string {
	switch a {
	case Detail:
		return "detail"
	case Summary:
		return "summary"
	}
	return "heading"
}

// Guide is one implementation guide, compiled from its data file. It is
// immutable and safe for concurrent use.
type Guide struct {
	// ID is the short name ("837P"), Transaction the ST01 ("837") and
	// Version the guide's GS08/ST03 ("005010X222A1").
	ID, Transaction, Version string
	// Accepts lists other GS08/ST03 values read with this guide (earlier
	// or later errata of the same guide, e.g. "005010X222").
	Accepts []string
	Name    string
	// Provenance records the files the data was derived from.
	Provenance spec.Source

	root *Loop
	// ids numbers the segment ids the guide uses (1..n, 0 = not used).
	ids    idTable
	nIDs   int
	rules  []*rule
	segIDs map[string]bool // every segment id the guide defines
}

// Root returns the transaction-set loop (ST..SE).
func (g *Guide) Root() *Loop { return g.root }

// Loop is a loop of a guide: its first child is the segment that starts it.
type Loop struct {
	ID   string
	Name string
	// Key is the Guide JSON key: "<first segment key>_loop".
	Key      string
	keyJSON  string // `"key":`
	Usage    Usage
	Max      int // repeat limit, 0 = unbounded
	Area     Area
	Children []Node

	// byKey finds a child by its Guide JSON key (for decoding).
	byKey map[string]int32
	// index lists, per segment id, the children that can start with it: the
	// segments with that id and the loops whose first segment has it.
	index childTable
	// slots maps the guide's id numbers (Guide.ids) to 1 + the row of
	// index holding that id, 0 when the loop has no child starting with it:
	// one array read tells whether a loop on the stack can take a segment.
	slots []uint8
	// rules evaluated on each instance of the loop (at most 64).
	rules  []*loopRule
	nested []nestedTarget // rules of enclosing loops that target a child of this one
	sums   int            // number of sum rules among rules
	// hasHL is set when the loop starts with an HL segment.
	hasHL bool
	// required lists the required children after the first, checked when
	// an instance closes (most children are situational).
	required []int32
}

// Node is a child of a loop: exactly one of Segment and Loop is set.
type Node struct {
	Segment *Segment
	Loop    *Loop
}

func (n Node) trigger() *Segment {
	if n.Loop != nil {
		return n.Loop.Children[0].Segment
	}
	return n.Segment
}

func (n Node) usage() Usage {
	if n.Loop != nil {
		return n.Loop.Usage
	}
	return n.Segment.Usage
}

// Segment is a segment of a guide. The fields read for every segment come
// first.
type Segment struct {
	// Elements holds one entry per position (Elements[0] is position 1);
	// positions the guide does not list are filled as not used.
	Elements []Element
	Usage    Usage
	area     Area   // where a top-level segment appears in Guide JSON
	Max      int    // max use, 0 = unbounded
	keyJSON  string // `"key":`
	// Key is the Guide JSON key: "<snake name>_<ID>".
	Key     string
	lastReq int // position of the last required element (0: none)
	// reqMask has bit p set for every required element p; noQuick is set
	// when a required element lies past bit 62, so elementsOK never runs.
	reqMask   uint64
	noQuick   bool
	qs        []qcheck // elementsOK's checks, one per position
	q         qseg     // the same, and the rest of elementsOK's, for checkSegment
	syntax    []syntaxRule
	dates     []datePair
	sumTotals []sumItem // sum rules whose total this segment holds
	sumItems  []sumItem // sum rules this segment adds to
	seqItems  []sumItem // sequence rules this segment numbers
	npi       []*rule   // npi and format rules on this segment's elements
	// conds are the loop rules whose condition reads this segment.
	conds []*loopRule
	// feeds are the five lists above as feedRules reads them
	// (compileFeeds); ruleWork is set when there are any (applyRules
	// skips the rest).
	feeds    []feed
	ruleWork bool

	ID      string
	Name    string
	match   matcher
	keyLoop string // Key + "_loop", for loops this segment starts
}

// Element is a simple element, a component, or a composite (Components set).
//
// The fields read for every value come first, so that checking and writing
// one touches one or two cache lines of the element.
type Element struct {
	kind     kind // Type, as a number for the hot paths
	Usage    Usage
	decimals int8 // implied decimals of Nn types, -1 for others
	// text is set on a used, simple, single-valued element of a type
	// without checks of its own (AN, ID) and without a pattern: its values
	// are checked by length and codes (textValid) and written as strings.
	text bool
	// number is set on a used, simple, single-valued R or Nn element
	// without codes or pattern: its values are checked by numberValid and
	// written as JSON numbers when their text is one.
	number   bool
	quick    quick // how elementsOK checks a value
	Min, Max int
	Repeat   int // > 1 for repeating elements
	codes    *codeSet
	codeList *CodeList
	pattern  *regexp.Regexp
	// Components is set for a composite, and qs holds their checks.
	Components []Element
	qs         []qcheck
	keyNext    string     // `,"key":`, for every member after the first
	keyJSON    string     // `"key":`
	next       paddedName // keyNext, to copy without a memmove call

	Pos  int
	DE   string // X12 data element number ("1028") or composite id ("C023")
	Name string
	// Key is the Guide JSON key: "<snake name>_<NN>".
	Key  string
	Type string // AN, ID, DT, TM, R, N0..N9
}

// kind is an element's data type as the validator and encoder switch on it.
type kind uint8

const (
	kindOther   kind = iota // AN, ID and types without checks of their own
	kindDate                // DT
	kindTime                // TM
	kindDecimal             // R
	kindInteger             // N0..N9
)

func kindOf(t string) kind {
	switch {
	case t == "DT":
		return kindDate
	case t == "TM":
		return kindTime
	case t == "R":
		return kindDecimal
	case len(t) == 2 && t[0] == 'N' && t[1] >= '0' && t[1] <= '9':
		return kindInteger
	}
	return kindOther
}

// Codes reports whether the element has a guide code list.
func (e *Element) Codes() []string {
	return e.codes.list()
}

// IsComposite reports whether the element is a composite.
func (e *Element) IsComposite() bool { return len(e.Components) > 0 }

// matcher tells same-id siblings apart by a qualifier element's codes.
type matcher struct {
	pos, comp int // 0 = no discriminator
	codes     *codeSet
	one       uint64 // the code, packed, when codes holds one of 1 to 7 bytes
}

// CodeList is an external code list shared by the guides (states, CARC...).
type CodeList struct {
	ID       string
	Name     string
	Advisory bool
	// AsOf is the date the list was last brought up to date.
	AsOf  string
	codes *codeSet
}

// Has reports whether code is in the list.
func (c *CodeList) Has(code string) bool { return c.codes.has([]byte(code)) }
