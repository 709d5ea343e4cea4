package core_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// metadataDoc is the part of the execution metadata document the hosted
// service's extractor was compared on.
type metadataDoc struct {
	Interchanges []struct {
		Envelope struct {
			SenderID, ReceiverID string
		}
		Span       struct{ Start, End int64 }
		Delimiters struct{ Repetition string }
		Groups     []struct {
			Envelope struct{ Time string }
			Span     struct{ Start, End int64 }
			Sets     []struct {
				ControlNumber string
				Span          struct{ Start, End int64 }
			} `json:"transactionSets"`
		} `json:"functionalGroups"`
	}
}

// The metadata document as the hosted service writes it: every span ends
// at the offset of its closing segment's terminator (IEA, GE, SE), counted
// in the bytes of the file; ISA06/ISA08 as sent, padding included; GS05
// with the precision sent. The BOM, ISA12 00401 (no repetition separator)
// and control numbers with their leading zeros stay as they were.
func TestMetadataDocumentAsTheHostedServiceWritesIt(t *testing.T) {
	t.Parallel()
	base := coretest.Gen835([]int{1}, 1, 0) // LF after every "~"
	tests := []struct {
		name      string
		body      string
		time      string
		ieaEnd    int64 // -1: the offset of the last "~"
		noRepeats bool
	}{
		{name: "HHMM, a line break after each segment", body: base, time: "03:04", ieaEnd: -1},
		{name: "HHMMSS", body: strings.Replace(base, "*20240102*0304*1*X*", "*20240102*030405*1*X*", 1), time: "03:04:05", ieaEnd: -1},
		{name: "HHMMSSDD", body: strings.Replace(base, "*20240102*0304*1*X*", "*20240102*03040512*1*X*", 1), time: "03:04:05.12", ieaEnd: -1},
		// The last IEA has no terminator: its span ends where the
		// terminator would be, the file's end, not past it.
		{name: "IEA without terminator", body: strings.TrimSuffix(base, "~\n"), time: "03:04", ieaEnd: int64(len(strings.TrimSuffix(base, "~\n")))},
		// Hard-wrapped: a line break inside the SE, GE and IEA segments
		// is part of the file's bytes.
		{name: "hard-wrapped", body: strings.NewReplacer("SE*19", "SE*1\n9", "GE*1*1", "GE*1\n*1", "IEA*1*", "IEA*1\r\n*").Replace(base), time: "03:04", ieaEnd: -1},
		{name: "BOM", body: "\uFEFF" + base, time: "03:04", ieaEnd: -1},
		{name: "ISA12 00401", body: strings.Replace(base, "*^*00501*", "*U*00401*", 1), time: "03:04", ieaEnd: -1, noRepeats: true},
	}
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				ex := e.receive("era.x12", tc.body)
				if ex.Status != store.ExecutionCompleted {
					t.Fatalf("execution %s %s: %s", ex.Status, ex.FaultCode, ex.FaultMessage)
				}
				raw := e.blob(ex.Metadata.Key)
				var md metadataDoc
				must(t, json.Unmarshal([]byte(raw), &md))
				if len(md.Interchanges) != 1 || len(md.Interchanges[0].Groups) != 1 || len(md.Interchanges[0].Groups[0].Sets) != 1 {
					t.Fatalf("metadata %s", raw)
				}
				ic := md.Interchanges[0]
				g := ic.Groups[0]
				set := g.Sets[0]
				terminatorAfter := func(id string) int64 {
					return int64(strings.Index(tc.body[strings.LastIndex(tc.body, id):], "~") + strings.LastIndex(tc.body, id))
				}
				wantIEA := tc.ieaEnd
				if wantIEA < 0 {
					wantIEA = terminatorAfter("\nIEA")
				}
				for _, c := range []struct {
					what      string
					got, want int64
				}{
					{"interchange span.start", ic.Span.Start, int64(strings.Index(tc.body, "ISA*"))},
					{"interchange span.end", ic.Span.End, wantIEA},
					{"group span.end", g.Span.End, terminatorAfter("\nGE")},
					{"set span.end", set.Span.End, terminatorAfter("\nSE")},
				} {
					if c.got != c.want {
						t.Errorf("%s = %d, want %d (file of %d bytes)", c.what, c.got, c.want, len(tc.body))
					}
				}
				if ic.Envelope.SenderID != "PAYERSENDER    " || ic.Envelope.ReceiverID != "CLINICRECV     " {
					t.Errorf("sender %q receiver %q, want ISA06/ISA08 as sent", ic.Envelope.SenderID, ic.Envelope.ReceiverID)
				}
				if g.Envelope.Time != tc.time {
					t.Errorf("group time %q, want %q", g.Envelope.Time, tc.time)
				}
				if set.ControlNumber != "0001" {
					t.Errorf("set control number %q", set.ControlNumber)
				}
				if (ic.Delimiters.Repetition == "") != tc.noRepeats {
					t.Errorf("repetition separator %q", ic.Delimiters.Repetition)
				}
			})
		}
	})
}
