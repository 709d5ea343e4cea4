package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The contract's first worked 277 report, from the 277CA it describes
// (rebuilt in testdata; the payer's NM1 carries no identifier because the
// published report shows none).
func TestConvert277ContractExample(t *testing.T) {
	src, err := os.ReadFile("testdata/contract-example1.277.x12")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Convert277(bytes.NewReader(src), &out, Meta{TransactionID: "71716ec5-0e96-462f-bb77-869941bb27ab"}); err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	golden, _ := os.ReadFile("testdata/contract-example1.277.json")
	if err := json.Unmarshal(golden, &want); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("report differs from the contract's example (-want +got):\n%s", d)
	}
}
