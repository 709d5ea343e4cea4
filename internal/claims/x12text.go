package claims

import (
	"reflect"
	"strings"

	"github.com/clearhouse/clearhouse/internal/x12text"
)

// delimiters are the 837D's separators: text that holds one is refused.
const delimiters = string(elementSeparator) + string(componentSeparator) + string(repetitionSeparator) + string(segmentTerminator)

// normalizeText brings every string of the request into the X12 character
// set, the rule every JSON → X12 path shares (internal/x12text): letters
// with diacritics become their base letters ("José" → "Jose"); anything
// else outside the set (typographic quotes, no-break spaces, emoji,
// control characters, the delimiters) is a problem on the field's path.
func normalizeText(c *checker, r *Request) { normalizeRequestText(c, r) }

// normalizeRequestText is normalizeText for any claim type's request (a
// pointer to its struct).
func normalizeRequestText(c *checker, r any) {
	x12text.EachString(reflect.ValueOf(r).Elem(), func(path []string, v reflect.Value) {
		out, err := x12text.Clean(v.String(), delimiters)
		if err != nil {
			c.add("/"+strings.Join(path, "/"), "%s", err.Error())
			return
		}
		if out != v.String() {
			v.SetString(out)
		}
	})
}
