package core_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var ctx = context.Background()

// env is a core service on a fresh store with one account set up for 835s
// from PAYERSENDER to CLINICRECV in test mode.
type env struct {
	t       *testing.T
	store   store.Store
	blobs   blob.Store
	queue   *jobs.Queue
	core    *core.Service
	account string
	setting store.TransactionSetting
}

func newEnv(t *testing.T, open storetest.Opener) *env {
	t.Helper()
	return newEnvWrapped(t, open, func(s blob.Store) blob.Store { return s })
}

// newEnvWrapped is newEnv with the service's blob store wrapped by wrap.
func newEnvWrapped(t *testing.T, open storetest.Opener, wrap func(blob.Store) blob.Store) *env {
	t.Helper()
	return newEnvWith(t, open, wrap, func(*core.Options) {})
}

// newEnvWith is newEnvWrapped with the service's options changed by opt.
func newEnvWith(t *testing.T, open storetest.Opener, wrap func(blob.Store) blob.Store, opt func(*core.Options)) *env {
	t.Helper()
	st := open(t)
	opened, err := blob.Open(ctx, "file://"+filepath.Join(t.TempDir(), "blobs"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { opened.Close() })
	blobs := wrap(opened)
	quiet := slog.New(slog.DiscardHandler)
	q := jobs.New(st, jobs.Options{PollInterval: 10 * time.Millisecond, Concurrency: 2, Logger: quiet})
	opts := core.Options{Store: st, Blob: blobs, Jobs: q, Logger: quiet}
	opt(&opts)
	svc, err := core.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, store: st, blobs: blobs, queue: q, core: svc, account: store.NewID()}
	must(t, st.CreateAccount(ctx, store.Account{ID: e.account, Name: "clinic", CreatedAt: time.Now()}))
	var err2 error
	e.setting, err2 = coretest.SetupPartners(ctx, st, e.account, store.ModeTest)
	must(t, err2)
	return e
}

// searchRows counts the database's identifier search rows
// (identifier_values), which no query of the store shows unscoped.
func searchRows(t *testing.T, st store.Store) int {
	t.Helper()
	var n int
	must(t, storetest.Raw(t, st).QueryRowContext(ctx, `SELECT count(*) FROM identifier_values`).Scan(&n))
	return n
}

