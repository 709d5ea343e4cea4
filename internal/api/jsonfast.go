package api

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
)

// decodeFast decodes body into v (a pointer to a zero value) when both are
// plain: v's type holds only strings, structs, pointers to structs and
// slices of those (no custom decoding, no maps, no numbers), and body is
// objects, arrays and strings without escapes whose every member name is
// exactly a field's JSON name, each once. Then the result is what
// json.Unmarshal gives, and body has no unknown field. Anything else —
// invalid JSON included — returns false with v still zero, and the caller
// decodes with encoding/json, which says what is wrong in its own words.
// An eligibility request decoded this way costs a fifth of
// json.Unmarshal's instructions (no validating pre-pass, no scanner state
// machine per byte, no second look at each string for escapes) and
// needs no walk for unknown fields afterwards.
func decodeFast(body []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	p := fastPlanOf(rv.Type().Elem())
	if p == nil || !rv.Elem().IsZero() {
		return false
	}
	d := fastDecoder{b: body}
	if d.value(p, rv.Elem()) && d.end() {
		return true
	}
	rv.Elem().SetZero()
	return false
}

// fastKind is what a fastPlan decodes.
type fastKind uint8

const (
	fastString fastKind = iota + 1
	fastStruct
	fastPointer // to a struct
	fastSlice   // of strings or structs
)

// fastPlan is how decodeFast fills a value of one type.
type fastPlan struct {
	kind   fastKind
	typ    reflect.Type
	fields []fastField // fastStruct
	elem   *fastPlan   // fastPointer, fastSlice
}

// fastField is a struct field by its JSON name; index is its place as
// reflect.Value.FieldByIndex takes it (promoted fields of an embedded
// struct have two steps).
type fastField struct {
	name  string
	index []int
	plan  *fastPlan
}

// fastPlans caches fastPlanOf: a *fastPlan, or nil for a type decodeFast
// leaves to encoding/json.
var fastPlans sync.Map // reflect.Type → *fastPlan

func fastPlanOf(t reflect.Type) *fastPlan {
	if p, ok := fastPlans.Load(t); ok {
		return p.(*fastPlan)
	}
	p := buildFastPlan(t, map[reflect.Type]*fastPlan{})
	fastPlans.Store(t, p)
	return p
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumber      = reflect.TypeFor[json.Number]()
)

// buildFastPlan is t's plan, or nil when t (or a type in it) is not plain.
// building holds the plans under construction: a type that contains
// itself is left to encoding/json.
func buildFastPlan(t reflect.Type, building map[reflect.Type]*fastPlan) *fastPlan {
	if _, ok := building[t]; ok {
		return nil
	}
	building[t] = nil
	defer delete(building, t)
	if t.Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(jsonUnmarshaler) ||
		t.Implements(textUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) || t == jsonNumber {
		return nil
	}
	p := &fastPlan{typ: t}
	switch t.Kind() {
	case reflect.String:
		p.kind = fastString
	case reflect.Pointer:
		if t.Elem().Kind() != reflect.Struct {
			return nil
		}
		p.kind, p.elem = fastPointer, buildFastPlan(t.Elem(), building)
		if p.elem == nil {
			return nil
		}
	case reflect.Slice:
		if k := t.Elem().Kind(); k != reflect.String && k != reflect.Struct {
			return nil
		}
		p.kind, p.elem = fastSlice, buildFastPlan(t.Elem(), building)
		if p.elem == nil {
			return nil
		}
	case reflect.Struct:
		p.kind = fastStruct
		if !fastFields(t, p, building) {
			return nil
		}
	default:
		return nil
	}
	return p
}

// fastFields lists t's fields into p. Only the simplest of encoding/json's
// rules are followed, and a struct that would need more is not plain:
// every field exported with a name (from its tag or Go name) and at most
// omitempty or omitzero (unexported ones without a tag are skipped, as
// encoding/json skips them), structs embedded by value without a tag, no
// two names equal regardless of case (so that the exact name always
// decides, as it does for encoding/json).
func fastFields(t reflect.Type, p *fastPlan, building map[reflect.Type]*fastPlan) bool {
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(t) {
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous {
			if hasTag || f.Type.Kind() != reflect.Struct {
				return false
			}
			continue // its fields are visible, each on its own (exported or not)
		}
		if !f.IsExported() {
			if hasTag {
				return false
			}
			continue // encoding/json ignores it too
		}
		if tag == "-" {
			continue
		}
		for _, o := range strings.Split(opts, ",") {
			if o != "" && o != "omitempty" && o != "omitzero" {
				return false
			}
		}
		if name == "" {
			name = f.Name
		}
		if name == "-" { // tag "-,": unknownFields does not see it as a field
			return false
		}
		for _, r := range name { // encoding/json accepts more; these suffice here
			if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.') {
				return false
			}
		}
		if seen[strings.ToLower(name)] {
			return false
		}
		seen[strings.ToLower(name)] = true
		fp := buildFastPlan(f.Type, building)
		if fp == nil {
			return false
		}
		p.fields = append(p.fields, fastField{name: name, index: f.Index, plan: fp})
	}
	return true
}

