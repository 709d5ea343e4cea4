package x12

import (
	"fmt"
	"strings"
)

// Severity grades a Finding.
type Severity uint8

const (
	// Info is a remark that needs no action (e.g. a tolerated formatting habit).
	Info Severity = iota + 1
	// Warning is a deviation that does not reject anything (e.g. ISA11 "U" in
	// a 5010 interchange, read as "no repetition separator").
	Warning
	// Error rejects the envelope it belongs to (interchange, group or
	// transaction set) in the acknowledgments.
	Error
	// Fatal means reading could not continue past this point.
	Fatal
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	case Fatal:
		return "fatal"
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// MarshalText renders the severity as its name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Code names a kind of finding in a stable, machine-readable way, e.g.
// "se.segment-count-mismatch". Codes of the envelope layer are the Code*
// constants of this package; other layers (x12/guide) define their own with
// their own prefix.
type Code string

// Finding is one problem found in an X12 input, by the envelope validator of
// this package or by a guide validator layered on top (x12/guide). It carries
// where the problem is and, already, the acknowledgment codes it maps to, so
// a TA1 or 999 is a rendering of findings and not a second validator.
//
// Which acknowledgment a finding lands in follows from the codes it carries:
//   - TA1 set: an interchange-level problem (TA105 note code).
//   - AK9 set: a functional-group problem (999 AK905).
//   - IK5 set: a transaction-set problem (999 IK502).
//   - IK3 set: a segment problem (999 IK304), with IK4 (IK403) when an
//     element is at fault; these also make the set's IK5 "5"
//     ("one or more segments in error") unless IK5 is set.
//
// A finding with none of the codes (e.g. a Warning about formatting) appears
// in reports but not in acknowledgments.
type Finding struct {
	Severity Severity `json:"severity"`
	Code     Code     `json:"code"`
	// Message explains the problem for a person. It only ever echoes values
	// taken from the input, never data from elsewhere.
	Message string `json:"message"`

	// Offset is the byte offset of the segment the finding is about (-1 when
	// the finding is about the input as a whole).
	Offset int64 `json:"offset"`
	// Line and Column (1-based, Column in bytes) locate Offset for people.
	// They are computed only when a finding is reported (see
	// Reader.LineCol) and are 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`

	// SegmentID is the id of the segment at fault ("CLM"), if any.
	SegmentID string `json:"segment,omitempty"`
	// Position is the segment's position in its transaction set, ST being 1
	// (999 IK302). 0 outside a transaction set.
	Position int `json:"position,omitempty"`
	// LoopID is the implementation-guide loop ("2300"), filled by guide
	// validators (IK303).
	LoopID string `json:"loop,omitempty"`
	// Element, Component and Repetition locate the element at fault, all
	// 1-based, 0 when not applicable (IK401-1, -2, -3).
	Element    int `json:"element,omitempty"`
	Component  int `json:"component,omitempty"`
	Repetition int `json:"repetition,omitempty"`
	// ElementRef is the data element reference number ("1073"), filled by
	// guide validators (IK402).
	ElementRef string `json:"elementRef,omitempty"`
	// Value is a copy of the bad data, for IK404 (at most 99 characters).
	Value string `json:"value,omitempty"`
	// ContextName and ContextValue identify the business unit the error is
	// in, rendered as a 999 CTX after the IK3 (e.g. "CLM01" and the claim's
	// submitter identifier).
	ContextName  string `json:"contextName,omitempty"`
	ContextValue string `json:"contextValue,omitempty"`

	// TA1 is the TA105 interchange note code ("001".."031").
	TA1 string `json:"ta1,omitempty"`
	// AK9 is the 999 AK905 functional group error code ("1".."6", "19"...).
	AK9 string `json:"ak9,omitempty"`
	// IK5 is the 999 IK502 transaction set error code ("1".."27", "I5", "I6").
	IK5 string `json:"ik5,omitempty"`
	// IK3 is the 999 IK304 segment error code ("1".."8", "I4".."I9").
	IK3 string `json:"ik3,omitempty"`
	// IK4 is the 999 IK403 element error code ("1".."13", "I6".."I13").
	IK4 string `json:"ik4,omitempty"`
}

// Level tells which envelope a finding belongs to, derived from its codes.
type Level uint8

const (
	// LevelNone: a finding without acknowledgment codes.
	LevelNone Level = iota
	// LevelInterchange: reported in a TA1.
	LevelInterchange
	// LevelGroup: reported in the 999 AK9.
	LevelGroup
	// LevelSet: reported in the 999 IK5.
	LevelSet
	// LevelSegment: reported in a 999 IK3 (and IK4).
	LevelSegment
)

// Level returns the envelope level the finding's codes point at.
func (f *Finding) Level() Level {
	switch {
	case f.TA1 != "":
		return LevelInterchange
	case f.AK9 != "":
		return LevelGroup
	case f.IK5 != "":
		return LevelSet
	case f.IK3 != "" || f.IK4 != "":
		return LevelSegment
	}
	return LevelNone
}

// Rejects reports whether the finding rejects its envelope (Error or Fatal).
func (f *Finding) Rejects() bool { return f.Severity >= Error }

// String formats the finding on one line for logs and the CLI:
// "error 1234 (12:5) se.segment-count-mismatch SE: message".
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(f.Severity.String())
	fmt.Fprintf(&b, " offset %d", f.Offset)
	if f.Line > 0 {
		fmt.Fprintf(&b, " (line %d col %d)", f.Line, f.Column)
	}
	b.WriteString(" ")
	b.WriteString(string(f.Code))
	if f.SegmentID != "" {
		b.WriteString(" ")
		b.WriteString(f.SegmentID)
		if f.Element > 0 {
			fmt.Fprintf(&b, "%02d", f.Element)
			if f.Component > 0 {
				fmt.Fprintf(&b, "-%d", f.Component)
			}
		}
	}
	b.WriteString(": ")
	b.WriteString(f.Message)
	return b.String()
}

// clipValue keeps IK404 copies within the element's 99-character limit.
func clipValue(s string) string {
	if len(s) > 99 {
		return s[:99]
	}
	return s
}
