package core

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// TestSetMetadataStreamsAsMarshal: a set's metadata, written from the
// identifier spill element by element, is byte for byte what json.Marshal
// gives for the whole map (sorted keys, values in order, HTML and non-ASCII
// escaping), and the identifiers come back in batches in their order.
func TestSetMetadataStreamsAsMarshal(t *testing.T) {
	t.Parallel()
	values := map[string][]string{}
	var order []store.BusinessIdentifier
	tests := []struct {
		name string
		segs []string // segments of set 1; set 0 and set 2 have one TRN each
	}{
		{"interleaved", []string{"TRN*1*T1", "CLP*A<1>*1", "CLP*B&2*1", "TRN*1*T\"2", "CLP*C\\3*1", "CLP*X\xff*1", "BHT*0019*00*Bé"}},
		{"many", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clear(values)
			order = order[:0]
			segs := tc.segs
			if segs == nil {
				for i := range 3*identifierBatch + 7 {
					segs = append(segs, fmt.Sprintf("CLP*PCN%06d*1", i))
				}
			}
			spill, err := newIdentifierSpill()
			if err != nil {
				t.Fatal(err)
			}
			defer spill.close()
			add := func(set int, raw string) {
				r := x12.NewReader(bytes.NewReader([]byte(raw+"~")), x12.WithDelimiters(x12.DefaultDelimiters))
				seg, err := r.Next()
				if err != nil {
					t.Fatal(err)
				}
				if _, _, err := spill.add(set, seg, nil); err != nil {
					t.Fatal(err)
				}
				if set != 1 {
					return
				}
				el := trackedElements[seg.ID()]
				values[el.name] = append(values[el.name], seg.Element(el.pos))
				order = append(order, store.BusinessIdentifier{Element: el.name, Value: seg.Element(el.pos)})
			}
			add(0, "TRN*1*SET0")
			for _, raw := range segs {
				add(1, raw)
			}
			add(2, "TRN*1*SET2")
			set := &setResult{index: 1, id: "835", control: "0001", seCount: "9", seControl: "0001"}
			want := set.metadata()
			want.TrackedIdentifiers = values
			wantJSON, _ := json.Marshal(want)
			var got bytes.Buffer
			bw := bufio.NewWriter(&got)
			p := &pass{ids: spill}
			if err := p.writeSetMetadata(bw, set); err != nil {
				t.Fatal(err)
			}
			bw.Flush()
			if !bytes.Equal(got.Bytes(), wantJSON) {
				t.Errorf("streamed:\n%.300s\nmarshal:\n%.300s", got.Bytes(), wantJSON)
			}
			var back []store.BusinessIdentifier
			err = spill.batches(1, func(b []store.BusinessIdentifier) error {
				if len(b) > identifierBatch {
					t.Errorf("batch of %d", len(b))
				}
				for _, id := range b {
					back = append(back, store.BusinessIdentifier{Element: id.Element, Value: id.Value})
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(back) != fmt.Sprint(order) {
				t.Errorf("batches gave %d identifiers, want %d in order", len(back), len(order))
			}
		})
	}
}
