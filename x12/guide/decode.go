package guide

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
)

// DecodeOptions configure DecodeJSON.
type DecodeOptions struct {
	// Delimiters of the X12 written. Zero: element "*", segment "~", and
	// the component and repetition separators each ISA names (ISA16, ISA11);
	// x12.DefaultDelimiters for input without an interchange header.
	Delimiters x12.Delimiters
	// LineBreaks writes a line feed after each segment.
	LineBreaks bool
}

// DecodeJSON reads Guide JSON as Translate writes it and writes the X12 it
// describes: the reverse of Translate, streaming one token at a time.
// Members are written in document order, so X12 → JSON → X12 gives back the
// same segments (trailing empty elements aside, which X12 writers drop).
func DecodeJSON(w io.Writer, r io.Reader, opts DecodeOptions) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	d := &decoder{dec: dec, dst: w, opts: opts}
	err := d.document()
	if ferr := d.flush(); err == nil {
		err = ferr
	}
	return err
}

type decoder struct {
	dec  *json.Decoder
	dst  io.Writer
	out  *x12.Writer
	opts DecodeOptions
	gs08 string
	path []string // keys being decoded, for error messages
}

func (d *decoder) fail(format string, args ...any) error {
	return fmt.Errorf("guide JSON at %s: %s", strings.Join(d.path, "."), fmt.Sprintf(format, args...))
}

func (d *decoder) flush() error {
	if d.out == nil {
		return nil
	}
	err := d.out.Flush()
	d.out = nil
	return err
}

// writer returns the X12 writer, creating one with the default delimiters
// for input without an interchange header.
func (d *decoder) writer() *x12.Writer {
	if d.out == nil {
		delims := d.opts.Delimiters
		if delims == (x12.Delimiters{}) {
			delims = x12.DefaultDelimiters
		}
		d.out = d.newWriter(delims)
	}
	return d.out
}

func (d *decoder) newWriter(delims x12.Delimiters) *x12.Writer {
	var wo []x12.WriterOption
	if d.opts.LineBreaks {
		wo = append(wo, x12.WithLineBreaks())
	}
	return x12.NewWriter(d.dst, delims, wo...)
}

// expect reads a delimiter token.
func (d *decoder) expect(want json.Delim) error {
	t, err := d.dec.Token()
	if err != nil {
		return err
	}
	if t != want {
		return d.fail("expected %q, found %v", want, t)
	}
	return nil
}

// members calls f for each member of the object that starts at the next token.
func (d *decoder) members(f func(key string) error) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	return d.body(f)
}

// body calls f for each member of an object whose "{" was read.
func (d *decoder) body(f func(key string) error) error {
	for d.dec.More() {
		t, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		d.path = append(d.path, key)
		if err := f(key); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
	}
	return d.expect('}')
}

// each calls f for an object value, or for every object of an array value;
// f runs after the object's "{" was read.
func (d *decoder) each(f func() error) error {
	t, err := d.dec.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		return f()
	case json.Delim('['):
		for d.dec.More() {
			if err := d.expect('{'); err != nil {
				return err
			}
			if err := f(); err != nil {
				return err
			}
		}
		return d.expect(']')
	}
	return d.fail("expected an object or an array of objects, found %v", t)
}

func (d *decoder) skip() error {
	var raw json.RawMessage
	return d.dec.Decode(&raw)
}

func (d *decoder) document() error {
	return d.members(func(key string) error {
		if key != "interchanges" {
			return d.skip()
		}
		return d.each(d.interchange)
	})
}

func (d *decoder) interchange() error {
	err := d.body(func(key string) error {
		switch key {
		case "interchangeHeader":
			return d.isa()
		case "functionalGroups":
			return d.each(d.group)
		case "interchangeTrailer":
			return d.segment("IEA", nil)
		case "otherSegments":
			return d.each(func() error { return d.segmentBody("", nil) })
		}
		return d.skip()
	})
	if err != nil {
		return err
	}
	return d.flush()
}

