package x12

import (
	"encoding/binary"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Order recognises UTF-16 input from its first bytes: a byte order mark,
// or an ASCII letter with a NUL beside it (X12 always starts with "ISA" or
// "ST", so a NUL in the first two bytes is never plain X12).
func utf16Order(b []byte) binary.ByteOrder {
	if len(b) < 2 {
		return nil
	}
	switch {
	case b[0] == 0xFF && b[1] == 0xFE:
		return binary.LittleEndian
	case b[0] == 0xFE && b[1] == 0xFF:
		return binary.BigEndian
	case b[0] != 0 && b[1] == 0:
		return binary.LittleEndian
	case b[0] == 0 && b[1] != 0:
		return binary.BigEndian
	}
	return nil
}

// utf16Decoder converts a UTF-16 stream to UTF-8, dropping a leading BOM.
// Invalid surrogates become U+FFFD.
type utf16Decoder struct {
	src   io.Reader
	order binary.ByteOrder
	in    [4096]byte
	nin   int
	out   []byte
	first bool
	err   error
}

func newUTF16Decoder(src io.Reader, order binary.ByteOrder) *utf16Decoder {
	return &utf16Decoder{src: src, order: order, first: true}
}

func (d *utf16Decoder) Read(p []byte) (int, error) {
	for len(d.out) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		n, err := d.src.Read(d.in[d.nin:])
		d.nin += n
		if err != nil {
			d.err = err
		}
		d.decode(d.err != nil)
	}
	n := copy(p, d.out)
	d.out = d.out[n:]
	return n, nil
}

// decode converts the complete code units in d.in; at EOF a dangling odd
// byte or lone high surrogate becomes U+FFFD.
func (d *utf16Decoder) decode(final bool) {
	d.out = d.out[:0]
	i := 0
	for i+2 <= d.nin {
		u := d.order.Uint16(d.in[i:])
		if d.first {
			d.first = false
			if u == 0xFEFF {
				i += 2
				continue
			}
		}
		r := rune(u)
		if utf16.IsSurrogate(r) {
			if i+4 > d.nin {
				if !final {
					break
				}
				r = utf8.RuneError
				i += 2
			} else {
				r = utf16.DecodeRune(r, rune(d.order.Uint16(d.in[i+2:])))
				i += 4
			}
		} else {
			i += 2
		}
		d.out = utf8.AppendRune(d.out, r)
	}
	if final && i < d.nin {
		d.out = utf8.AppendRune(d.out, utf8.RuneError)
		i = d.nin
	}
	copy(d.in[:], d.in[i:d.nin])
	d.nin -= i
}
