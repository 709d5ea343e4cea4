// Package scenario reads payer simulator scenario files: JSON or YAML
// documents (schema.json) that say how the test-mode payer answers requests it
// matches — the 271 built from a benefits description, a payer rejection
// (AAA), a delay or a timeout for eligibility; the 277CA and the 835 for
// claims. Parse validates a file completely and names the line and field
// of the first problem, so a file that loads is one the payer can answer
// with.
package scenario

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Limits of one scenario file.
const (
	MaxFileBytes = 256 << 10
	MaxScenarios = 200
	MaxDelayMs   = 30000
	maxListItems = 20
)

// Schema is the JSON Schema of a scenario file (draft 2020-12).
//
//go:embed schema.json
var Schema []byte

// File is a scenario file: scenarios in the order they are tried.
type File struct {
	Comment   string     `json:"_comment,omitempty"`
	Scenarios []Scenario `json:"scenarios"`
}

// Scenario matches requests and says what the payer does with them.
type Scenario struct {
	Name        string       `json:"name"`
	Description string       `json:"description,omitempty"`
	Match       Match        `json:"match"`
	Eligibility *Eligibility `json:"eligibility,omitempty"`
	Claim       *Claim       `json:"claim,omitempty"`

	// Line is where the scenario starts in its file; Index its position
	// in the list, from 0.
	Line  int `json:"-"`
	Index int `json:"-"`
	pcn   *regexp.Regexp
}

// Match lists what a request must carry; every field given must match.
// Claim-only fields (claimAmount, patientControlNumber) are ignored for
// eligibility.
type Match struct {
	PayerID              string       `json:"payerId,omitempty"`
	MemberID             string       `json:"memberId,omitempty"`
	FirstName            string       `json:"firstName,omitempty"`
	LastName             string       `json:"lastName,omitempty"`
	DateOfBirth          string       `json:"dateOfBirth,omitempty"`
	ServiceTypeCodes     []string     `json:"serviceTypeCodes,omitempty"`
	ProcedureCodes       []string     `json:"procedureCodes,omitempty"`
	ClaimAmount          *AmountRange `json:"claimAmount,omitempty"`
	PatientControlNumber string       `json:"patientControlNumber,omitempty"`
}

// AmountRange bounds a claim's total charge (dollars, inclusive).
type AmountRange struct {
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
}

// Eligibility is the payer's answer to a 270: exactly one of Benefits,
// Reject, Timeout or Drop; DelayMs delays any of them.
type Eligibility struct {
	Benefits *Benefits `json:"benefits,omitempty"`
	Reject   *Reject   `json:"reject,omitempty"`
	Timeout  bool      `json:"timeout,omitempty"`
	// Drop: the payer's connection breaks before it answers.
	Drop    bool `json:"drop,omitempty"`
	DelayMs int  `json:"delayMs,omitempty"`
}

// Reject is a payer rejection: AAA03 Code in Loop.
type Reject struct {
	Code     string `json:"code"`
	Loop     string `json:"loop,omitempty"`     // 2100A, 2100B, 2100C (default)
	FollowUp string `json:"followUp,omitempty"` // AAA04: C (default), N, R, W, X, Y
}

// Benefits describes the member's plan; the 271 is built from it.
type Benefits struct {
	PlanName         string        `json:"planName"`
	GroupNumber      string        `json:"groupNumber,omitempty"`
	Status           string        `json:"status,omitempty"` // active (default) or inactive
	CoverageBegin    string        `json:"coverageBegin,omitempty"`
	CoverageEnd      string        `json:"coverageEnd,omitempty"`
	ServiceTypeCodes []string      `json:"serviceTypeCodes,omitempty"` // of the coverage line; default 30
	Copays           []Copay       `json:"copays,omitempty"`
	Coinsurance      []Coinsurance `json:"coinsurance,omitempty"`
	Deductibles      []Accumulator `json:"deductibles,omitempty"`
	OutOfPocket      []Accumulator `json:"outOfPocket,omitempty"`
	Limitations      []Limitation  `json:"limitations,omitempty"`
}

// Copay is a fixed amount per visit or service.
type Copay struct {
	ServiceTypeCode string `json:"serviceTypeCode"`
	Amount          string `json:"amount"`
	InNetwork       *bool  `json:"inNetwork,omitempty"`
	Message         string `json:"message,omitempty"`
}

