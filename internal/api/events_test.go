package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
)

func emit(t *testing.T, s store.Store, acct, mode, detailType, executionID string) events.Envelope {
	t.Helper()
	var env events.Envelope
	err := s.InTx(context.Background(), func(tx store.Queries) error {
		var err error
		env, err = events.New(events.Options{}).Emit(context.Background(), tx, events.Event{AccountID: acct, Mode: mode, DetailType: detailType,
			ExecutionID: executionID, Detail: map[string]string{"fileExecutionId": executionID}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestEventsEndpoints(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	processed := emit(t, f.store, f.acctA, store.ModeTest, events.FileProcessed, "ex-1")
	failed := emit(t, f.store, f.acctA, store.ModeTest, events.FileFailed, "ex-2")
	prod := emit(t, f.store, f.acctB, store.ModeProduction, events.FileProcessed, "ex-3")

	type list struct {
		Items         []events.Envelope `json:"items"`
		NextPageToken string            `json:"nextPageToken"`
	}
	get := func(path, key string, want int) *list {
		t.Helper()
		rec := f.do("GET", path, key, nil)
		if rec.Code != want {
			t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
		}
		var l list
		if want == http.StatusOK {
			if err := json.Unmarshal(rec.Body.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
		}
		return &l
	}
	l := get("/2023-08-01/events", f.keyA, 200)
	if len(l.Items) != 2 || l.Items[0].ID != failed.ID || l.Items[1].ID != processed.ID {
		t.Fatalf("list = %+v", l.Items)
	}
	if l := get("/2023-08-01/events?detailType=file.processed.v2&executionId=ex-1", f.keyA, 200); len(l.Items) != 1 || l.Items[0].ID != processed.ID {
		t.Errorf("filtered list = %+v", l.Items)
	}
	l = get("/2023-08-01/events?pageSize=1", f.keyA, 200)
	if len(l.Items) != 1 || l.NextPageToken == "" {
		t.Fatalf("first page %+v", l)
	}
	if l2 := get("/2023-08-01/events?pageSize=1&pageToken="+l.NextPageToken, f.keyA, 200); len(l2.Items) != 1 || l2.Items[0].ID != processed.ID || l2.NextPageToken != "" {
		t.Errorf("second page %+v", l2)
	}
	get("/2023-08-01/events?detailType=nope", f.keyA, 400)
	get("/2023-08-01/events?pageSize=0", f.keyA, 400)
	get("/2023-08-01/events?from=yesterday", f.keyA, 400)
	get("/2023-08-01/events?pageToken=zz", f.keyA, 400)

	rec := f.do("GET", "/2023-08-01/events/"+processed.ID, f.keyA, nil)
	var one events.Envelope
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &one) != nil || one.ID != processed.ID || one.DetailType != events.FileProcessed {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	// Another account's event is not found, whatever the key's mode.
	if rec := f.do("GET", "/2023-08-01/events/"+prod.ID, f.keyA, nil); rec.Code != 404 {
		t.Errorf("other account's event: %d", rec.Code)
	}
	if l := get("/2023-08-01/events", f.keyB, 200); len(l.Items) != 1 || l.Items[0].ID != prod.ID {
		t.Errorf("account B sees %+v", l.Items)
	}
	if rec := f.do("GET", "/2023-08-01/events", "", nil); rec.Code != 401 {
		t.Errorf("no key: %d", rec.Code)
	}
}
