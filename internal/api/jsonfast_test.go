package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// fastDoc is a type with every shape decodeFast reads: strings, a named
// string type, a struct embedded by value, a struct field, pointers to
// structs, slices of strings and of structs, a field without a tag, one
// and one left out.
type fastDoc struct {
	ID    string   `json:"id"`
	Code  fastCode `json:"code,omitempty"`
	Plain string
	fastEmbedded
	Inner   fastInner    `json:"inner"`
	Ptr     *fastInner   `json:"ptr,omitempty"`
	Tags    []string     `json:"tags,omitempty"`
	Items   []fastInner  `json:"items,omitempty"`
	Ptrs    []*fastInner `json:"-"`
	Skipped string       `json:"-"`
}

type fastCode string

type fastEmbedded struct {
	Promoted string `json:"promoted,omitempty"`
}

type fastInner struct {
	Name  string      `json:"name"`
	Deep  *fastInner2 `json:"deep,omitempty"`
	Codes []string    `json:"codes"`
}

type fastInner2 struct {
	Value string `json:"value"`
}

// fastBodies are decoded by decodeFast, or left to encoding/json; either
// way the outcome must be json.Unmarshal's.
var fastBodies = []string{
	`{}`, ` {} `, "\t{\n}\r\n", `{"id":"1"}`, `{"id":""}`,
	`{"id":"1","code":"c","Plain":"p","promoted":"x","inner":{"name":"n","codes":["a","b"]},"ptr":{"name":"m","deep":{"value":"v"}},"tags":["t"],"items":[{"name":"i1"},{"name":"i2","codes":[]}]}`,
	` { "id" : "1" , "tags" : [ ] , "items" : [ ] , "inner" : { } , "ptr" : { } } `,
	`{"id":"Zoë ☃ 𝄞","inner":{"name":"é"}}`,
	`{"tags":["1","2","3","4","5","6","7","8","9"],"items":[{"name":"a"},{},{"codes":["x","y","z","w","v"]},{},{"name":"e"},{"name":"f","codes":[]}]}`,
	// Left to encoding/json: escapes, null, numbers, booleans, unknown,
	// misspelt or differently cased names, duplicates, wrong types.
	`{"id":"a\"b"}`, `{"id":"\u00e9"}`, `{"\u0069d":"1"}`, `{"id":null}`, `{"ptr":null}`, `{"tags":null}`,
	`{"id":1}`, `{"id":true}`, `{"unknown":"x"}`, `{"ID":"1"}`, `{"plain":"p"}`, `{"id":"1","id":"2"}`,
	`{"inner":{"name":"a"},"inner":{"codes":["b"]}}`, `{"items":[{"name":"a"}],"items":[{"codes":["b"]}]}`,
	`{"tags":"x"}`, `{"inner":[]}`, `{"ptr":"x"}`, `{"tags":[1]}`, `{"Skipped":"s"}`, `{"-":"s"}`, `{"internal":"i"}`,
	`{"fastEmbedded":{"promoted":"p"}}`, `{"Ptrs":[{"name":"a"}]}`,
	// Not JSON, or more than one value.
	``, ` `, `{`, `{"id":"1"`, `{"id":"1",}`, `{"id" "1"}`, `{"id":"1"}}`, `{"id":"1"} {}`, `{"id":"1"}x`,
	`{"tags":["a",]}`, `{"tags":["a" "b"]}`, `{id:"1"}`, `{'id':'1'}`, "{\"id\":\"a\x01b\"}", "{\"id\":\"\xff\"}",
	`[]`, `"x"`, `null`, "\ufeff{}", `{"items":[{"name":"a"},]}`,
}

// TestDecodeFastIsUnmarshal: whatever decodeFast decodes, json.Unmarshal
// decodes to the same value (and the body has no unknown field); whatever
// it refuses, it leaves zero. Run on the shapes above, the mock requests
// and the contract's claim examples.
func TestDecodeFastIsUnmarshal(t *testing.T) {
	for _, b := range fastBodies {
		checkDecodeFast[fastDoc](t, []byte(b))
	}
	fast := 0
	for _, m := range mockpayer.Requests() {
		if checkDecodeFast[eligibility.Request](t, m.RequestJSON()) {
			fast++
		}
	}
	if fast == 0 {
		t.Error("no mock request was decoded by decodeFast")
	}
	files, _ := filepath.Glob("testdata/eligibility/*.json")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkDecodeFast[eligibility.Request](t, b)
	}
	for _, f := range []string{"../claims/testdata/example.json", "../claims/testdata/full.json"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkDecodeFast[claims.Request](t, b)
	}
}