// identifierCount is the number of business identifiers of the account's
// transactions.
func identifierCount(t *testing.T, st store.Store, account string) int {
	t.Helper()
	txs, _, err := st.ListTransactions(ctx, account, store.TransactionFilter{Limit: 500})
	must(t, err)
	n := 0
	for _, tx := range txs {
		full, err := st.GetTransaction(ctx, account, tx.ID)
		must(t, err)
		n += len(full.Identifiers)
	}
	return n
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// receive hands a file over and works jobs until its execution is done.
func (e *env) receive(name, body string) store.Execution {
	e.t.Helper()
	ex, err := e.core.Receive(ctx, core.ReceiveParams{AccountID: e.account, Mode: store.ModeTest, Name: name,
		Dirname: "inbound", Body: strings.NewReader(body)})
	must(e.t, err)
	if ex.Status != store.ExecutionReceived {
		e.t.Fatalf("received status %s", ex.Status)
	}
	return e.wait(ex.ID)
}

// wait runs the queue until the execution leaves RECEIVED/PROCESSING.
func (e *env) wait(id string) store.Execution {
	e.t.Helper()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { e.queue.Run(runCtx); close(done) }()
	defer func() { stop(); <-done }()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ex, err := e.store.GetExecution(ctx, e.account, id)
		must(e.t, err)
		if ex.Status != store.ExecutionReceived && ex.Status != store.ExecutionProcessing {
			return ex
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("execution %s not processed in 30 s", id)
	return store.Execution{}
}

func (e *env) events(executionID string) []events.Envelope {
	e.t.Helper()
	evs, _, err := e.store.ListEvents(ctx, e.account, store.EventFilter{ExecutionID: executionID, Limit: 500})
	must(e.t, err)
	var out []events.Envelope
	for i := len(evs) - 1; i >= 0; i-- { // oldest first
		env, err := events.Decode(evs[i])
		must(e.t, err)
		out = append(out, env)
	}
	return out
}

func (e *env) blob(key string) string {
	e.t.Helper()
	r, err := e.blobs.Get(ctx, key)
	must(e.t, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	must(e.t, err)
	return string(b)
}

// ack returns the 999 the core made for an inbound execution: the one
// outbound execution acknowledging it, pending delivery.
func (e *env) ack(inboundID string) string {
	e.t.Helper()
	list, _, err := e.store.ListExecutions(ctx, e.account, store.ExecutionFilter{Direction: store.DirectionOutbound})
	must(e.t, err)
	for _, ex := range list {
		if strings.Contains(string(ex.Detail), inboundID) {
			if ex.Status != store.ExecutionPendingDelivery || ex.PartnershipID != coretest.PartnershipID {
				e.t.Errorf("ack execution %+v", ex)
			}
			ack := e.blob(ex.Output.Key)
			rep, err := guide.Validate(strings.NewReader(ack), guide.Options{})
			must(e.t, err)
			for _, f := range rep.All() {
				if f.Rejects() {
					e.t.Errorf("the 999 fails our validator: %s", f)
				}
			}
			return ack
		}
	}
	e.t.Fatalf("no 999 for %s among %d outbound executions", inboundID, len(list))
	return ""
}

func countTypes(evs []events.Envelope) map[string]int {
	m := map[string]int{}
	for _, ev := range evs {
		m[ev.DetailType]++
	}
	return m
}

func TestInbound835TwoGroupsThreeSets(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		ex := e.receive("era-0001.x12", coretest.Gen835([]int{2, 1}, 3, 0))
		if ex.Status != store.ExecutionCompleted || ex.TransactionCount != 3 || ex.PartnershipID != "clinic_payer" {
			t.Fatalf("execution %+v", ex)
		}
		evs := e.events(ex.ID)
		got := countTypes(evs)
		if got[events.FileProcessed] != 1 || got[events.TransactionProcessed] != 3 || got[events.FragmentProcessed] != 3 || len(evs) != 7 {
			t.Fatalf("events %v", got)
		}
		if evs[len(evs)-1].DetailType != events.FileProcessed {
			t.Errorf("last event %s", evs[len(evs)-1].DetailType)
		}
		txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{ExecutionID: ex.ID})
		must(t, err)
		if len(txs) != 3 {
			t.Fatalf("%d transactions", len(txs))
		}
		for _, ev := range evs {
			var d struct {
				FileExecutionID string `json:"fileExecutionId"`
				TransactionID   string `json:"transactionId"`
				X12             struct {
					Metadata struct {
						Transaction struct {
							TransactionSetIdentifier string `json:"transactionSetIdentifier"`
						} `json:"transaction"`
					} `json:"metadata"`
				} `json:"x12"`
			}
			must(t, json.Unmarshal(ev.Detail, &d))
			if d.FileExecutionID != ex.ID {
				t.Errorf("%s fileExecutionId %q", ev.DetailType, d.FileExecutionID)
			}
			if ev.DetailType == events.TransactionProcessed && d.X12.Metadata.Transaction.TransactionSetIdentifier != "835" {
				t.Errorf("transaction event detail %s", ev.Detail)
			}
		}
		tr, err := e.store.GetTransaction(ctx, e.account, txs[0].ID)
		must(t, err)
		in := e.blob(tr.Input.Key)
		if !strings.HasPrefix(in, "ISA*00*") || !strings.Contains(in, "ST*835*") || !strings.HasSuffix(in, "IEA*1*000000101~") ||
			strings.Count(in, "ST*") != 1 {
			t.Errorf("input EDI %q", in)
		}
		var out map[string]any
		must(t, json.Unmarshal([]byte(e.blob(tr.Output.Key)), &out))
		if _, ok := out["heading"]; !ok {
			t.Errorf("output has no heading: %v", out)
		}
		var ids []string
		for _, id := range tr.Identifiers {
			ids = append(ids, id.Element+"="+id.Value)
		}
		if len(ids) != 4 || !strings.HasPrefix(ids[0], "TRN-02=TRACE") || !strings.HasPrefix(ids[1], "CLP-01=PCN") {
			t.Errorf("identifiers %v", ids)
		}
		// One search row per identifier (stored beside the pass, before the
		// records), and the search finds the transaction by each.
		if n, want := searchRows(t, e.store), identifierCount(t, e.store, e.account); n != want || want != 12 {
			t.Errorf("%d search rows for %d identifiers", n, want)
		}
		found, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{BusinessIdentifier: tr.Identifiers[1].Value})
		must(t, err)
		if len(found) != 1 || found[0].ID != tr.ID {
			t.Errorf("search by %s found %d transactions", tr.Identifiers[1].Value, len(found))
		}
		var md struct {
			Version      string `json:"version"`
			Interchanges []struct {
				FunctionalGroups []struct {
					TransactionSets []struct {
						ID                 string              `json:"id"`
						TrackedIdentifiers map[string][]string `json:"trackedIdentifiers"`
					} `json:"transactionSets"`
				} `json:"functionalGroups"`
			} `json:"interchanges"`
		}
		must(t, json.Unmarshal([]byte(e.blob(ex.Metadata.Key)), &md))
		ack := e.ack(ex.ID)
		if !strings.Contains(ack, "ST*999*") || !strings.Contains(ack, "AK9*A*2*2*2") || !strings.Contains(ack, "AK9*A*1*1*1") || !strings.Contains(ack, "*ZZ*CLINICRECV     *ZZ*PAYERSENDER    *") {
			t.Errorf("999 back to the sender:\n%s", ack)
		}
		if len(md.Interchanges) != 1 || len(md.Interchanges[0].FunctionalGroups) != 2 ||
			len(md.Interchanges[0].FunctionalGroups[0].TransactionSets) != 2 ||
			len(md.Interchanges[0].FunctionalGroups[1].TransactionSets[0].TrackedIdentifiers["CLP-01"]) != 3 {
			t.Errorf("metadata %s", e.blob(ex.Metadata.Key))
		}
	})
}

