package api

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds on the shape of a JSON request body. A body's size is limited,
// but decoding multiplies it: 200,000 tiny dependents in a 7 MB eligibility
// body became 280 MB of structs before a rule could say "at most one".
// No request of the contract comes near these.
const (
	MaxJSONArrayItems = 10_000
	MaxJSONDepth      = 64
)

// checkJSONBody scans body once, without decoding it, for what decoding
// would hide or multiply, and answers the 400 naming where: text that is
// not UTF-8 (encoding/json would quietly turn it into U+FFFD), a NUL
// character (\u0000, which PostgreSQL refuses to store: a 500 there), an
// array of more than MaxJSONArrayItems items or nesting deeper than
// MaxJSONDepth. It costs about a nanosecond a byte.
func checkJSONBody(body []byte) *Error {
	if !utf8.Valid(body) {
		return Errorf(http.StatusBadRequest, CodeBadRequest,
			"The request body is not UTF-8 text (JSON must be); send it encoded as UTF-8.")
	}
	type frame struct {
		array     bool
		commas    int    // items so far, less one (arrays); entries (objects)
		key       []byte // the member being read (objects)
		expectKey bool
	}
	// Requests nest a few levels: the stack stays in the frame's array.
	var frames [16]frame
	stack := frames[:0]
	// pathOf names the value frames lead to by JSON Pointer.
	pathOf := func(frames []frame) string {
		var b strings.Builder
		for _, f := range frames {
			b.WriteByte('/')
			if f.array {
				b.WriteString(strconv.Itoa(f.commas))
			} else {
				b.WriteString(strings.ReplaceAll(strings.ReplaceAll(string(f.key), "~", "~0"), "/", "~1"))
			}
		}
		if b.Len() == 0 {
			return "/"
		}
		return b.String()
	}
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '"':
			j := i + 1
			for j < len(body) && body[j] != '"' {
				if body[j] == '\\' {
					if bytes.HasPrefix(body[j:], []byte(`\u0000`)) {
						return Validation(FieldError{Path: pathOf(stack),
							Message: `holds a NUL character (\u0000), which no text field can; remove it`})
					}
					j++
				}
				j++
			}
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].expectKey {
				stack[n-1].key, stack[n-1].expectKey = body[i+1:min(j, len(body))], false
			}
			i = j
		case '{', '[':
			if len(stack) >= MaxJSONDepth {
				return Errorf(http.StatusBadRequest, CodeBadRequest,
					"The request body nests arrays and objects more than %d deep (at byte %d); no request needs that.", MaxJSONDepth, i)
			}
			stack = append(stack, frame{array: body[i] == '[', expectKey: body[i] == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				top := &stack[n-1]
				top.commas++
				top.expectKey = !top.array
				if top.array && top.commas >= MaxJSONArrayItems {
					return Validation(FieldError{Path: pathOf(stack[:len(stack)-1]),
						Message: "holds more than " + strconv.Itoa(MaxJSONArrayItems) + " items; no request needs that many: send fewer"})
				}
			}
		}
	}
	return nil
}
