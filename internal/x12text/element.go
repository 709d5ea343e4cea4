package x12text

import "github.com/clearhouse/clearhouse/x12"

// ElementString is b, an element or component of seg as a reader of the
// message text in memory returned it (x12.NewBytesReader), as a string: the
// bytes of text at b's place in the message when they are b's, else a copy.
// A reader that keeps many elements of a real-time 270 or 271 makes one
// string of the message and slices of it, rather than a string each.
//
// An element is a view of the segment's bytes that keeps the reader
// buffer's capacity, so cap(seg.Unsplit()) - cap(b) is its place in the
// segment and the segment's Offset the segment's place in the message.
// Whatever the reader did to the bytes (a BOM, line breaks removed from a
// hard-wrapped segment, UTF-16 input), the comparison catches a place that
// does not hold them, and b is copied.
func ElementString(text string, seg *x12.Segment, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	at := seg.Offset() + int64(cap(seg.Unsplit())-cap(b))
	if at >= 0 && at+int64(len(b)) <= int64(len(text)) {
		if v := text[at : at+int64(len(b))]; v == string(b) {
			return v
		}
	}
	return string(b)
}
