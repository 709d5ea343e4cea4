package partners

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/clearhouse/clearhouse/internal/findings"
)

// Problem is one thing wrong with a Document or record: where (a JSON
// Pointer into what was sent, "/partnerships/1/localProfileId") and what,
// naming the entry and how to fix it.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	// more, on the entry that follows the first findings.Max, counts the
	// problems found past them (see problems.add).
	more int
}

// ValidationError lists the problems found (at most findings.Max, the rest
// counted in More); nothing was changed.
type ValidationError struct {
	Problems []Problem
	More     int
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	n := len(e.Problems) + e.More
	fmt.Fprintf(&b, "%s problem", findings.Thousands(n))
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString(", nothing was changed:")
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", p.Path, p.Message)
	}
	if e.More > 0 {
		b.WriteString("\n  " + findings.MoreMessage(e.More))
	}
	return b.String()
}

// problems collects Problems: the first findings.Max, then only a count
// (kept on one more entry, so that len(ps) still says whether anything was
// found), so a document of a million mistakes costs a hundred messages.
type problems []Problem

func (ps *problems) add(path, format string, args ...any) {
	switch {
	case len(*ps) > findings.Max:
		(*ps)[findings.Max].more++
	case len(*ps) == findings.Max:
		*ps = append(*ps, Problem{more: 1})
	default:
		*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
}

// full says that further problems are only counted.
func (ps problems) full() bool { return len(ps) >= findings.Max }

func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	if len(ps) > findings.Max {
		return &ValidationError{Problems: ps[:findings.Max], More: ps[findings.Max].more}
	}
	return &ValidationError{Problems: ps}
}

// MaxDocumentBytes bounds a Document (file or request body).
const MaxDocumentBytes = 8 << 20

// DecodeDocument reads a Document, refusing unknown fields by path and
// entry (a typo must not silently turn a setting off).
func DecodeDocument(data []byte) (Document, error) {
	var d Document
	return d, decodeStrict(data, &d)
}

// Decode reads one record (Profile, Partnership, TransactionSetting or
// Connection) the same way.
func Decode[T any](data []byte) (T, error) {
	var v T
	return v, decodeStrict(data, &v)
}

func decodeStrict(data []byte, v any) error {
	if len(data) > MaxDocumentBytes {
		return &ValidationError{Problems: []Problem{{Path: "", Message: fmt.Sprintf(
			"the document is %d bytes; the limit is %d", len(data), MaxDocumentBytes)}}}
	}
	if !json.Valid(data) {
		err := json.Unmarshal(data, &struct{}{}) // the syntax error, found before anything is decoded
		return &ValidationError{Problems: []Problem{{Path: "", Message: "not valid JSON: " + err.Error()}}}
	}
	var ps problems
	if err := checkFields(data, reflect.TypeOf(v).Elem(), &ps); err != nil {
		return &ValidationError{Problems: []Problem{{Path: "", Message: "not valid JSON: " + err.Error()}}}
	}
	if err := ps.err(); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &ValidationError{Problems: []Problem{{Path: "/" + strings.ReplaceAll(te.Field, ".", "/"),
				Message: fmt.Sprintf("must be a JSON %s, not %s", jsonKind(te.Type), te.Value)}}}
		}
		return &ValidationError{Problems: []Problem{{Path: "", Message: err.Error()}}}
	}
	return nil
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Slice:
		return "array"
	}
	return "object"
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
