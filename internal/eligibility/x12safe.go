package eligibility

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/clearhouse/clearhouse/internal/x12text"
)

// Delimiters of the 270s we write. Request text containing one of them (or a
// control character) cannot be carried in X12, so validation refuses it with
// the field's path instead of letting the writer fail later.
const (
	elementSeparator    = '*'
	componentSeparator  = ':'
	repetitionSeparator = '^'
	segmentTerminator   = '~'
)

// checkX12Safe brings every string of the request into the X12 character
// set (x12text: "José" becomes "JOSE" in the 270) and reports, with the
// field's path, those that cannot be: delimiters, control characters,
// no-break or zero-width spaces, emoji. It walks by reflection: it runs once
// per request, and a walker cannot forget a field added later.
func checkX12Safe(c *checker, r *Request) {
	walkStrings(reflect.ValueOf(r).Elem(), make([]string, 0, 8), func(path []string, v reflect.Value) {
		out, err := x12text.Clean(v.String(), delimiters270)
		if err != nil {
			c.add("/"+strings.Join(path, "/"), "%s", err.Error())
			return
		}
		if out != v.String() && v.CanSet() {
			v.SetString(out)
		}
	})
}

// delimiters270 are the separators of the 270s we write.
var delimiters270 = string([]byte{elementSeparator, componentSeparator, repetitionSeparator, segmentTerminator})

// walkStrings calls fn for every non-empty string under v with its JSON
// path as segments (joined only when reported, to keep the walk cheap).
func walkStrings(v reflect.Value, path []string, fn func(path []string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			fn(path, v)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkStrings(v.Index(i), append(path, strconv.Itoa(i)), fn)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous { // embedded Patient: its fields sit at this level in JSON
				walkStrings(v.Field(i), path, fn)
				continue
			}
			name := jsonName(f)
			if name == "" || name == "-" {
				continue
			}
			walkStrings(v.Field(i), append(path, name), fn)
		}
	}
}

// jsonNames caches struct fields' JSON names; Tag.Get parses on every call.
var jsonNames sync.Map // reflect.StructField.Tag → string

func jsonName(f reflect.StructField) string {
	if n, ok := jsonNames.Load(f.Tag); ok {
		return n.(string)
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	jsonNames.Store(f.Tag, name)
	return name
}
