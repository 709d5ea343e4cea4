package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/clearhouse/clearhouse/internal/problem"
)

// UnknownFieldCode is the code of the warning that names a field of the
// request that no field of the contract matches (a misspelling such as
// "provdier"). encoding/json ignores such fields; the caller would never
// learn that what they sent was not read.
const UnknownFieldCode = "request::unknown_field"

// unknownField is a request field that was ignored.
type unknownField struct {
	Pointer    string // JSON Pointer of the field as sent
	Suggestion string // the field's likely intended name, or ""
	More       int    // set on the last entry of a cut list: how many more
}

func (u unknownField) description() string {
	if u.More > 0 {
		return fmt.Sprintf("And %d more unknown fields were ignored.", u.More)
	}
	s := fmt.Sprintf("The request field %s is not a field of this request and was ignored", u.Pointer)
	if u.Suggestion != "" {
		s += fmt.Sprintf("; did you mean %q?", u.Suggestion)
	}
	return s + "."
}

// problem is the fieldList message of an unknown field.
func (u unknownField) problem() string {
	if u.More > 0 {
		return fmt.Sprintf("and %d more unknown fields were ignored", u.More)
	}
	msg := "is not a field of this request and was ignored"
	if u.Suggestion != "" {
		msg += fmt.Sprintf("; did you mean %q?", u.Suggestion)
	}
	return msg
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// unknownFields lists the fields of body (a JSON request already decoded
// into a value of type t) that match no field of t, as encoding/json
// matches them (exact name, else case-insensitive). Values of types that
// decode themselves (custom UnmarshalJSON: aliases, numbers as strings)
// are not looked into. The body is read token by token, so a large body
// costs its tokens, not a tree of maps.
func unknownFields(body []byte, t reflect.Type) []unknownField {
	w := unknownWalk{dec: json.NewDecoder(bytes.NewReader(body))}
	if w.value(t, "") != nil {
		return nil
	}
	if w.more > 0 {
		w.found = append(w.found, unknownField{Pointer: "/", More: w.more})
	}
	return w.found
}

// maxUnknownFields bounds the fields named: a body of thousands of
// unknown fields gets an answer of a few kilobytes, not thousands of
// warnings.
const maxUnknownFields = 20

type unknownWalk struct {
	dec   *json.Decoder
	found []unknownField
	more  int // unknown fields past maxUnknownFields
}

// structFieldsOf caches jsonFields by struct type for the process: the
// request types are few and fixed, and walking them with reflection on
// every request was a fifth of an eligibility check's allocations.
var structFieldsOf sync.Map // reflect.Type → []jsonField

func (w *unknownWalk) record(u unknownField) {
	if len(w.found) < maxUnknownFields {
		w.found = append(w.found, u)
	} else {
		w.more++
	}
}

// value reads one JSON value, which decodes into type t (nil: not read).
func (w *unknownWalk) value(t reflect.Type, at string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (reflect.PointerTo(t).Implements(jsonUnmarshaler) || t.Implements(jsonUnmarshaler)) {
		t = nil
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for w.dec.More() {
			keyTok, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := keyTok.(string)
			path := at + "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
			var elem reflect.Type
			switch {
			case t != nil && t.Kind() == reflect.Struct:
				fields := w.structFields(t)
				if f, ok := matchField(fields, key); ok {
					elem = f.typ
				} else {
					w.record(unknownField{Pointer: path, Suggestion: closestField(fields, key)})
				}
			case t != nil && t.Kind() == reflect.Map:
				elem = t.Elem()
			}
			if err := w.value(elem, path); err != nil {
				return err
			}
		}
		_, err = w.dec.Token() // }
		return err
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(elem, at+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
		_, err = w.dec.Token() // ]
		return err
	}
	return nil
}

func (w *unknownWalk) structFields(t reflect.Type) []jsonField {
	if f, ok := structFieldsOf.Load(t); ok {
		return f.([]jsonField)
	}
	f := jsonFields(t)
	structFieldsOf.Store(t, f)
	return f
}

// jsonField is a field as encoding/json sees it: its JSON name and type.
type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields are t's fields by JSON name, promoted fields of embedded
// structs included.
func jsonFields(t reflect.Type) []jsonField {
	var fields []jsonField
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && tag == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				continue // its fields are promoted, and listed on their own
			}
		}
		if tag == "" {
			tag = f.Name
		}
		fields = append(fields, jsonField{name: tag, typ: f.Type})
	}
	return fields
}

func matchField(fields []jsonField, key string) (jsonField, bool) {
	for _, f := range fields {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return jsonField{}, false
}

// closestField is the field name within two edits of key (a typo), or "".
func closestField(fields []jsonField, key string) string {
	best, bestDist := "", 3
	for _, f := range fields {
		if d := editDistance(strings.ToLower(f.name), strings.ToLower(key)); d < bestDist {
			best, bestDist = f.name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of two neighbours ("provdier").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// withUnknownFields adds the unknown fields to a JSON object answer: to
// its fieldList when it is a validation error (a request refused for a
// missing "provider" should also say that "provdier" was sent), otherwise
// as warnings ({code, description}, the contract's warnings[] of the
// eligibility and claim responses) after any it already has.
func withUnknownFields(answer []byte, unknown []unknownField) []byte {
	if len(unknown) == 0 {
		return answer
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(answer, &obj) != nil {
		return answer
	}
	key, entries := "warnings", make([]any, 0, len(unknown))
	if _, ok := obj["fieldList"]; ok {
		key = "fieldList"
		var msg string
		if json.Unmarshal(obj["message"], &msg) == nil {
			obj["message"], _ = json.Marshal(msg + unknownNote(unknown))
		}
		for _, u := range unknown {
			entries = append(entries, FieldError{Path: u.Pointer, Message: u.problem()})
		}
	} else {
		for _, u := range unknown {
			entries = append(entries, map[string]string{"code": UnknownFieldCode, "description": u.description()})
		}
	}
	var list []any
	if prior, ok := obj[key]; ok {
		_ = json.Unmarshal(prior, &list)
	}
	encoded, err := json.Marshal(append(list, entries...))
	if err != nil {
		return answer
	}
	obj[key] = encoded
	out, err := json.Marshal(obj)
	if err != nil {
		return answer
	}
	return out
}

// withUnknownFieldProblems adds the unknown fields to a validation error's
// fieldList.
func withUnknownFieldProblems(err error, unknown []unknownField) error {
	if invalid, ok := err.(*problem.Invalid); ok && len(unknown) > 0 {
		err = ValidationMore(invalid.Fields, invalid.More) // rendered here to add the unknown fields
	}
	e, ok := err.(*Error)
	if !ok || e.Code != CodeValidation || len(unknown) == 0 {
		return err
	}
	for _, u := range unknown {
		e.FieldList = append(e.FieldList, FieldError{Path: u.Pointer, Message: u.problem()})
	}
	e.Message += unknownNote(unknown)
	return e
}

// unknownNote is what a validation error's message adds about the unknown
// fields listed after its problems.
func unknownNote(unknown []unknownField) string {
	n := 0
	for _, u := range unknown {
		n += max(u.More, 1)
	}
	if n == 1 {
		return " The request also has a field that is not a field of this request (last in fieldList)."
	}
	return fmt.Sprintf(" The request also has %d fields that are not fields of this request (last in fieldList).", n)
}
