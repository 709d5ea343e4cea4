package partners

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// idFields name an entry in messages, in this order of preference.
var idFields = []string{"transactionSettingId", "partnershipId", "profileId", "connectionId", "transactionSetIdentifier"}

// fieldChecker walks a JSON document token by token against the Go type it
// will be decoded into, reporting every object key the type's JSON fields
// do not name and every value of the wrong JSON kind. It holds one token at
// a time, never the document as a tree: decoding a body of 600,000 unknown
// fields into a map first cost ~700 MB, where this costs the body and the
// hundred messages kept (problems.add only counts the rest).
type fieldChecker struct {
	data []byte
	dec  *json.Decoder
	ps   *problems
}

// entry is the record a value is in, named in messages by its id
// ("partnershipId \"x\", transactionSetIdentifier \"835\""): looked up in
// the object's bytes only when a message needs it, so the id may come after
// the mistake in the document.
type entry struct {
	parent   *entry
	start    int64 // where the object starts in data
	resolved bool
	name     string
}

// checkFields reports into ps what is wrong with data for a value of type
// t. data must be valid JSON (json.Valid); an error is one of its reader.
func checkFields(data []byte, t reflect.Type, ps *problems) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	c := fieldChecker{data: data, dec: dec, ps: ps}
	return c.value(t, "", nil)
}

func (c *fieldChecker) value(t reflect.Type, path string, in *entry) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	start := c.dec.InputOffset()
	tok, err := c.dec.Token()
	if err != nil || tok == nil { // null: the zero value
		return err
	}
	delim, composite := tok.(json.Delim)
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int:
		var ok bool
		switch t.Kind() {
		case reflect.String:
			_, ok = tok.(string)
		case reflect.Bool:
			_, ok = tok.(bool)
		default:
			n, isNum := tok.(json.Number)
			f, err := n.Float64()
			ok = isNum && err == nil && f == float64(int64(f))
		}
		if !ok {
			if c.ps.full() {
				c.ps.add("", "")
			} else if name := c.name(in); name != "" {
				c.ps.add(path, "must be a JSON %s (in the entry with %s)", jsonKind(t), name)
			} else {
				c.ps.add(path, "must be a JSON %s", jsonKind(t))
			}
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage: free-form
			break
		}
		if delim != '[' {
			c.ps.add(path, "must be a JSON array")
			break
		}
		for i := 0; c.dec.More(); i++ {
			if err := c.value(t.Elem(), path+"/"+strconv.Itoa(i), in); err != nil {
				return err
			}
		}
		_, err := c.dec.Token() // ]
		return err
	case reflect.Struct:
		if delim != '{' {
			c.ps.add(path, "must be a JSON object")
			break
		}
		return c.object(t, path, &entry{parent: in, start: start})
	}
	if composite { // a value not walked: skip to its end
		return skipJSON(c.dec, 1)
	}
	return nil
}

// object checks the keys of an object (its '{' read) and the values of the
// known ones.
func (c *fieldChecker) object(t reflect.Type, path string, here *entry) error {
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
	for c.dec.More() {
		tok, err := c.dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		ft, known := fields[k]
		switch {
		case !known && c.ps.full():
			c.ps.add("", "") // counted only
		case !known:
			where := ""
			if name := c.name(here); name != "" {
				where = " in the entry with " + name
			}
			c.ps.add(path+"/"+escapePointer(k), "unknown field %q%s; the fields here are %s", k, where, strings.Join(names, ", "))
		case ft.Kind() != reflect.Map:
			if err := c.value(ft, path+"/"+escapePointer(k), here); err != nil {
				return err
			}
			continue
		}
		if err := skipJSON(c.dec, 0); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // }
	return err
}

// skip reads past one value, or, with depth 1, to the end of the array or
// object whose opening was read.
func skipJSON(dec *json.Decoder, depth int) error {
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth <= 0 {
			return nil
		}
	}
}

// name is how messages name the entry: its ancestors' ids and its own.
func (c *fieldChecker) name(e *entry) string {
	if e == nil {
		return ""
	}
	if !e.resolved {
		e.resolved = true
		e.name = c.name(e.parent)
		if id := c.ownID(e.start); id != "" {
			if e.name != "" {
				e.name += ", "
			}
			e.name += id
		}
	}
	return e.name
}

// ownID reads the object at data[start:] for its id field (the first of
// idFields it has with a non-empty string value): `partnershipId "x"`.
func (c *fieldChecker) ownID(start int64) string {
	rest := bytes.TrimLeft(c.data[start:], " \t\r\n:,")
	dec := json.NewDecoder(bytes.NewReader(rest))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ""
	}
	ids := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		k, _ := tok.(string)
		if !slices.Contains(idFields, k) {
			if skipJSON(dec, 0) != nil {
				return ""
			}
			continue
		}
		v, err := dec.Token()
		if err != nil {
			return ""
		}
		switch v := v.(type) {
		case string:
			ids[k] = v
		case json.Delim:
			if skipJSON(dec, 1) != nil {
				return ""
			}
		}
	}
	for _, f := range idFields {
		if id := ids[f]; id != "" {
			return fmt.Sprintf("%s %q", f, id)
		}
	}
	return ""
}

// unknownKeys calls report with each key of the JSON object raw that known
// does not hold, reading it token by token, and says whether there was one.
// An error says raw is not a JSON object.
func unknownKeys(raw []byte, known []string, report func(key string)) (bool, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	if tok != json.Delim('{') {
		return false, fmt.Errorf("not a JSON object")
	}
	found := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return found, err
		}
		if k, _ := tok.(string); !slices.Contains(known, k) {
			found = true
			report(k)
		}
		if err := skipJSON(dec, 0); err != nil {
			return found, err
		}
	}
	return found, nil
}