// Coinsurance is the patient's share as a fraction (0.2 = 20 %).
type Coinsurance struct {
	ServiceTypeCode string `json:"serviceTypeCode"`
	Percent         string `json:"percent"`
	InNetwork       *bool  `json:"inNetwork,omitempty"`
	Message         string `json:"message,omitempty"`
}

// Accumulator is a deductible or out-of-pocket maximum and what remains.
type Accumulator struct {
	Level           string `json:"level,omitempty"`           // individual (default) or family
	ServiceTypeCode string `json:"serviceTypeCode,omitempty"` // default 30
	Period          string `json:"period,omitempty"`          // calendarYear (default), serviceYear, lifetime
	Amount          string `json:"amount"`
	Remaining       string `json:"remaining,omitempty"`
	InNetwork       *bool  `json:"inNetwork,omitempty"`
}

// Limitation is a frequency or quantity limit (dental frequency limits,
// visit limits).
type Limitation struct {
	ServiceTypeCode   string `json:"serviceTypeCode"`
	Quantity          string `json:"quantity,omitempty"`
	QuantityQualifier string `json:"quantityQualifier,omitempty"` // VS visits (default), P6 periods, DY days
	Period            string `json:"period,omitempty"`
	Message           string `json:"message,omitempty"`
}

// Claim is how the payer answers claims the scenario matches.
type Claim struct {
	Acknowledgment *Acknowledgment `json:"acknowledgment,omitempty"`
	Remittance     *Remittance     `json:"remittance,omitempty"`
	Status         *ClaimStatus    `json:"status,omitempty"`
	FunctionalAck  *FunctionalAck  `json:"functionalAck,omitempty"`
}

// FunctionalAck makes the payer's 999 reject the transaction set holding
// the claim, with an IK3 on its CLM and an IK4 on one of its elements.
type FunctionalAck struct {
	Status      string `json:"status"`                // rejected
	SegmentCode string `json:"segmentCode,omitempty"` // IK304, default 8 (segment has data element errors)
	ElementCode string `json:"elementCode,omitempty"` // IK403, default 7 (invalid code value)
	Element     int    `json:"element,omitempty"`     // the CLM element at fault (IK401), default 1
}

// ClaimStatus is the 277 the payer answers a claim status request (276)
// about a matched claim with, whatever it knows of the claim.
type ClaimStatus struct {
	Category string `json:"category"`           // STC01-1 such as F1, F2, P1, A4
	Code     string `json:"code"`               // STC01-2 such as 65, 1, 20
	Entity   string `json:"entity,omitempty"`   // STC01-3
	Paid     string `json:"paid,omitempty"`     // STC05, dollars
	PaidDate string `json:"paidDate,omitempty"` // STC06, YYYYMMDD
}

// Acknowledgment is the claim's 277CA status.
type Acknowledgment struct {
	Status   string `json:"status"`             // accepted, rejected, or none (the payer never acknowledges the claim)
	Category string `json:"category,omitempty"` // STC01-1, rejected: default A7
	Code     string `json:"code,omitempty"`     // STC01-2, rejected: default 21
	Entity   string `json:"entity,omitempty"`   // STC01-3
}

// Remittance is the claim's 835.
type Remittance struct {
	// Outcome: paid, partial, denied, reversed, or none (no 835).
	Outcome string `json:"outcome"`
	// GroupCode and CARC adjust what is not paid (denied: the whole charge,
	// default CO-16; partial: the reduction, default CO-45).
	GroupCode string   `json:"groupCode,omitempty"`
	CARC      string   `json:"carc,omitempty"`
	RARC      []string `json:"rarc,omitempty"`
	// AllowedPercent of each line's charge is allowed (partial: default 80).
	AllowedPercent *int `json:"allowedPercent,omitempty"`
	// PatientResponsibilityPercent of each line's charge is left to the
	// patient (PR group) with PatientResponsibilityCARC (default 1,
	// deductible); partial default 10.
	PatientResponsibilityPercent *int   `json:"patientResponsibilityPercent,omitempty"`
	PatientResponsibilityCARC    string `json:"patientResponsibilityCarc,omitempty"`
}

// Set is a loaded scenario file.
type Set struct {
	Scenarios []*Scenario
}

// Error is a problem in a scenario file: where and what.
type Error struct {
	Line    int    // 1-based; 0 when unknown
	Field   string // JSON path such as scenarios[0].match.memberId
	Message string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Message)
	return b.String()
}

