package partners

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Problem is one thing wrong with a Document or record: where (a JSON
// Pointer into what was sent, "/partnerships/1/localProfileId") and what,
// naming the entry and how to fix it.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// ValidationError lists every problem found; nothing was changed.
type ValidationError struct{ Problems []Problem }

func (e *ValidationError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem", len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	b.WriteString(", nothing was changed:")
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", p.Path, p.Message)
	}
	return b.String()
}

// problems collects Problems.
type problems []Problem

func (ps *problems) add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return &ValidationError{Problems: ps}
}

// MaxDocumentBytes bounds a Document (file or request body).
const MaxDocumentBytes = 8 << 20

// DecodeDocument reads a Document, refusing unknown fields by path and
// entry (a typo must not silently turn a setting off).
func DecodeDocument(data []byte) (Document, error) {
	var d Document
	return d, decodeStrict(data, &d)
}

// Decode reads one record (Profile, Partnership, TransactionSetting or
// Connection) the same way.
func Decode[T any](data []byte) (T, error) {
	var v T
	return v, decodeStrict(data, &v)
}

func decodeStrict(data []byte, v any) error {
	if len(data) > MaxDocumentBytes {
		return &ValidationError{Problems: []Problem{{Path: "", Message: fmt.Sprintf(
			"the document is %d bytes; the limit is %d", len(data), MaxDocumentBytes)}}}
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return &ValidationError{Problems: []Problem{{Path: "", Message: "not valid JSON: " + err.Error()}}}
	}
	var ps problems
	checkFields(generic, reflect.TypeOf(v).Elem(), "", "", &ps)
	if err := ps.err(); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &ValidationError{Problems: []Problem{{Path: "/" + strings.ReplaceAll(te.Field, ".", "/"),
				Message: fmt.Sprintf("must be a JSON %s, not %s", jsonKind(te.Type), te.Value)}}}
		}
		return &ValidationError{Problems: []Problem{{Path: "", Message: err.Error()}}}
	}
	return nil
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Slice:
		return "array"
	}
	return "object"
}

// idFields name an entry in messages, in this order of preference.
var idFields = []string{"transactionSettingId", "partnershipId", "profileId", "connectionId", "transactionSetIdentifier"}

// checkFields reports every object key of v that t's JSON fields do not
// name, recursing into nested structs and slices of structs. entry names
// the enclosing record for the message.
func checkFields(v any, t reflect.Type, path, entry string, ps *problems) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return // null: the zero value
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int:
		var ok bool
		switch t.Kind() {
		case reflect.String:
			_, ok = v.(string)
		case reflect.Bool:
			_, ok = v.(bool)
		default:
			f, isNum := v.(float64)
			ok = isNum && f == float64(int64(f))
		}
		if !ok {
			where := ""
			if entry != "" {
				where = " (in the entry with " + entry + ")"
			}
			ps.add(path, "must be a JSON %s%s", jsonKind(t), where)
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage: free-form
			return
		}
		arr, ok := v.([]any)
		if !ok {
			ps.add(path, "must be a JSON array")
			return
		}
		for i, item := range arr {
			checkFields(item, t.Elem(), path+"/"+strconv.Itoa(i), entry, ps)
		}
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			ps.add(path, "must be a JSON object")
			return
		}
		for _, f := range idFields {
			if id, ok := obj[f].(string); ok && id != "" {
				if entry != "" {
					entry += ", "
				}
				entry += fmt.Sprintf("%s %q", f, id)
				break
			}
		}
		fields := map[string]reflect.Type{}
		var names []string
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			fields[name] = sf.Type
			names = append(names, name)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ft, known := fields[k]
			p := path + "/" + escapePointer(k)
			if !known {
				where := ""
				if entry != "" {
					where = " in the entry with " + entry
				}
				ps.add(p, "unknown field %q%s; the fields here are %s", k, where, strings.Join(names, ", "))
				continue
			}
			if ft.Kind() != reflect.Map {
				checkFields(obj[k], ft, p, entry, ps)
			}
		}
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
