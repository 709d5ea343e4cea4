package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// unguided835 is an 835 in 4010 (004010X091A1): Clearhouse has no guide for
// it, so it can be neither checked nor translated.
const unguided835 = "ISA*00*          *00*          *ZZ*PAYERSENDER    *ZZ*CLINICRECV     *240101*1200*U*00401*000000001*0*T*:~" +
	"GS*HP*PAYERSENDER*CLINICRECV*20240101*1200*1*X*004010X091A1~" +
	"ST*835*0001~BPR*I*100*C*ACH*CCP*01*999999999*DA*123456*1512345678**01*999988880*DA*98765*20240101~" +
	"TRN*1*12345*1512345678~N1*PR*PAYER~N1*PE*CLINIC*XX*1999999984~LX*1~CLP*PCN1*1*100*100**12*ICN1~SE*8*0001~" +
	"GE*1*1~IEA*1*000000001~"

// A set with no guide fails its file with UNSUPPORTED_TRANSACTION, unless
// the partnership's inbound setting for its ST01 passes it through: then it
// is a transaction whose input is its X12 and which has no Guide JSON.
func TestInboundSetWithoutGuide(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		ex := e.receive("era-4010.x12", unguided835)
		if ex.Status != store.ExecutionFailed || ex.FaultCode != core.FaultUnsupportedTransaction ||
			!strings.Contains(ex.FaultMessage, "004010X091A1") || !strings.Contains(ex.FaultMessage, "passThrough") {
			t.Fatalf("without pass-through: %s %s: %s", ex.Status, ex.FaultCode, ex.FaultMessage)
		}

		// The 835 setting names guide 005010X221A1; pass-through is a
		// guide-less setting of its own.
		must(t, e.store.CreateTransactionSetting(ctx, store.TransactionSetting{ID: "era-pass", AccountID: e.account,
			Mode: store.ModeTest, PartnershipID: e.setting.PartnershipID, Direction: store.DirectionInbound,
			TransactionSetIdentifier: "835", FragmentsBatchSize: 800, PassThrough: true, CreatedAt: time.Now()}))
		ex = e.receive("era-4010-again.x12", unguided835)
		if ex.Status != store.ExecutionCompleted {
			t.Fatalf("with pass-through: %s %s: %s", ex.Status, ex.FaultCode, ex.FaultMessage)
		}
		txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{ExecutionID: ex.ID})
		must(t, err)
		if len(txs) != 1 {
			t.Fatalf("%d transactions", len(txs))
		}
		tx := txs[0]
		if tx.TransactionSettingID != "era-pass" || tx.GuideID != "" || tx.Output.Key != "" || tx.Input.Key == "" {
			t.Errorf("transaction %+v", tx)
		}
		if in := e.blob(tx.Input.Key); !strings.Contains(in, "CLP*PCN1*1*100*100**12*ICN1~") || !strings.HasPrefix(in, "ISA*") {
			t.Errorf("input %q", in)
		}
		for _, ev := range e.events(ex.ID) {
			if ev.DetailType == events.TransactionProcessed && strings.Contains(string(ev.Detail), `"usage":"output"`) {
				t.Errorf("a passed-through set has no output artifact: %s", ev.Detail)
			}
		}
	})
}