// isa writes the interchange header as given (ISA fields keep their
// padding) and sets the delimiters it names.
func (d *decoder) isa() error {
	vals := make([]string, 16)
	err := d.members(func(key string) error {
		pos, ok := keyPos(key)
		s, err := d.nextScalar()
		if err != nil {
			return err
		}
		if ok && pos >= 1 && pos <= 16 {
			vals[pos-1] = s
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := d.flush(); err != nil {
		return err
	}
	delims := d.opts.Delimiters
	if delims == (x12.Delimiters{}) {
		delims = x12.Delimiters{Element: '*', Segment: '~'}
		if len(vals[15]) == 1 {
			delims.Component = vals[15][0]
		}
		if r := vals[10]; len(r) == 1 && !isAlnum(r[0]) && r[0] != delims.Component {
			delims.Repetition = r[0]
		}
	}
	d.out = d.newWriter(delims)
	raw := []byte("ISA")
	for _, v := range vals {
		raw = append(raw, delims.Element)
		raw = append(raw, v...)
	}
	return d.out.WriteRaw(raw)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

func (d *decoder) group() error {
	return d.body(func(key string) error {
		switch key {
		case "groupHeader":
			f, texts, err := d.readSegment(nil)
			if err != nil {
				return err
			}
			d.gs08 = textAt(texts, 8)
			return d.writer().WriteSegmentFields("GS", f...)
		case "transactionSets":
			return d.each(d.transaction)
		case "groupTrailer":
			d.gs08 = ""
			return d.segment("GE", nil)
		case "otherSegments":
			return d.each(func() error { return d.segmentBody("", nil) })
		}
		return d.skip()
	})
}

// transaction decodes one set: {"segments":[…]} for a set without guide,
// else the heading/detail/summary areas, whose first member is the ST that
// names the guide.
func (d *decoder) transaction() error {
	var g *Guide
	return d.body(func(key string) error {
		switch key {
		case "segments":
			return d.each(func() error { return d.segmentBody("", nil) })
		case "heading", "detail", "summary":
			return d.members(func(k string) error {
				if g == nil && strings.HasSuffix(k, "_ST") {
					st, texts, err := d.readSegment(nil)
					if err != nil {
						return err
					}
					if found, ok := For(d.gs08, textAt(texts, 1), textAt(texts, 3)); ok {
						g = found
					}
					return d.writer().WriteSegmentFields("ST", st...)
				}
				var root *Loop
				if g != nil {
					root = g.root
				}
				return d.member(root, k)
			})
		}
		return d.skip()
	})
}

// member decodes the value of key inside loop l (nil: no guide to follow).
func (d *decoder) member(l *Loop, key string) error {
	if key == "_unrecognized" {
		return d.each(func() error { return d.segmentBody("", nil) })
	}
	var node Node
	if l != nil {
		if i, ok := l.byKey[key]; ok {
			node = l.Children[i]
		}
	}
	switch {
	case node.Loop != nil || (node.Segment == nil && strings.HasSuffix(key, "_loop")):
		return d.each(func() error {
			return d.body(func(k string) error { return d.member(node.Loop, k) })
		})
	case node.Segment != nil:
		return d.each(func() error { return d.segmentBody(node.Segment.ID, node.Segment) })
	}
	id := key[strings.LastIndexByte(key, '_')+1:]
	return d.each(func() error { return d.segmentBody(id, nil) })
}

// segment reads a segment object and writes it as id.
func (d *decoder) segment(id string, def *Segment) error {
	if err := d.expect('{'); err != nil {
		return err
	}
	return d.segmentBody(id, def)
}

// segmentBody reads the members of a segment object whose "{" was read and
// writes the segment. id "" takes the id from the object's "id" member.
func (d *decoder) segmentBody(id string, def *Segment) error {
	fields, texts, err := d.elements(def)
	if err != nil {
		return err
	}
	if id == "" {
		id = texts[0]
	}
	return d.writer().WriteSegmentFields(id, fields...)
}

// readSegment reads a whole segment object.
func (d *decoder) readSegment(def *Segment) ([]x12.Field, []string, error) {
	if err := d.expect('{'); err != nil {
		return nil, nil, err
	}
	return d.elements(def)
}

// elements reads the elements of a segment object, placed by the two-digit
// suffix of their keys. texts[i] is element i's text when simple (texts[0]
// is the "id" member of a generic segment).
func (d *decoder) elements(def *Segment) ([]x12.Field, []string, error) {
	var fields []x12.Field
	texts := []string{""}
	err := d.body(func(key string) error {
		t, err := d.dec.Token()
		if err != nil {
			return err
		}
		if key == "id" {
			texts[0], err = d.scalar(t)
			return err
		}
		pos, ok := keyPos(key)
		if !ok {
			return d.fail("key %q does not end in an element position", key)
		}
		var el *Element
		if def != nil && pos <= len(def.Elements) {
			el = &def.Elements[pos-1]
		}
		f, text, err := d.elementValue(el, t)
		if err != nil {
			return err
		}
		for len(fields) < pos {
			fields = append(fields, x12.Simple(""))
			texts = append(texts, "")
		}
		fields[pos-1], texts[pos] = f, text
		return nil
	})
	return fields, texts, err
}

// elementValue reads a scalar, a composite object or an array of
// repetitions, given its first token.
func (d *decoder) elementValue(el *Element, t json.Token) (x12.Field, string, error) {
	if t != json.Delim('[') {
		return d.occurrence(el, t)
	}
	var reps []x12.Field
	for d.dec.More() {
		t, err := d.dec.Token()
		if err != nil {
			return x12.Field{}, "", err
		}
		f, _, err := d.occurrence(el, t)
		if err != nil {
			return x12.Field{}, "", err
		}
		reps = append(reps, f)
	}
	return x12.Repeated(reps...), "", d.expect(']')
}

func (d *decoder) occurrence(el *Element, t json.Token) (x12.Field, string, error) {
	if t != json.Delim('{') {
		s, err := d.scalar(t)
		s = unformat(el, s)
		return x12.Simple(s), s, err
	}
	var parts []string
	err := d.body(func(key string) error {
		pos, ok := keyPos(key)
		if !ok {
			return d.fail("component key %q does not end in a position", key)
		}
		var comp *Element
		if el != nil && pos <= len(el.Components) {
			comp = &el.Components[pos-1]
		}
		s, err := d.nextScalar()
		if err != nil {
			return err
		}
		for len(parts) < pos {
			parts = append(parts, "")
		}
		parts[pos-1] = unformat(comp, s)
		return nil
	})
	return x12.Composite(parts...), "", err
}

// nextScalar reads a string or number and returns its text.
func (d *decoder) nextScalar() (string, error) {
	t, err := d.dec.Token()
	if err != nil {
		return "", err
	}
	return d.scalar(t)
}

// scalar returns the text of a string or number token.
func (d *decoder) scalar(t json.Token) (string, error) {
	switch v := t.(type) {
	case string:
		return v, nil
	case json.Number:
		return string(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	case nil:
		return "", nil
	}
	return "", d.fail("expected a value, found %v", t)
}

// unformat turns Guide JSON dates and times back into X12 text.
func unformat(el *Element, s string) string {
	if el == nil {
		return s
	}
	switch el.Type {
	case "DT":
		if len(s) == 10 && s[4] == '-' && s[7] == '-' {
			return s[:4] + s[5:7] + s[8:]
		}
	case "TM":
		if len(s) >= 5 && s[2] == ':' {
			return strings.NewReplacer(":", "", ".", "").Replace(s)
		}
	}
	return s
}

// keyPos reads the two-digit position that ends an element key.
func keyPos(key string) (int, bool) {
	if len(key) < 2 {
		return 0, false
	}
	n, err := strconv.Atoi(key[len(key)-2:])
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

func textAt(texts []string, pos int) string {
	if pos >= len(texts) {
		return ""
	}
	return texts[pos]
}
