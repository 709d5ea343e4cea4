package core_test

import (
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestLongElementsAreQuotedBriefly: a parse finding quotes the element it
// is about. Before, a 3 MB GS01 was quoted whole, three times over, in the
// execution's faultMessage (so in its file.failed.v2 event, each webhook
// delivery of it and every page of GET /executions); now each finding is
// at most findings.MaxMessageBytes.
func TestLongElementsAreQuotedBriefly(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		file := strings.Replace(coretest.Gen835([]int{1}, 2, 0), "GS*HP*", "GS*"+strings.Repeat("A", 3<<20)+"*", 1)
		ex := e.receive("long-gs01.x12", file)
		if ex.Status != store.ExecutionFailed || ex.FaultCode != core.FaultParse {
			t.Fatalf("%s %s, want FAILED %s", ex.Status, ex.FaultCode, core.FaultParse)
		}
		if max := core.MaxFindingsInMessage * (findings.MaxMessageBytes + 1); len(ex.FaultMessage) > max {
			t.Errorf("faultMessage of %d bytes, want at most %d", len(ex.FaultMessage), max)
		}
		if !strings.Contains(ex.FaultMessage, "GS01") || !strings.Contains(ex.FaultMessage, "…") {
			t.Errorf("faultMessage does not name GS01 and the cut: %.300s", ex.FaultMessage)
		}
	})
}
