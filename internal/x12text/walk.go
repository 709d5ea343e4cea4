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
		for _, f := range fieldsOf(v.Type()) {
			if f.embedded {
				eachString(v.Field(f.index), path, fn)
				continue
			}
			eachString(v.Field(f.index), append(path, f.name), fn)
		}
	}
}

// walkField is a field the walk enters: an embedded struct's, or one
// with a JSON name.
type walkField struct {
	index    int
	name     string
	embedded bool
}

// walkFields caches fieldsOf by struct type: reflect's Field allocates,
// and the walk runs on every request.
var walkFields sync.Map // reflect.Type → []walkField

// fieldsOf lists the fields of struct type t the walk enters.
func fieldsOf(t reflect.Type) []walkField {
	if fs, ok := walkFields.Load(t); ok {
		return fs.([]walkField)
	}
	var fs []walkField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			fs = append(fs, walkField{index: i, embedded: true})
			continue
		}
		if name := jsonName(f); name != "" && name != "-" {
			fs = append(fs, walkField{index: i, name: name})
		}
	}
	walkFields.Store(t, fs)
	return fs
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
