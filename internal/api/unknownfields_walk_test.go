package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

// TestUnknownFieldsScanMatchesDecoder: the in-place scan of unknownFields
// names exactly the fields that a walk over encoding/json's tokens names
// (the way it was done before, kept here as the reference), for bodies
// with escapes, nesting, arrays of objects, maps, self-decoding values,
// case-insensitive matches and white space.
func TestUnknownFieldsScanMatchesDecoder(t *testing.T) {
	t.Parallel()
	type inner struct {
		Name  string            `json:"name"`
		Tags  map[string]string `json:"tags"`
		Items []struct {
			Code string `json:"code"`
		} `json:"items"`
	}
	type doc struct {
		ID      string          `json:"id"`
		Inner   *inner          `json:"inner"`
		List    []inner         `json:"list"`
		Raw     json.RawMessage `json:"raw"`
		Skipped string          `json:"-"`
		Self    *doc            `json:"self"`
		Grid    [][]inner       `json:"grid"`
	}
	bodies := []string{
		`{}`, `[]`, `"x"`, `12`, `null`,
		`{"id":"1","idd":"2","Inner":{"name":"n","nmae":"m","tags":{"a":{"b":1}},"items":[{"code":"c","cod":1},{"x/y~z":[1,{"q":2}]}]}}`,
		` { "id" : "1" , "list" : [ { "name" : "a" } , { "Name" : "b", "extra" : true } ] , "raw" : {"anything":1} } `,
		`{"\u0069d":"1","i\u0064x":"2","sel\u0066":{"id":"3","deep":{"a":[1,2,{"b":"c"}]},"self":{"oops":null}}}`,
		`{"grid":[[{"name":"a","bad":1}],[],[{"nope":"\"}\\"}]]],"Skipped":"s","":"empty","~":1,"/":2}`,
		`{"inner":{"items":[{"code":"\\\"","codee":"\u00e9\n"}]},"unknownArray":[{"id":1}],"unknownObject":{"id":{"x":1}}}`,
	}
	for _, b := range bodies {
		want := tokenWalk([]byte(b), reflect.TypeFor[doc]())
		if got := unknownFields([]byte(b), reflect.TypeFor[doc]()); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", b, got, want)
		}
	}
	// The real requests, with a field misspelt at every level.
	for _, m := range mockpayer.Requests() {
		var v map[string]any
		if err := json.Unmarshal(m.RequestJSON(), &v); err != nil {
			t.Fatal(err)
		}
		v["provdier"] = v["provider"]
		if s, ok := v["subscriber"].(map[string]any); ok {
			s["middleNmae"] = "Q"
			s["addres"] = map[string]any{"city": "X"}
		}
		b, _ := json.Marshal(v)
		want := tokenWalk(b, reflect.TypeFor[eligibility.Request]())
		if len(want) < 2 {
			t.Fatalf("%s: the reference found %v", m.Name, want)
		}
		if got := unknownFields(b, reflect.TypeFor[eligibility.Request]()); !slices.Equal(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", m.Name, got, want)
		}
	}
	many := map[string]any{}
	for i := range 50 {
		many["extra"+strconv.Itoa(i)] = i
	}
	b, _ := json.Marshal(many)
	got, want := unknownFields(b, reflect.TypeFor[claims.Request]()), tokenWalk(b, reflect.TypeFor[claims.Request]())
	if !slices.Equal(got, want) || len(got) != maxUnknownFields+1 || got[maxUnknownFields].More != 30 {
		t.Errorf("50 unknown fields:\n got %+v\nwant %+v", got, want)
	}
}

// tokenWalk is the reference: encoding/json's tokens, walked beside the
// type.
func tokenWalk(body []byte, t reflect.Type) []unknownField {
	dec := json.NewDecoder(bytes.NewReader(body))
	var found []unknownField
	more := 0
	var value func(t reflect.Type, at string) error
	value = func(t reflect.Type, at string) error {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t != nil && (reflect.PointerTo(t).Implements(jsonUnmarshaler) || t.Implements(jsonUnmarshaler)) {
			t = nil
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				keyTok, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := keyTok.(string)
				path := at + "/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
				var elem reflect.Type
				switch {
				case t != nil && t.Kind() == reflect.Struct:
					fields := referenceFields(t)
					if f, ok := referenceMatch(fields, key); ok {
						elem = f.Type
					} else if len(found) < maxUnknownFields {
						found = append(found, unknownField{Pointer: path, Suggestion: closestField(jsonFields(t, map[reflect.Type]*typeInfo{}), key)})
					} else {
						more++
					}
				case t != nil && t.Kind() == reflect.Map:
					elem = t.Elem()
				}
				if err := value(elem, path); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			var elem reflect.Type
			if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
				elem = t.Elem()
			}
			for i := 0; dec.More(); i++ {
				if err := value(elem, at+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if value(t, "") != nil {
		return nil
	}
	if more > 0 {
		found = append(found, unknownField{Pointer: "/", More: more})
	}
	return found
}

// referenceFields are t's fields by JSON name, as reflect sees them.
func referenceFields(t reflect.Type) []reflect.StructField {
	var fields []reflect.StructField
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && tag == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct) {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		f.Name = tag
		fields = append(fields, f)
	}
	return fields
}

func referenceMatch(fields []reflect.StructField, key string) (reflect.StructField, bool) {
	for _, f := range fields {
		if f.Name == key {
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(f.Name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
