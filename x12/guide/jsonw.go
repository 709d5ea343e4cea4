package guide

import (
	"bufio"
	"unicode/utf8"
)

// jsonWriter writes JSON tokens straight to a buffered writer, tracking only
// what commas and indentation need: Guide JSON is streamed, never built as a
// tree in memory.
type jsonWriter struct {
	w      *bufio.Writer
	first  []bool // per open container: no member written yet
	indent bool
}

func (j *jsonWriter) newline() {
	if !j.indent {
		return
	}
	j.w.WriteByte('\n')
	for range len(j.first) {
		j.w.WriteString("  ")
	}
}

// sep writes the comma (and line break) due before a member or item.
func (j *jsonWriter) sep() {
	n := len(j.first)
	if n == 0 {
		return
	}
	if !j.first[n-1] {
		j.w.WriteByte(',')
	}
	j.first[n-1] = false
	j.newline()
}

func (j *jsonWriter) open(c byte) {
	j.w.WriteByte(c)
	j.first = append(j.first, true)
}

func (j *jsonWriter) close(c byte) {
	empty := j.first[len(j.first)-1]
	j.first = j.first[:len(j.first)-1]
	if !empty {
		j.newline()
	}
	j.w.WriteByte(c)
}

// beginObject starts an object as the next item (or after a key).
func (j *jsonWriter) beginObject() { j.open('{') }
func (j *jsonWriter) endObject()   { j.close('}') }
func (j *jsonWriter) beginArray()  { j.open('[') }
func (j *jsonWriter) endArray()    { j.close(']') }

// item prepares the next array item.
func (j *jsonWriter) item() { j.sep() }

// key writes a member name and the colon.
func (j *jsonWriter) key(k string) {
	j.sep()
	j.w.WriteByte('"')
	j.w.WriteString(k) // keys are generated: letters, digits, underscores
	j.w.WriteByte('"')
	j.w.WriteByte(':')
	if j.indent {
		j.w.WriteByte(' ')
	}
}

// str writes a JSON string, escaping what JSON requires. Bytes that are not
// UTF-8 become U+FFFD, as encoding/json does.
func (j *jsonWriter) str(b []byte) {
	w := j.w
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			w.Write(b[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				const hex = "0123456789abcdef"
				w.WriteString(`\u00`)
				w.WriteByte(hex[c>>4])
				w.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			w.Write(b[start:i])
			w.WriteString(`\ufffd`)
			i++
			start = i
			continue
		}
		i += size
	}
	w.Write(b[start:])
	w.WriteByte('"')
}

// raw writes b unquoted (a number already checked to be valid JSON).
func (j *jsonWriter) raw(b []byte) { j.w.Write(b) }

// jsonNumber reports whether b is a number whose JSON text is exactly b
// (no leading "+", no leading zeros, no bare "."), so it can be written
// unquoted and read back byte for byte.
func jsonNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i == len(b) {
		return false
	}
	if b[i] == '0' {
		i++
	} else if b[i] >= '1' && b[i] <= '9' {
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return false
		}
	}
	return i == len(b)
}
