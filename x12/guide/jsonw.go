package guide

import (
	"io"
	"unicode/utf8"
)

// jsonWriter writes JSON tokens into a byte buffer that it hands to the
// underlying writer every 256 KiB, tracking only what commas and indentation
// need: Guide JSON is streamed, never built as a tree in memory.
type jsonWriter struct {
	out    io.Writer
	buf    []byte
	err    error
	first  []bool // indented output: per open container, no member written yet
	indent bool
	last   byte // last byte written before the buffer was flushed
}

// flushAt is the size of the writes to the underlying writer: Guide JSON
// is about nine times the size of its X12, so small writes would mean a
// system call every few segments.
const flushAt = 256 << 10

func newJSONWriter(w io.Writer) *jsonWriter {
	return &jsonWriter{out: w, buf: make([]byte, 0, flushAt+4096)}
}

// reset makes the writer write to w from scratch, keeping its buffer.
func (j *jsonWriter) reset(w io.Writer) {
	j.out, j.buf, j.err, j.first, j.last = w, j.buf[:0], nil, j.first[:0], 0
}

// maybeFlush writes the buffer out once it is large enough.
func (j *jsonWriter) maybeFlush() {
	if len(j.buf) >= flushAt {
		j.flush()
	}
}

func (j *jsonWriter) flush() error {
	if len(j.buf) > 0 {
		j.last = j.buf[len(j.buf)-1]
		if j.err == nil {
			_, j.err = j.out.Write(j.buf)
		}
	}
	j.buf = j.buf[:0]
	return j.err
}

func (j *jsonWriter) newline() {
	if !j.indent {
		return
	}
	j.buf = append(j.buf, '\n')
	for range len(j.first) {
		j.buf = append(j.buf, ' ', ' ')
	}
}

// sep writes the comma (and line break) due before a member or item.
// Compact output needs no bookkeeping: a comma is due unless the container
// was just opened.
func (j *jsonWriter) sep() {
	if !j.indent {
		last := j.last
		if n := len(j.buf); n > 0 {
			last = j.buf[n-1]
		}
		if last != '{' && last != '[' {
			j.buf = append(j.buf, ',')
		}
		return
	}
	n := len(j.first)
	if n == 0 {
		return
	}
	if !j.first[n-1] {
		j.buf = append(j.buf, ',')
	}
	j.first[n-1] = false
	if j.indent {
		j.newline()
	}
}

func (j *jsonWriter) open(c byte) {
	j.buf = append(j.buf, c)
	if j.indent {
		j.first = append(j.first, true)
	}
}

// close ends a container. It does not flush: callers flush between
// segments (maybeFlush), so a segment's JSON stays whole in the buffer.
func (j *jsonWriter) close(c byte) {
	if !j.indent {
		j.buf = append(j.buf, c)
		return
	}
	empty := j.first[len(j.first)-1]
	j.first = j.first[:len(j.first)-1]
	if !empty && j.indent {
		j.newline()
	}
	j.buf = append(j.buf, c)
}

// beginObject starts an object as the next item (or after a key).
func (j *jsonWriter) beginObject() { j.open('{') }
func (j *jsonWriter) endObject()   { j.close('}') }
func (j *jsonWriter) beginArray()  { j.open('[') }
func (j *jsonWriter) endArray()    { j.close(']') }

// item prepares the next array item.
func (j *jsonWriter) item() { j.sep() }

// keyRaw writes a member name given as `"name":`.
func (j *jsonWriter) keyRaw(k string) {
	j.sep()
	j.buf = append(j.buf, k...)
	if j.indent {
		j.buf = append(j.buf, ' ')
	}
}

// paddedName holds a member name as written (`,"name":`) in a fixed-size
// array: copying it is a few vector moves where a string append calls
// memmove. Names that do not fit have n = 0.
type paddedName struct {
	b [64]byte
	n uint8
}

func padName(s string) (p paddedName) {
	if len(s) <= len(p.b) {
		p.n = uint8(copy(p.b[:], s))
	}
	return p
}

// appendName appends p's name, or s (the same name as a string) when p has
// none or buf lacks room for the whole array.
func appendName(buf []byte, p *paddedName, s string) []byte {
	n := len(buf)
	if p.n == 0 || cap(buf)-n < len(p.b) {
		return append(buf, s...)
	}
	*(*[len(p.b)]byte)(buf[n : n+len(p.b)]) = p.b
	return buf[:n+int(p.n)]
}

// key writes a member name and the colon.
func (j *jsonWriter) key(k string) {
	j.sep()
	j.buf = append(j.buf, '"')
	j.buf = append(j.buf, k...) // keys are generated: letters, digits, underscores
	j.buf = append(j.buf, '"', ':')
	if j.indent {
		j.buf = append(j.buf, ' ')
	}
}

// plain marks the bytes a JSON string holds as they are: printable ASCII
// other than the quote and the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str writes a JSON string, escaping what JSON requires. Bytes that are not
// UTF-8 become U+FFFD, as encoding/json does.
func (j *jsonWriter) str(b []byte) {
	buf := append(j.buf, '"')
	i := 0
	for i < len(b) && plain[b[i]] {
		i++
	}
	if i == len(b) { // the common case: nothing to escape
		buf = append(buf, b...)
		j.buf = append(buf, '"')
		return
	}
	start := 0
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			buf = append(buf, b[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			default:
				const hex = "0123456789abcdef"
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, b[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, b[start:]...)
	j.buf = append(buf, '"')
}

// plainStr writes b quoted, known to need no escaping.
func (j *jsonWriter) plainStr(b []byte) {
	buf := j.buf
	n := len(buf)
	// Most values are short views into the reader's buffer with bytes
	// after them: one 16-byte move copies the quote's content without a
	// memmove call.
	if len(b) <= 16 && cap(b) >= 16 && cap(buf)-n >= 18 {
		buf = buf[:n+18]
		buf[n] = '"'
		*(*[16]byte)(buf[n+1:]) = [16]byte(b[:16])
		buf[n+1+len(b)] = '"'
		j.buf = buf[:n+2+len(b)]
		return
	}
	buf = append(buf, '"')
	buf = append(buf, b...)
	j.buf = append(buf, '"')
}

// raw writes b unquoted (a number already checked to be valid JSON).
func (j *jsonWriter) raw(b []byte) { j.buf = append(j.buf, b...) }

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