// Parse reads and validates a scenario file, JSON or YAML (IsYAML): a
// YAML file is checked as the JSON it stands for, and its errors name the
// YAML's lines.
func Parse(data []byte) (*Set, error) {
	if len(data) > MaxFileBytes {
		return nil, &Error{Message: fmt.Sprintf("the file is %d bytes; at most %d are allowed", len(data), MaxFileBytes)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Line: 1, Message: "the file is empty: a scenario file is an object with a \"scenarios\" list"}
	}
	if IsYAML(data) {
		converted, err := yamlToJSON(data)
		if err != nil {
			return nil, err
		}
		data = converted
	}
	starts, err := scenarioOffsets(data)
	if err != nil {
		return nil, err
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(data, starts, err)
	}
	if dec.More() {
		return nil, &Error{Line: lineAt(data, dec.InputOffset()), Message: "unexpected data after the JSON document"}
	}
	if f.Scenarios == nil {
		return nil, &Error{Line: 1, Field: "scenarios", Message: "is required: a list of scenarios"}
	}
	if len(f.Scenarios) > MaxScenarios {
		return nil, &Error{Line: 1, Field: "scenarios", Message: fmt.Sprintf("has %d scenarios; at most %d are allowed", len(f.Scenarios), MaxScenarios)}
	}
	set := &Set{}
	names := map[string]bool{}
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		s.Index = i
		if i < len(starts) {
			s.Line = lineAt(data, starts[i])
		}
		if err := s.validate(fmt.Sprintf("scenarios[%d]", i)); err != nil {
			err.Line = s.Line
			if l := fieldLine(data, starts, i, err.Field); l > 0 {
				err.Line = l
			}
			return nil, err
		}
		if names[strings.ToLower(s.Name)] {
			return nil, &Error{Line: s.Line, Field: fmt.Sprintf("scenarios[%d].name", i), Message: fmt.Sprintf("%q is used by an earlier scenario; names must be unique", s.Name)}
		}
		names[strings.ToLower(s.Name)] = true
		set.Scenarios = append(set.Scenarios, s)
	}
	return set, nil
}

// scenarioOffsets returns the byte offset where each element of the
// top-level "scenarios" array starts.
func scenarioOffsets(data []byte) ([]int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, syntaxError(data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &Error{Line: 1, Message: "a scenario file is a JSON object with a \"scenarios\" list"}
	}
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return nil, syntaxError(data, err)
		}
		if key, _ := keyTok.(string); key != "scenarios" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, syntaxError(data, err)
			}
			continue
		}
		if t, err := dec.Token(); err != nil {
			return nil, syntaxError(data, err)
		} else if d, ok := t.(json.Delim); !ok || d != '[' {
			return nil, &Error{Line: lineAt(data, dec.InputOffset()), Field: "scenarios", Message: "must be a list"}
		}
		var out []int64
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, syntaxError(data, err)
			}
			end := dec.InputOffset()
			out = append(out, end-int64(len(raw)))
		}
		return out, nil
	}
	return nil, nil
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Error{Line: lineAt(data, se.Offset), Message: "invalid JSON: " + se.Error()}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Line: lineAt(data, int64(len(data))), Message: "invalid JSON: the document ends early"}
	}
	return &Error{Message: "invalid JSON: " + err.Error()}
}

// decodeError turns a json decoding error into an Error with a line.
func decodeError(data []byte, starts []int64, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &Error{Line: lineAt(data, te.Offset), Field: te.Field, Message: fmt.Sprintf("must be %s, not a JSON %s", jsonKind(te.Type.Kind().String()), te.Value)}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		line := 0
		if i := bytes.Index(data, []byte(`"`+name+`"`)); i >= 0 {
			line = lineAt(data, int64(i))
		}
		return &Error{Line: line, Field: name, Message: "is not a known field (see internal/mockpayer/scenario/schema.json)"}
	}
	return syntaxError(data, err)
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "slice":
		return "a list"
	case "struct", "ptr":
		return "an object"
	case "bool":
		return "true or false"
	case "int":
		return "a whole number"
	}
	return k
}

// fieldLine finds the line of the last key of path inside scenario i.
func fieldLine(data []byte, starts []int64, i int, path string) int {
	if i >= len(starts) || path == "" {
		return 0
	}
	end := int64(len(data))
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	key := path[strings.LastIndex(path, ".")+1:]
	key, _, _ = strings.Cut(key, "[")
	if j := bytes.Index(data[starts[i]:end], []byte(`"`+key+`"`)); j >= 0 {
		return lineAt(data, starts[i]+int64(j))
	}
	return 0
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