// TestDecodeFastPlans: the eligibility request is a type decodeFast reads
// (or a check would quietly pay encoding/json again), and types it must
// leave alone are left alone.
func TestDecodeFastPlans(t *testing.T) {
	for _, tc := range []struct {
		t     reflect.Type
		plain bool
	}{
		{reflect.TypeFor[eligibility.Request](), true},
		{reflect.TypeFor[fastDoc](), true},
		{reflect.TypeFor[struct {
			N int `json:"n"`
		}](), false},
		{reflect.TypeFor[struct {
			M map[string]string `json:"m"`
		}](), false},
		{reflect.TypeFor[struct {
			R json.RawMessage `json:"r"`
		}](), false},
		{reflect.TypeFor[struct {
			S string `json:"s,string"`
		}](), false},
		{reflect.TypeFor[struct {
			A string `json:"a"`
			B string `json:"A"`
		}](), false},
		{reflect.TypeFor[struct {
			*fastEmbedded
		}](), false},
		{reflect.TypeFor[struct {
			fastEmbedded `json:"e"`
		}](), false},
		{reflect.TypeFor[struct {
			Q string `json:"a b"`
		}](), false},
		{reflect.TypeFor[struct {
			Self *fastSelf `json:"self"`
		}](), false},
	} {
		if got := fastPlanOf(tc.t) != nil; got != tc.plain {
			t.Errorf("%v: plain %v, want %v", tc.t, got, tc.plain)
		}
	}
}

type fastSelf struct {
	Next *fastSelf `json:"next"`
}

// checkDecodeFast holds decodeFast on b to json.Unmarshal into a T, and
// reports whether decodeFast decoded it.
func checkDecodeFast[T any](t *testing.T, b []byte) bool {
	t.Helper()
	var got, want T
	ok := decodeFast(b, &got)
	err := json.Unmarshal(b, &want)
	var zero T
	switch {
	case ok && err != nil:
		t.Errorf("%.200s: decodeFast decoded what json.Unmarshal refuses (%v)", b, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Errorf("%.200s: decodeFast\n%+v\njson.Unmarshal\n%+v", b, got, want)
	case ok && unknownFields(b, reflect.TypeFor[T]()) != nil:
		t.Errorf("%.200s: decodeFast decoded a body with unknown fields %v", b, unknownFields(b, reflect.TypeFor[T]()))
	case !ok && !reflect.DeepEqual(got, zero):
		t.Errorf("%.200s: decodeFast refused but left %+v", b, got)
	}
	return ok
}

// FuzzDecodeFast: decodeFast and json.Unmarshal agree on any input.
func FuzzDecodeFast(f *testing.F) {
	for _, b := range fastBodies {
		f.Add([]byte(b))
	}
	for _, m := range mockpayer.Requests() {
		f.Add(m.RequestJSON())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecodeFast[fastDoc](t, b)
		checkDecodeFast[eligibility.Request](t, b)
		if strings.Contains(string(b), `"`) { // a cheap second type with other names
			checkDecodeFast[fastInner](t, b)
		}
	})
}

// decodeFast allocates the body's one copy (every string is a slice of it),
// the structs pointers point to and each slice's array (once, for up to
// four items): not a string apiece, nor slice headers for reflect.
func TestDecodeFastAllocations(t *testing.T) {
	checked := 0
	for _, m := range mockpayer.Requests() {
		body := m.RequestJSON()
		var req eligibility.Request
		if !decodeFast(body, &req) {
			continue
		}
		want, ok := 1.0, true // the body's copy
		var count func(v reflect.Value)
		count = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.Pointer:
				if !v.IsNil() {
					want++
					count(v.Elem())
				}
			case reflect.Slice:
				if !v.IsNil() {
					want++
					ok = ok && v.Len() <= 4
					for i := range v.Len() {
						count(v.Index(i))
					}
				}
			case reflect.Struct:
				for i := range v.NumField() {
					count(v.Field(i))
				}
			}
		}
		count(reflect.ValueOf(req))
		if !ok {
			continue
		}
		got := testing.AllocsPerRun(20, func() {
			var r eligibility.Request
			decodeFast(body, &r)
		})
		if got > want+1 { // +1: r itself, which reaches decodeFast as an interface
			t.Errorf("%s: %v allocations, want at most %v", m.Name, got, want+1)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no mock request was checked")
	}
}