// fastDecoder reads a JSON document from b, strictly: anything it does
// not expect, valid JSON or not, stops it (false).
type fastDecoder struct {
	b []byte
	s string // b's one copy, made at the first string: every string decoded is a slice of it
	i int
}

// next skips white space and returns the next byte (0 at the end).
func (d *fastDecoder) next() byte {
	for d.i < len(d.b) {
		switch c := d.b[d.i]; c {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return c
		}
	}
	return 0
}

// end reports whether only white space is left.
func (d *fastDecoder) end() bool { return d.next() == 0 && d.i == len(d.b) }

// str reads a string without escapes and returns its bytes.
func (d *fastDecoder) str() ([]byte, bool) {
	s, _, ok := d.strAt()
	return s, ok
}

// strAt is str with where the string's bytes begin in b.
func (d *fastDecoder) strAt() ([]byte, int, bool) {
	if d.next() != '"' {
		return nil, 0, false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			s := d.b[start:j]
			return s, start, ascii || utf8.Valid(s)
		case c == '\\' || c < ' ':
			return nil, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false
}

// value reads one value into v (addressable, zero) by plan p.
func (d *fastDecoder) value(p *fastPlan, v reflect.Value) bool {
	switch p.kind {
	case fastString:
		// A slice of the body's one copy, not a string of its own: one
		// allocation for a request's strings, not one each.
		s, at, ok := d.strAt()
		if ok {
			if d.s == "" {
				d.s = string(d.b)
			}
			v.SetString(d.s[at : at+len(s)])
		}
		return ok
	case fastPointer:
		if d.next() != '{' {
			return false
		}
		ptr := reflect.New(p.elem.typ)
		v.Set(ptr)
		return d.object(p.elem, ptr.Elem())
	case fastStruct:
		return d.next() == '{' && d.object(p, v)
	case fastSlice:
		return d.next() == '[' && d.array(p, v)
	}
	return false
}

// object reads an object at d.i into struct v.
func (d *fastDecoder) object(p *fastPlan, v reflect.Value) bool {
	d.i++ // {
	if d.next() == '}' {
		d.i++
		return true
	}
	var seen uint64 // fields already read (one bit each, the first 64)
	for {
		name, ok := d.str()
		if !ok || d.next() != ':' {
			return false
		}
		d.i++
		fi := -1
		for k := range p.fields {
			if p.fields[k].name == string(name) {
				fi = k
				break
			}
		}
		if fi < 0 || fi >= 64 || seen&(1<<fi) != 0 {
			return false // unknown, past the bitmap, or sent twice: encoding/json decides
		}
		seen |= 1 << fi
		f := &p.fields[fi]
		var fv reflect.Value
		if len(f.index) == 1 {
			fv = v.Field(f.index[0])
		} else {
			fv = v.FieldByIndex(f.index)
		}
		if !d.value(f.plan, fv) {
			return false
		}
		switch d.next() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// array reads an array at d.i into slice v (addressable, nil): an empty
// one is an empty slice, not nil, as encoding/json makes it. v grows in
// place: reflect.MakeSlice and reflect.Append each allocate a slice header
// besides the array.
func (d *fastDecoder) array(p *fastPlan, v reflect.Value) bool {
	d.i++     // [
	v.Grow(4) // non-nil even when the array is empty; its items are zero
	if d.next() == ']' {
		d.i++
		return true
	}
	for n := 0; ; n++ {
		if n == v.Cap() {
			v.Grow(1)
		}
		v.SetLen(n + 1)
		if !d.value(p.elem, v.Index(n)) {
			return false
		}
		switch d.next() {
		case ',':
			d.i++
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}