func TestInboundCorruptSetFailsTheWholeFile(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, open)
		ex := e.receive("era-0002.x12", coretest.Gen835([]int{2, 1}, 3, 2))
		if ex.Status != store.ExecutionFailed || ex.FaultCode != core.FaultTranslate {
			t.Fatalf("execution %+v", ex)
		}
		evs := e.events(ex.ID)
		if len(evs) != 1 || evs[0].DetailType != events.FileFailed {
			t.Fatalf("events %v", countTypes(evs))
		}
		var d struct {
			Errors []core.Fault `json:"errors"`
		}
		must(t, json.Unmarshal(evs[0].Detail, &d))
		if len(d.Errors) != 1 || d.Errors[0].FaultCode != "FAILED_TO_TRANSLATE" || !strings.Contains(d.Errors[0].Message, "CLP") ||
			!strings.Contains(d.Errors[0].Message, "Line ") {
			t.Errorf("errors %+v", d.Errors)
		}
		txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{})
		must(t, err)
		if len(txs) != 0 {
			t.Errorf("%d transactions kept from a failed file", len(txs))
		}
		// The pass stored the good sets' search rows beside its reading;
		// the failure removed them.
		if n := searchRows(t, e.store); n != 0 {
			t.Errorf("%d identifier search rows kept from a failed file", n)
		}
		if ack := e.ack(ex.ID); !strings.Contains(ack, "IK5*R*") || !strings.Contains(ack, "IK3*CLP*") {
			t.Errorf("999 of the rejected set:\n%s", ack)
		}
	})
}

func TestInboundFragments(t *testing.T) {
	t.Parallel()
	e := newEnv(t, storetest.SQLite)
	ex := e.receive("era-big.x12", coretest.Gen835([]int{1}, 2000, 0))
	if ex.Status != store.ExecutionCompleted {
		t.Fatalf("execution %+v", ex)
	}
	evs := e.events(ex.ID)
	if got := countTypes(evs); got[events.FragmentProcessed] != 3 || got[events.TransactionProcessed] != 1 {
		t.Fatalf("events %v", got)
	}
	txs, _, err := e.store.ListTransactions(ctx, e.account, store.TransactionFilter{ExecutionID: ex.ID})
	must(t, err)
	tr, err := e.store.GetTransaction(ctx, e.account, txs[0].ID)
	must(t, err)
	if tr.FragmentCount != 3 || len(tr.Fragments) != 3 {
		t.Fatalf("fragments %d", tr.FragmentCount)
	}
	total := 0
	for i, f := range tr.Fragments {
		var doc struct {
			Heading map[string]any `json:"heading"`
			Detail  struct {
				LX []struct {
					CLP []json.RawMessage `json:"claim_payment_information_CLP_loop"`
				} `json:"header_number_LX_loop"`
			} `json:"detail"`
		}
		must(t, json.Unmarshal([]byte(e.blob(f.Output.Key)), &doc))
		n := 0
		for _, lx := range doc.Detail.LX {
			n += len(lx.CLP)
		}
		if want := []int{800, 800, 400}[i]; n != want || doc.Heading == nil {
			t.Errorf("fragment %d holds %d claim payments (heading %v), want %d", i, n, doc.Heading != nil, want)
		}
		total += n
	}
	if total != 2000 {
		t.Errorf("fragments hold %d claim payments", total)
	}
}

func TestInboundNonEDI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, storetest.SQLite)
	ex := e.receive("remit.csv", "claim,amount\nA1,10.00\n")
	if ex.Status != store.ExecutionCompleted || ex.FileType != "csv" {
		t.Fatalf("execution %+v", ex)
	}
	evs := e.events(ex.ID)
	if len(evs) != 1 || evs[0].DetailType != events.FileProcessed {
		t.Fatalf("events %v", countTypes(evs))
	}
	if !strings.Contains(string(evs[0].Detail), `"artifactType":"text/csv"`) {
		t.Errorf("detail %s", evs[0].Detail)
	}
}
