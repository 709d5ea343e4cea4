package eligibility

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
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

// checkX12Safe walks every string in the request (by reflection: it runs once
// per request, and a walker cannot forget a field added later).
func checkX12Safe(c *checker, r *Request) {
	walkStrings(reflect.ValueOf(r).Elem(), make([]string, 0, 8), func(path []string, v string) {
		if i := strings.IndexFunc(v, func(r rune) bool {
			return r == elementSeparator || r == componentSeparator || r == repetitionSeparator ||
				r == segmentTerminator || r < 0x20 || r == 0x7f
		}); i >= 0 {
			ch := v[i : i+1]
			p := "/" + strings.Join(path, "/")
			if v[i] < 0x20 || v[i] == 0x7f {
				c.add(p, "contains a control character (such as a line break or tab); remove it")
			} else {
				c.add(p, "contains %q, which the X12 270 uses as a delimiter; remove it", ch)
			}
		}
	})
}

// walkStrings calls fn for every non-empty string under v with its JSON
// path as segments (joined only when reported, to keep the walk cheap).
func walkStrings(v reflect.Value, path []string, fn func(path []string, v string)) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); s != "" {
			fn(path, s)
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
