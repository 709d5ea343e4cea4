package eligibility

import (
	"reflect"
	"strconv"
	"strings"
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
	walkStrings(reflect.ValueOf(r).Elem(), "", func(path, v string) {
		if i := strings.IndexFunc(v, func(r rune) bool {
			return r == elementSeparator || r == componentSeparator || r == repetitionSeparator ||
				r == segmentTerminator || r < 0x20 || r == 0x7f
		}); i >= 0 {
			ch := v[i : i+1]
			if v[i] < 0x20 || v[i] == 0x7f {
				c.add(path, "contains a control character (such as a line break or tab); remove it")
			} else {
				c.add(path, "contains %q, which the X12 270 uses as a delimiter; remove it", ch)
			}
		}
	})
}

func walkStrings(v reflect.Value, path string, fn func(path, v string)) {
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
			walkStrings(v.Index(i), path+"/"+strconv.Itoa(i), fn)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous { // embedded Patient: its fields sit at this level in JSON
				walkStrings(v.Field(i), path, fn)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			walkStrings(v.Field(i), path+"/"+name, fn)
		}
	}
}
