package x12text

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// EachString calls fn for every non-empty string under v (a struct, pointer
// or slice reached from a JSON request) with its JSON path as segments,
// joined only by callers that report it, to keep the walk cheap. Fields of
// embedded structs sit at their parent's level, as in JSON; fields tagged
// `json:"-"` or untagged are skipped. fn may set the string when v is
// addressable. It walks by reflection: a walker cannot forget a field added
// to a request later.
func EachString(v reflect.Value, fn func(path []string, v reflect.Value)) {
	eachString(v, make([]string, 0, 8), fn)
}

func eachString(v reflect.Value, path []string, fn func(path []string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			fn(path, v)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			eachString(v.Elem(), path, fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			eachString(v.Index(i), append(path, strconv.Itoa(i)), fn)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous {
				eachString(v.Field(i), path, fn)
				continue
			}
			name := jsonName(f)
			if name == "" || name == "-" {
				continue
			}
			eachString(v.Field(i), append(path, name), fn)
		}
	}
}

// jsonNames caches struct fields' JSON names; Tag.Get parses on every call.
var jsonNames sync.Map // reflect.StructTag → string

func jsonName(f reflect.StructField) string {
	if n, ok := jsonNames.Load(f.Tag); ok {
		return n.(string)
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	jsonNames.Store(f.Tag, name)
	return name
}
