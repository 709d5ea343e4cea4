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
// are not looked into. The body is scanned in place, without tokens or a
// tree of maps: a field that is known costs no allocation, and a large body
// costs its bytes.
func unknownFields(body []byte, t reflect.Type) []unknownField {
	w := unknownWalk{b: body}
	if !w.value(infoOf(t)) {
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

// unknownWalk scans a JSON document that has already decoded (so is
// valid); anything unexpected ends the walk (false).
type unknownWalk struct {
	b     []byte
	i     int
	path  []pathStep // to the value being read
	found []unknownField
	more  int // unknown fields past maxUnknownFields
}

// pathStep is one step of the path to the value being read: a member
// name (raw, as in the body, with escapes if escaped) or an array index.
// The name is decoded and the JSON Pointer text built only for a field
// that is reported.
type pathStep struct {
	raw     []byte
	escaped bool
	index   int // -1 for a member
}

// pointer is the JSON Pointer of the current value, then key if not "".
func (w *unknownWalk) pointer(key string) string {
	var b strings.Builder
	for _, s := range w.path {
		b.WriteByte('/')
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(escapePointer(memberName(s.raw, s.escaped)))
		}
	}
	if key != "" {
		b.WriteByte('/')
		b.WriteString(escapePointer(key))
	}
	return b.String()
}

func escapePointer(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

func (w *unknownWalk) record(u unknownField) {
	if len(w.found) < maxUnknownFields {
		w.found = append(w.found, u)
	} else {
		w.more++
	}
}

func (w *unknownWalk) skipSpace() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// next skips white space and reports the next byte (0 at the end).
func (w *unknownWalk) next() byte {
	w.skipSpace()
	if w.i >= len(w.b) {
		return 0
	}
	return w.b[w.i]
}

// str reads a string at w.i and returns its raw content (between the
// quotes) and whether it has escapes.
func (w *unknownWalk) str() (raw []byte, escaped, ok bool) {
	if w.next() != '"' {
		return nil, false, false
	}
	start := w.i + 1
	for j := start; j < len(w.b); j++ {
		switch w.b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			w.i = j + 1
			return w.b[start:j], escaped, true
		}
	}
	return nil, false, false
}

// value reads one JSON value, which decodes into a value described by ti.
func (w *unknownWalk) value(ti *typeInfo) bool {
	switch w.next() {
	case '{':
		w.i++
		if w.next() == '}' {
			w.i++
			return true
		}
		for {
			raw, escaped, ok := w.str()
			if !ok || w.next() != ':' {
				return false
			}
			w.i++
			elem := &none
			switch ti.kind {
			case reflect.Struct:
				if f, ok := matchField(ti.fields, raw, escaped); ok {
					elem = f.info
				} else {
					key := memberName(raw, escaped)
					w.record(unknownField{Pointer: w.pointer(key), Suggestion: closestField(ti.fields, key)})
				}
			case reflect.Map:
				elem = ti.elem
			}
			if elem.kind == reflect.Invalid { // nothing in it can be reported
				ok = w.value(elem)
			} else {
				ok = w.inside(pathStep{raw: raw, escaped: escaped, index: -1}, elem)
			}
			if more, ok := w.separator(ok, '}'); !more {
				return ok
			}
		}
	case '[':
		w.i++
		if w.next() == ']' {
			w.i++
			return true
		}
		elem := &none
		if ti.kind == reflect.Slice || ti.kind == reflect.Array {
			elem = ti.elem
		}
		for i := 0; ; i++ {
			if more, ok := w.separator(w.inside(pathStep{index: i}, elem), ']'); !more {
				return ok
			}
		}
	case '"':
		_, _, ok := w.str()
		return ok
	case 0:
		return false
	}
	// A number, true, false or null.
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return true
		}
		w.i++
	}
	return true
}

// inside reads a value of elem's type one step (a member, an element)
// down the path.
func (w *unknownWalk) inside(step pathStep, elem *typeInfo) bool {
	w.path = append(w.path, step)
	ok := w.value(elem)
	w.path = w.path[:len(w.path)-1]
	return ok
}

// separator reads what follows a member or element that read (read): a
// comma (more follows) or the closing bracket (ok, the end).
func (w *unknownWalk) separator(read bool, closing byte) (more, ok bool) {
	if !read {
		return false, false
	}
	switch w.next() {
	case ',':
		w.i++
		return true, true
	case closing:
		w.i++
		return false, true
	}
	return false, false
}

// memberName is a member name as decoded.
func memberName(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

// typeInfo is what the walk needs of a type: its kind once pointers are
// followed (reflect.Invalid when it is not looked into: unknown, or it
// decodes itself), its fields (structs) and its element (maps, slices,
// arrays).
type typeInfo struct {
	kind   reflect.Kind
	fields []jsonField
	elem   *typeInfo
}

// none is the typeInfo of a value that is not looked into.
var none typeInfo

// typeInfos caches infoOf for the process: the request types are few and
// fixed, and walking them with reflection on every request was a fifth of
// an eligibility check's allocations.
var typeInfos sync.Map // reflect.Type → *typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if t == nil {
		return &none
	}
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	built := map[reflect.Type]*typeInfo{}
	ti := buildInfo(t, built)
	for t, ti := range built { // complete before any other goroutine sees it
		typeInfos.LoadOrStore(t, ti)
	}
	return ti
}

// buildInfo describes t and the types it contains; built holds those
// already described (a type may contain itself).
func buildInfo(t reflect.Type, built map[reflect.Type]*typeInfo) *typeInfo {
	if ti, ok := built[t]; ok {
		return ti
	}
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{}
	built[t] = ti
	d := t
	for d.Kind() == reflect.Pointer {
		d = d.Elem()
	}
	if reflect.PointerTo(d).Implements(jsonUnmarshaler) || d.Implements(jsonUnmarshaler) {
		return ti
	}
	switch d.Kind() {
	case reflect.Struct:
		ti.fields = jsonFields(d, built)
	case reflect.Map, reflect.Slice, reflect.Array:
		ti.elem = buildInfo(d.Elem(), built)
	}
	ti.kind = d.Kind()
	return ti
}

// jsonField is a field as encoding/json sees it: its JSON name and type.
type jsonField struct {
	name string
	info *typeInfo // of its type
}

// jsonFields are t's fields by JSON name, promoted fields of embedded
// structs included.
func jsonFields(t reflect.Type, built map[reflect.Type]*typeInfo) []jsonField {
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
		fields = append(fields, jsonField{name: tag, info: buildInfo(f.Type, built)})
	}
	return fields
}

// matchField finds the field a member name (raw, as in the body) decodes
// into: the exact name, else one equal without regard to case.
func matchField(fields []jsonField, raw []byte, escaped bool) (jsonField, bool) {
	if escaped {
		raw = []byte(memberName(raw, true))
	}
	for _, f := range fields {
		if f.name == string(raw) {
			return f, true
		}
	}
	for _, f := range fields {
		if bytes.EqualFold([]byte(f.name), raw) {
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
