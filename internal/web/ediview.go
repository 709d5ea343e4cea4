package web

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// ediText is a stored file as the console shows it: X12 one segment per
// line, the segments a failure names marked with what is wrong there.
type ediText struct {
	Segments  []segmentLine
	Raw       string // content that is not X12 (or could not be split)
	Truncated bool   // only the first part is shown
	Size      int64
	// Unplaced are problems that name no segment shown (the file as a
	// whole, or past what is shown).
	Unplaced []problem
}

type segmentLine struct {
	N        int // 1-based segment number in the file
	Text     string
	Problems []problem
}

// problem is one reason a file failed, in words an office can act on.
type problem struct {
	Heading string // what kind of problem
	Where   string // "Segment 12 (NM1)", filled in once placed
	Seg     int    // the segment's number, once placed
	Message string // what the validator found
	Fix     string // what to do about it
	// Where the failure points: a line and column, or a byte offset.
	line, column int
	offset       int64
	placed       bool
}

// findingLine reads one line of a fault message as core writes it:
// "Line 3, column 1, segment NM1 (position 5 …), element NM109: message"
// or "Byte 120, segment …: message".
var findingLine = regexp.MustCompile(`^(?:Line (\d+)(?:, column (\d+))?|Byte (\d+))(?:, segment [A-Z0-9]+(?: \([^)]*\))?(?:, element [A-Z0-9]+)?)?: (.*)$`)

// problemsOf lists why a failed file failed.
func problemsOf(e store.Execution) []problem {
	heading, fix := faultAdvice(e.FaultCode)
	var out []problem
	for _, line := range strings.Split(e.FaultMessage, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		p := problem{Heading: heading, Message: line, Fix: fix, offset: -1}
		if m := findingLine.FindStringSubmatch(line); m != nil {
			p.line, _ = strconv.Atoi(m[1])
			p.column, _ = strconv.Atoi(m[2])
			if m[3] != "" {
				p.offset, _ = strconv.ParseInt(m[3], 10, 64)
			}
			p.Message = m[4]
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		out = append(out, problem{Heading: heading, Message: "The file could not be processed.", Fix: fix, offset: -1})
	}
	return out
}

// faultAdvice says what a fault code means and what to do about it.
func faultAdvice(code string) (heading, fix string) {
	switch code {
	case core.FaultParse:
		return "The file is not valid X12", "Ask whoever produced the file to correct the marked segment and send it again, then upload the corrected file."
	case core.FaultTranslate:
		return "A transaction breaks its implementation guide", "Correct the marked segment in the system that produced the file (a required value missing or a code not allowed there), then send it again."
	case core.FaultFindPartnership:
		return "No trading partner matches this file", "The sender and receiver ids in the file's header match no partnership of this account. Add the partnership, or ask the sender to use the ids you agreed on."
	case core.FaultFindGuide:
		return "This kind of transaction is not set up", "Add the transaction type to the partnership's settings, or ask the sender which transaction they meant to send."
	case core.FaultUnsupportedTransaction:
		return "Clearhouse has no guide for this kind of transaction", "It can be neither checked nor translated (a 4010 set, or a transaction type Clearhouse does not know). Ask the sender for the 5010 version, or turn on pass-through on the partnership's inbound setting for it to store such transactions untranslated."
	case core.FaultNoTransactionSets:
		return "The file holds no transactions", "The file has envelopes but nothing inside them. Ask the sender for the complete file."
	case core.FaultInvalidConfig:
		return "The partnership's settings are incomplete", "Review the partnership's settings (profiles and transaction settings), then upload the file again."
	case core.FaultNotSupported:
		return "This kind of file is not supported", "Upload X12 files (.edi, .x12, .txt)."
	case core.FaultMissingSenderID, core.FaultMissingReceiverID:
		return "The file does not say who sent it or who it is for", "Ask the sender to fill in the sender and receiver ids of the file's header (ISA) and send it again."
	}
	return "The file could not be processed", "Check the message below; if it does not say what to change, contact your Clearhouse administrator with the file's id."
}

// readEDI reads a stored file for display: X12 split into segments with
// the problems placed on theirs; anything else as text. At most
// maxShownBytes and maxShownSegments are shown.
func (c *Console) readEDI(ctx context.Context, a store.Artifact, problems []problem) (*ediText, error) {
	b, truncated, err := c.readBounded(ctx, a.Key)
	if err != nil {
		return nil, err
	}
	t := &ediText{Truncated: truncated, Size: a.Size}
	if !bytes.HasPrefix(bytes.TrimLeft(b, " \t\r\n\ufeff"), []byte("ISA")) {
		t.Raw = string(b)
		t.Unplaced = problems
		return t, nil
	}
	rd := x12.NewReader(bytes.NewReader(b))
	problems = append([]problem(nil), problems...)
	for n := 1; ; n++ {
		seg, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// X12 that cannot be split (a broken envelope): show it as text.
			if len(t.Segments) == 0 {
				t.Raw = string(b)
			} else {
				t.Truncated = true
			}
			break
		}
		if n > maxShownSegments {
			t.Truncated = true
			break
		}
		line := segmentLine{N: n, Text: strings.TrimRight(string(seg.Raw()), "\r\n")}
		l, col := rd.LineCol(seg.Offset())
		for i := range problems {
			p := &problems[i]
			if p.placed {
				continue
			}
			if p.offset == seg.Offset() || p.offset < 0 && p.line == l && (p.column == 0 || p.column == col) {
				p.placed, p.Seg = true, n
				p.Where = "Segment " + strconv.Itoa(n) + " (" + seg.ID() + ")"
				line.Problems = append(line.Problems, *p)
			}
		}
		t.Segments = append(t.Segments, line)
	}
	for _, p := range problems {
		if !p.placed {
			t.Unplaced = append(t.Unplaced, p)
		}
	}
	return t, nil
}

// Problems are all the problems, placed first, in file order.
func (t *ediText) Problems() []problem {
	var out []problem
	for _, s := range t.Segments {
		out = append(out, s.Problems...)
	}
	return append(out, t.Unplaced...)
}
