package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// DecodeJSONStrict is DecodeJSON refusing fields v does not have: a 400
// naming the first unknown one by JSON Pointer and the fields allowed
// there. For settings, where a misspelt field silently ignored changes
// what the server does ("evenTypes" subscribed a webhook to every event).
func DecodeJSONStrict(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil {
		return decodeError(err)
	}
	r.Body = readCloser{bytes.NewReader(body)}
	if err := DecodeJSON(r, v); err != nil {
		return err
	}
	if path, field, allowed := firstUnknownField(body, reflect.TypeOf(v)); path != "" {
		return Validation(FieldError{Path: path, Message: "unknown field " + strconv.Quote(field) +
			"; the fields here are " + strings.Join(allowed, ", ")})
	}
	return nil
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// firstUnknownField walks the JSON in body against type t, token by token,
// and returns the path of the first object key t's JSON fields do not name,
// the key, and the names allowed there; "" when there is none (or the body
// is not JSON: DecodeJSON says so).
func firstUnknownField(body []byte, t reflect.Type) (path, field string, allowed []string) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var walk func(t reflect.Type, at string) bool
	walk = func(t reflect.Type, at string) bool {
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		tok, err := dec.Token()
		if err != nil {
			return true // stop; DecodeJSON reports it
		}
		delim, _ := tok.(json.Delim)
		switch {
		case delim == '{' && t != nil && t.Kind() == reflect.Struct:
			fields := map[string]reflect.Type{}
			var names []string
			for _, f := range reflect.VisibleFields(t) {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "-" || !f.IsExported() || (f.Anonymous && name == "") {
					continue
				}
				if name == "" {
					name = f.Name
				}
				fields[name], names = f.Type, append(names, name)
			}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return true
				}
				key, _ := k.(string)
				ft, ok := fields[key]
				if !ok {
					path, field, allowed = at+"/"+strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1"), key, names
					return true
				}
				if walk(ft, at+"/"+key) {
					return true
				}
			}
		case delim == '[' && t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			for i := 0; dec.More(); i++ {
				if walk(t.Elem(), at+"/"+strconv.Itoa(i)) {
					return true
				}
			}
		case delim == '{' || delim == '[': // free-form (a map, any, RawMessage): not checked
			for depth := 1; depth > 0; {
				tok, err := dec.Token()
				if err != nil {
					return true
				}
				switch tok {
				case json.Delim('{'), json.Delim('['):
					depth++
				case json.Delim('}'), json.Delim(']'):
					depth--
				}
			}
			return false
		default:
			return false
		}
		_, err = dec.Token() // the closing delimiter
		return err != nil
	}
	walk(t, "")
	return path, field, allowed
}
