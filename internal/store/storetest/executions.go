package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/store"
)

func newExecution(acct string, i int) store.Execution {
	return store.Execution{
		ID: store.NewUUID(), AccountID: acct, Mode: store.ModeTest, Direction: store.DirectionInbound,
		Status: store.ExecutionReceived, FileType: "x12", SourceDirname: "inbound", SourceName: fmt.Sprintf("f%d.x12", i),
		Input:     store.Artifact{Key: fmt.Sprintf("executions/%d/input", i), ContentType: "application/edi-x12", Size: 100},
		CreatedAt: t0.Add(time.Duration(i) * time.Second), UpdatedAt: t0.Add(time.Duration(i) * time.Second),
	}
}

func testExecutionLifecycle(t *testing.T, s store.Store) {
	a := newAccount(t, s, "files")
	other := newAccount(t, s, "other")
	e := newExecution(a.ID, 1)
	must(t, s.InsertExecution(ctx, e))
	wantErr(t, s.InsertExecution(ctx, e), store.ErrConflict)
	got, err := s.GetExecution(ctx, a.ID, e.ID)
	must(t, err)
	if diff := cmp.Diff(e, got); diff != "" {
		t.Errorf("GetExecution (-want +got):\n%s", diff)
	}
	_, err = s.GetExecution(ctx, other.ID, e.ID)
	wantErr(t, err, store.ErrNotFound)

	// RECEIVED → COMPLETED once; a second worker finishing the same file
	// gets ErrConflict.
	done := e
	done.Status, done.PartnershipID, done.TransactionCount = store.ExecutionCompleted, "p1", 3
	done.Metadata = store.Artifact{Key: "executions/1/metadata", Size: 42}
	done.Detail = []byte(`{"x":1}`)
	done.ProcessedAt, done.UpdatedAt = t0.Add(time.Minute), t0.Add(time.Minute)
	must(t, s.UpdateExecution(ctx, done, store.ExecutionReceived, store.ExecutionProcessing))
	wantErr(t, s.UpdateExecution(ctx, done, store.ExecutionReceived, store.ExecutionProcessing), store.ErrConflict)
	got, err = s.GetExecution(ctx, a.ID, e.ID)
	must(t, err)
	done.Metadata.ContentType = "" // not stored: the metadata document is always JSON
	if diff := cmp.Diff(done, got); diff != "" {
		t.Errorf("after update (-want +got):\n%s", diff)
	}
	ghost := newExecution(a.ID, 9)
	wantErr(t, s.UpdateExecution(ctx, ghost), store.ErrNotFound)
	// Another account cannot update it.
	done.AccountID = other.ID
	wantErr(t, s.UpdateExecution(ctx, done), store.ErrNotFound)
}

