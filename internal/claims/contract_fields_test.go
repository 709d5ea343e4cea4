package claims

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Every property path of the hosted API's professional and institutional
// request (testdata/contract/*.paths, listed from its OpenAPI file) is
// read by our request type with exactly that name and nesting: a request
// holding just that one field decodes with unknown fields disallowed, and
// the value arrives somewhere in the decoded request (a custom decoder
// that dropped it would leave nothing). What a field becomes in the 837
// is asserted by the golden tests and listed in docs/api/*-claims.md.
func TestContractFieldsAreRead(t *testing.T) {
	for _, tc := range []struct {
		file string
		typ  reflect.Type
	}{
		{"professional.paths", reflect.TypeFor[ProfessionalRequest]()},
		{"institutional.paths", reflect.TypeFor[InstitutionalRequest]()},
	} {
		paths := readContractPaths(t, "testdata/contract/"+tc.file)
		if len(paths) < 500 {
			t.Fatalf("%s: only %d paths", tc.file, len(paths))
		}
		for _, p := range paths {
			if hasChildren(paths, p.path) {
				continue // its children are checked
			}
			doc := documentWith(p.path, sampleValue(p.kind))
			v := reflect.New(tc.typ)
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v.Interface()); err != nil {
				t.Errorf("%s %s: %s does not decode: %v", tc.file, p.path, doc, err)
				continue
			}
			if !hasLeaf(v.Elem()) {
				t.Errorf("%s %s: decoded, but the value was dropped (%s)", tc.file, p.path, doc)
			}
		}
	}
}

type contractPath struct{ path, kind string }

func readContractPaths(t *testing.T, name string) []contractPath {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []contractPath
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		path, kind, _ := strings.Cut(line, " ")
		out = append(out, contractPath{path, kind})
	}
	return out
}

func hasChildren(paths []contractPath, p string) bool {
	for _, q := range paths {
		if strings.HasPrefix(q.path, p+"/") || strings.HasPrefix(q.path, p+"[]/") || strings.HasPrefix(q.path, p+"[][]/") {
			return true
		}
	}
	return false
}

// sampleValue is a value of the contract's type that every field of that
// type takes ("1" is a number-as-string, a code, an amount).
func sampleValue(kind string) any {
	switch kind {
	case "boolean":
		return true
	case "integer":
		return 1
	case "array<string>":
		return []any{"1"}
	case "array<array>":
		return []any{[]any{"1"}}
	case "object", "?", "array<object>":
		if kind == "array<object>" {
			return []any{map[string]any{}}
		}
		return map[string]any{}
	}
	return "1"
}

// documentWith builds the JSON of a request holding value at path
// (segments separated by /, [] for an array's item).
func documentWith(path string, value any) []byte {
	var v = value
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		name := parts[i]
		for strings.HasSuffix(name, "[]") {
			name = strings.TrimSuffix(name, "[]")
			v = []any{v}
		}
		v = map[string]any{name: v}
	}
	b, _ := json.Marshal(v)
	return b
}

// hasLeaf reports whether v holds any set value: a non-empty string, a
// true, a number, or a present object of a type with no fields (the
// deprecated shapes the edits refuse by their presence).
func hasLeaf(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return false
		}
		if v.Elem().Kind() == reflect.Struct && v.Elem().NumField() == 0 {
			return true
		}
		return hasLeaf(v.Elem())
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if hasLeaf(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if hasLeaf(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		return v.Len() > 0
	case reflect.String:
		return v.Len() > 0
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int64, reflect.Float64:
		return !v.IsZero()
	}
	return false
}
