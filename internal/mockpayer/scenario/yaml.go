package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// IsYAML reports whether a scenario file is YAML rather than JSON: a JSON
// file starts with '{' (after blanks); anything else is read as YAML.
func IsYAML(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] != '{'
}

// yamlToJSON rewrites a YAML scenario file as JSON whose every value stands
// on the same line as in the YAML, so the JSON loader's checks (the same
// schema, the same messages) name the YAML's lines. Plain scalars are read
// as the File type wants them: `amount: 2500` or `carc: 197` in a field that
// holds a string keeps its text ("2500", "197"), as a YAML author means it.
func yamlToJSON(data []byte) ([]byte, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: extra.Line, Message: "a scenario file is one YAML document; remove the second '---'"}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		return nil, &Error{Line: root.Line, Message: "a scenario file is a mapping with a \"scenarios\" list"}
	}
	w := &jsonLines{line: 1}
	if err := w.value(root, reflect.TypeFor[File](), 0); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// jsonLines writes JSON, starting each value on the line of its YAML node.
type jsonLines struct {
	buf  bytes.Buffer
	line int
}

// maxYAMLDepth bounds nesting (and alias expansion) of a YAML file.
const maxYAMLDepth = 32

func (w *jsonLines) to(line int) {
	for w.line < line {
		w.buf.WriteByte('\n')
		w.line++
	}
}

func (w *jsonLines) value(n *yaml.Node, t reflect.Type, depth int) error {
	if depth > maxYAMLDepth {
		return &Error{Line: n.Line, Message: fmt.Sprintf("is nested deeper than %d levels", maxYAMLDepth)}
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode {
		// An alias's content stands where the alias is.
		return w.value(&yaml.Node{Kind: n.Alias.Kind, Tag: n.Alias.Tag, Value: n.Alias.Value, Style: n.Alias.Style,
			Content: n.Alias.Content, Line: n.Line}, t, depth+1)
	}
	w.to(n.Line)
	switch n.Kind {
	case yaml.MappingNode:
		w.buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				return &Error{Line: k.Line, Message: "a key must be a plain name"}
			}
			if k.Value == "<<" {
				return &Error{Line: k.Line, Message: "merge keys (<<) are not supported in scenario files; repeat the fields or use an alias for a whole value"}
			}
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.to(k.Line)
			key, _ := json.Marshal(k.Value)
			w.buf.Write(key)
			w.buf.WriteByte(':')
			if err := w.value(v, fieldType(t, k.Value), depth+1); err != nil {
				return err
			}
		}
		w.buf.WriteByte('}')
	case yaml.SequenceNode:
		var elem reflect.Type
		if t != nil && t.Kind() == reflect.Slice {
			elem = t.Elem()
		}
		w.buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			if err := w.value(item, elem, depth+1); err != nil {
				return err
			}
		}
		w.buf.WriteByte(']')
	case yaml.ScalarNode:
		return w.scalar(n, t)
	default:
		return &Error{Line: n.Line, Message: "unexpected YAML node"}
	}
	return nil
}

// scalar writes a YAML scalar as the JSON value the target type reads: a
// string field takes a plain scalar's text; elsewhere the YAML type counts.
func (w *jsonLines) scalar(n *yaml.Node, t reflect.Type) error {
	var out []byte
	switch {
	case n.Tag == "!!null":
		out = []byte("null")
	case t != nil && t.Kind() == reflect.String:
		out, _ = json.Marshal(n.Value)
	case n.Tag == "!!bool":
		b, err := strconv.ParseBool(n.Value)
		if err != nil {
			return &Error{Line: n.Line, Message: fmt.Sprintf("%q must be true or false", n.Value)}
		}
		out = strconv.AppendBool(nil, b)
	case n.Tag == "!!int" || n.Tag == "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return &Error{Line: n.Line, Message: err.Error()}
		}
		out, _ = json.Marshal(v)
	default:
		out, _ = json.Marshal(n.Value)
	}
	w.buf.Write(out)
	return nil
}

// fieldType is the type of t's field whose JSON name is key (nil when t is
// not a struct or has no such field: the loader then names the field).
func fieldType(t reflect.Type, key string) reflect.Type {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == key {
			return f.Type
		}
	}
	return nil
}

// yamlError turns a YAML syntax error ("yaml: line 3: ...") into an Error
// with its line.
func yamlError(err error) error {
	if errors.Is(err, io.EOF) { // only comments
		return &Error{Line: 1, Message: "the file is empty: a scenario file is a mapping with a \"scenarios\" list"}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
		_, rest, _ := strings.Cut(msg, ":")
		return &Error{Line: line, Message: "invalid YAML:" + rest}
	}
	return &Error{Message: "invalid YAML: " + msg}
}