func testExecutionList(t *testing.T, s store.Store) {
	a := newAccount(t, s, "files")
	var want []string
	for i := range 5 {
		e := newExecution(a.ID, i)
		if i == 4 {
			e.Direction, e.Status = store.DirectionOutbound, store.ExecutionPendingDelivery
		}
		must(t, s.InsertExecution(ctx, e))
		want = append([]string{e.ID}, want...)
	}
	var all []string
	cursor := ""
	for range 4 {
		list, next, err := s.ListExecutions(ctx, a.ID, store.ExecutionFilter{Limit: 2, Cursor: cursor})
		must(t, err)
		for _, e := range list {
			all = append(all, e.ID)
		}
		if cursor = next; cursor == "" {
			break
		}
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	list, _, err := s.ListExecutions(ctx, a.ID, store.ExecutionFilter{Direction: store.DirectionOutbound})
	must(t, err)
	if len(list) != 1 || list[0].ID != want[0] {
		t.Errorf("outbound: %d executions", len(list))
	}
	list, _, err = s.ListExecutions(ctx, a.ID, store.ExecutionFilter{Status: store.ExecutionReceived, From: t0.Add(time.Second), To: t0.Add(3 * time.Second)})
	must(t, err)
	if len(list) != 2 || list[0].ID != want[2] || list[1].ID != want[3] {
		t.Errorf("status and time window: %d executions", len(list))
	}
	// Name: any case, % and _ taken literally; partnership.
	odd := newExecution(a.ID, 7)
	odd.SourceName, odd.PartnershipID = "Remit_100%.X12", "p9"
	must(t, s.InsertExecution(ctx, odd))
	for _, c := range []struct {
		f    store.ExecutionFilter
		want int
	}{
		{store.ExecutionFilter{NameContains: "remit_100%"}, 1},
		{store.ExecutionFilter{NameContains: "F3.X12"}, 1},
		{store.ExecutionFilter{NameContains: "1_x12"}, 0}, // "f1.x12" if _ were a wildcard
		{store.ExecutionFilter{NameContains: "%"}, 1},
		{store.ExecutionFilter{PartnershipID: "p9"}, 1},
		{store.ExecutionFilter{PartnershipID: "p9", NameContains: "f3"}, 0},
	} {
		list, _, err := s.ListExecutions(ctx, a.ID, c.f)
		must(t, err)
		if len(list) != c.want {
			t.Errorf("filter %+v: %d executions, want %d", c.f, len(list), c.want)
		}
	}
}

func testTransactions(t *testing.T, s store.Store) {
	a := newAccount(t, s, "files")
	other := newAccount(t, s, "other")
	e := newExecution(a.ID, 1)
	must(t, s.InsertExecution(ctx, e))
	var ids []string
	var wantIdentifiers []store.BusinessIdentifier
	err := s.InTx(ctx, func(tx store.Queries) error {
		for i := range 3 {
			tr := store.Transaction{
				ID: store.NewUUID(), AccountID: a.ID, Mode: store.ModeTest, ExecutionID: e.ID, SetIndex: i,
				Direction: store.DirectionInbound, Status: store.TransactionSucceeded, TransactionSetID: "835",
				ControlNumber: fmt.Sprintf("%04d", i+1), GuideID: "005010X221A1", PartnershipID: "p1",
				TransactionSettingID: "ts1", Sender: "ZZ/PAYER", Receiver: "ZZ/CLINIC",
				Input:       store.Artifact{Key: fmt.Sprintf("t%d/input", i), ContentType: "application/edi-x12", Size: 10},
				Output:      store.Artifact{Key: fmt.Sprintf("t%d/output", i), ContentType: "application/json", Size: 20},
				Detail:      []byte(`{"x12":{}}`),
				ProcessedAt: t0.Add(time.Duration(i) * time.Second), CreatedAt: t0,
			}
			if i == 2 {
				tr.FragmentCount, tr.FragmentBatchSize, tr.FragmentKeyName = 2, 800, "claim_payment_information_CLP_loop"
				tr.Fragments = []store.Fragment{
					{Index: 0, Output: store.Artifact{Key: "f0", ContentType: "application/json", Size: 5}},
					{Index: 1, Output: store.Artifact{Key: "f1", ContentType: "application/json", Size: 6}},
				}
				for j := range 250 { // runs of one element, another between them
					b := store.BusinessIdentifier{Element: "CLP-01", ElementID: "1028", Name: "Patient Control Number", Value: fmt.Sprintf("PCN%03d", j)}
					switch j {
					case 0:
						b = store.BusinessIdentifier{Element: "BHT-03", ElementID: "127", Name: "Originator Application Transaction Identifier", Value: `B"1\é`}
					case 100, 101:
						b = store.BusinessIdentifier{Element: "TRN-02", ElementID: "127", Name: "Trace Number", Value: fmt.Sprint("TRN", j)}
					}
					tr.Identifiers = append(tr.Identifiers, b)
				}
				wantIdentifiers = tr.Identifiers
			}
			// Set 2's identifiers go in three parts: with the transaction,
			// then two batches cut inside a run (InsertIdentifiers).
			all := tr.Identifiers
			if i == 2 {
				tr.Identifiers = all[:120]
			}
			if err := tx.InsertTransaction(ctx, tr); err != nil {
				return err
			}
			if i == 2 {
				for _, cut := range [][2]int{{120, 201}, {201, len(all)}} {
					if err := tx.InsertIdentifiers(ctx, tr.ID, a.ID, cut[0], all[cut[0]:cut[1]]); err != nil {
						return err
					}
				}
			}
			ids = append(ids, tr.ID)
		}
		return nil
	})
	must(t, err)
	got, err := s.GetTransaction(ctx, a.ID, ids[2])
	must(t, err)
	if got.FragmentCount != 2 || len(got.Fragments) != 2 || got.Fragments[1].Output.Key != "f1" ||
		!cmp.Equal(got.Identifiers, wantIdentifiers) || got.Sender != "ZZ/PAYER" ||
		string(got.Detail) != `{"x12":{}}` || !got.ProcessedAt.Equal(t0.Add(2*time.Second)) {
		t.Errorf("GetTransaction = %+v", got)
	}
	_, err = s.GetTransaction(ctx, other.ID, ids[0])
	wantErr(t, err, store.ErrNotFound)

	listIDs := func(f store.TransactionFilter) []string {
		t.Helper()
		list, _, err := s.ListTransactions(ctx, a.ID, f)
		must(t, err)
		var out []string
		for _, tr := range list {
			out = append(out, tr.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		f    store.TransactionFilter
		want []string
	}{
		{"all", store.TransactionFilter{}, []string{ids[2], ids[1], ids[0]}},
		{"execution", store.TransactionFilter{ExecutionID: e.ID, Mode: store.ModeTest}, []string{ids[2], ids[1], ids[0]}},
		{"identifier", store.TransactionFilter{BusinessIdentifier: "PCN007"}, []string{ids[2]}},
		{"identifier+element", store.TransactionFilter{BusinessIdentifier: "PCN007", ElementID: "CLM-01"}, nil},
		{"identifier+elementId", store.TransactionFilter{BusinessIdentifier: "PCN007", ElementID: "1028"}, []string{ids[2]}},
		{"set and sender", store.TransactionFilter{TransactionSetID: "835", Sender: "ZZ/PAYER", Receiver: "ZZ/CLINIC", PartnershipID: "p1"}, []string{ids[2], ids[1], ids[0]}},
		{"window", store.TransactionFilter{From: t0.Add(time.Second), To: t0.Add(2 * time.Second)}, []string{ids[1]}},
		{"mode", store.TransactionFilter{Mode: store.ModeProduction}, nil},
		{"page", store.TransactionFilter{Limit: 2}, []string{ids[2], ids[1]}},
	} {
		if got := listIDs(tc.f); !cmp.Equal(tc.want, got) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	if list, _, _ := s.ListTransactions(ctx, other.ID, store.TransactionFilter{}); len(list) != 0 {
		t.Errorf("another account lists %d transactions", len(list))
	}
	// The same set of an execution is stored once.
	dup := store.Transaction{ID: store.NewUUID(), AccountID: a.ID, Mode: store.ModeTest, ExecutionID: e.ID, SetIndex: 0,
		Direction: store.DirectionInbound, Status: store.TransactionSucceeded, ProcessedAt: t0, CreatedAt: t0}
	wantErr(t, s.InsertTransaction(ctx, dup), store.ErrConflict)

	// Another account's transaction with the same identifier: each account
	// finds only its own.
	oe := newExecution(other.ID, 1)
	must(t, s.InsertExecution(ctx, oe))
	theirs := store.Transaction{ID: store.NewUUID(), AccountID: other.ID, Mode: store.ModeTest, ExecutionID: oe.ID,
		Direction: store.DirectionInbound, Status: store.TransactionSucceeded, TransactionSetID: "835", Detail: []byte(`{}`),
		Identifiers: []store.BusinessIdentifier{{Element: "CLP-01", ElementID: "1028", Name: "Patient Control Number", Value: "PCN007"}},
		ProcessedAt: t0, CreatedAt: t0}
	must(t, s.InsertTransaction(ctx, theirs))
	if got := listIDs(store.TransactionFilter{BusinessIdentifier: "PCN007"}); !cmp.Equal(got, []string{ids[2]}) {
		t.Errorf("PCN007 in the first account: %v", got)
	}
	if list, _, err := s.ListTransactions(ctx, other.ID, store.TransactionFilter{BusinessIdentifier: "PCN007"}); err != nil ||
		len(list) != 1 || list[0].ID != theirs.ID {
		t.Errorf("PCN007 in the other account: %+v %v", list, err)
	}

	// Search rows stored before their transactions' records, several
	// transactions and elements in one call (the inbound pass's batches):
	// a value in two groups finds both transactions, a value given twice
	// is found once, and any string is a value.
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		return tx.InsertIdentifierValues(ctx, []store.IdentifierValues{
			{TransactionID: ids[0], Element: "CLP-01", ElementID: "1028", Values: []string{"MULTI1", `Q"\é`, "MULTI1"}},
			{TransactionID: ids[1], Element: "TRN-02", ElementID: "127", Values: []string{"MULTI1", "MULTI2"}},
			{TransactionID: ids[1], Element: "CLP-01", ElementID: "1028", Values: nil},
		})
	}))
	for _, tc := range []struct {
		value, element string
		want           []string
	}{
		{"MULTI1", "", []string{ids[1], ids[0]}},
		{"MULTI1", "TRN-02", []string{ids[1]}},
		{"MULTI1", "1028", []string{ids[0]}},
		{`Q"\é`, "", []string{ids[0]}},
		{"MULTI2", "CLP-01", nil},
	} {
		if got := listIDs(store.TransactionFilter{BusinessIdentifier: tc.value, ElementID: tc.element}); !cmp.Equal(got, tc.want) {
			t.Errorf("search rows stored in one call, %s %s: got %v, want %v", tc.value, tc.element, got, tc.want)
		}
	}

	// A transaction recorded before identifier_runs (migration 00230) has
	// its identifiers in business_identifiers: they are still read there.
	raw := Raw(t, s)
	_, err = raw.ExecContext(ctx, `INSERT INTO business_identifiers (transaction_id, account_id, position, element, element_id, name, value)
		VALUES ('`+ids[0]+`', '`+a.ID+`', 0, 'CLP-01', '1028', 'Patient Control Number', 'OLD1'),
		('`+ids[0]+`', '`+a.ID+`', 1, 'TRN-02', '127', 'Trace Number', 'OLD2')`)
	must(t, err)
	old, err := s.GetTransaction(ctx, a.ID, ids[0])
	must(t, err)
	if want := []store.BusinessIdentifier{{Element: "CLP-01", ElementID: "1028", Name: "Patient Control Number", Value: "OLD1"},
		{Element: "TRN-02", ElementID: "127", Name: "Trace Number", Value: "OLD2"}}; !cmp.Equal(old.Identifiers, want) {
		t.Errorf("identifiers from before the runs: %+v", old.Identifiers)
	}
}
