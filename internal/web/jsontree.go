package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// maxTreeNodes bounds the nodes of one tree on a page.
const maxTreeNodes = 20000

// jsonNode is one member of a JSON document, in document order, for the
// collapsible tree (<details> per object and array).
type jsonNode struct {
	Key      string // member name or "" for an array item
	Label    string // the key in words
	Code     string // the segment or loop code the key ends with ("CLP", "2100")
	Value    string // a scalar's text
	Kind     string // "object", "array", "string", "number", "bool", "null"
	Children []*jsonNode
	Depth    int
}

// Branch reports whether the node opens (an object or array).
func (n *jsonNode) Branch() bool { return n.Kind == "object" || n.Kind == "array" }

// Open: the first two levels show at once.
func (n *jsonNode) Open() bool { return n.Depth < 2 }

var errTooLarge = errors.New("too many nodes")

// parseTree reads a JSON document keeping the members' order.
func parseTree(b []byte) (*jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	count := 0
	root, err := readNode(dec, "", 0, &count)
	if err != nil {
		return nil, err
	}
	return root, nil
}

func readNode(dec *json.Decoder, key string, depth int, count *int) (*jsonNode, error) {
	if *count++; *count > maxTreeNodes {
		return nil, errTooLarge
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &jsonNode{Key: key, Depth: depth}
	n.Label, n.Code = keyWords(key)
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n.Kind = "object"
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, _ := kt.(string)
				child, err := readNode(dec, name, depth+1, count)
				if err != nil {
					return nil, err
				}
				n.Children = append(n.Children, child)
			}
		} else {
			n.Kind = "array"
			for i := 0; dec.More(); i++ {
				child, err := readNode(dec, "", depth+1, count)
				if err != nil {
					return nil, err
				}
				child.Label = "Item " + strconv.Itoa(i+1)
				n.Children = append(n.Children, child)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.Kind, n.Value = "string", t
	case json.Number:
		n.Kind, n.Value = "number", t.String()
	case bool:
		n.Kind, n.Value = "bool", strconv.FormatBool(t)
	case nil:
		n.Kind, n.Value = "null", "—"
	default:
		return nil, fmt.Errorf("unexpected token %v", tok)
	}
	return n, nil
}

// keyWords turns a Guide JSON key into words and the code it ends with:
// "claim_payment_information_CLP_loop" → "Claim payment information", "CLP";
// "payer_identifier_01" → "Payer identifier", "01".
func keyWords(key string) (label, code string) {
	if key == "" {
		return "", ""
	}
	parts := strings.Split(key, "_")
	if len(parts) > 1 && parts[len(parts)-1] == "loop" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 1 && isCode(parts[len(parts)-1]) {
		code = parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	label = strings.Join(parts, " ")
	if label == "" {
		return key, ""
	}
	r := []rune(label)
	r[0] = unicode.ToUpper(r[0])
	return string(r), code
}

// isCode: a segment id, loop number or element position.
func isCode(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
