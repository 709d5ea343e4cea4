package eligibility

import (
	"reflect"
	"strings"

	"github.com/clearhouse/clearhouse/internal/x12text"
)

// Delimiters of the 270s we write. Request text containing one of them (or a
// control character) cannot be carried in X12, so validation refuses it with
// the field's path instead of letting the writer fail later.
const (
	elementSeparator    = '*'
	componentSeparator  = ':'
	repetitionSeparator = '^'
	segmentTerminator   = '~'
)

// checkX12Safe brings every string of the request into the X12 character
// set (x12text: "José" becomes "JOSE" in the 270) and reports, with the
// field's path, those that cannot be: delimiters, control characters,
// no-break or zero-width spaces, emoji. It walks by reflection: it runs once
// per request, and a walker cannot forget a field added later.
func checkX12Safe(c *checker, r *Request) {
	x12text.EachString(reflect.ValueOf(r).Elem(), func(path []string, v reflect.Value) {
		out, err := x12text.Clean(v.String(), delimiters270)
		if err != nil {
			c.add("/"+strings.Join(path, "/"), "%s", err.Error())
			return
		}
		if out != v.String() && v.CanSet() {
			v.SetString(out)
		}
	})
}

// delimiters270 are the separators of the 270s we write.
var delimiters270 = string([]byte{elementSeparator, componentSeparator, repetitionSeparator, segmentTerminator})
