package reports

import (
	"bufio"
	"encoding/json"
)

// jsonStream writes a report's JSON piece by piece, keeping the first error:
// a converter writes each object as soon as it is complete, so memory holds
// one claim, not the report.
type jsonStream struct {
	out *bufio.Writer
	err error
}

func (j *jsonStream) raw(s string) {
	if j.err == nil {
		_, j.err = j.out.WriteString(s)
	}
}

func (j *jsonStream) value(v any) {
	if j.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		j.err = err
		return
	}
	_, j.err = j.out.Write(b)
}

// open writes v's fields and opens the array key after them, `{…,"key":[`:
// its items follow one by one, and "]}" closes it.
func (j *jsonStream) open(v any, key string) {
	if j.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		j.err = err
		return
	}
	j.raw(string(b[:len(b)-1])) // the object without its closing brace
	if len(b) > 2 {
		j.raw(",")
	}
	j.raw(`"` + key + `":[`)
}
