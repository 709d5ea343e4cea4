package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The contract publishes one worked 835 report; the X12 it was made from is
// rebuilt in testdata segment by segment, and the conversion must give the
// published JSON exactly (every field, no extra one).
func TestConvert835ContractExample(t *testing.T) {
	src, err := os.ReadFile("testdata/contract-example.835.x12")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	meta := Meta{ApplicationMode: "production", SenderID: "BSW", TransactionID: "7647d644-9348-4596-a3b4-6830b8b48cc8"}
	if err := Convert835(bytes.NewReader(src), &out, meta); err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	golden, _ := os.ReadFile("testdata/contract-example.835.json")
	if err := json.Unmarshal(golden, &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("report differs from the contract's example (-want +got):\n%s", d)
	}
}
