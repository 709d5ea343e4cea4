package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testInlineBlobs: a document stored in a transaction reads back byte for
// byte once it commits and not at all when it rolls back; a key is never
// overwritten; delete is idempotent; and a purge of the file whose records
// name inline keys removes those rows in its transaction (and no other
// account's).
func testInlineBlobs(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	doc := []byte("ISA*00*          *00*          *ZZ*SENDER~\nGS*HC~ {\"é\": \"ü\"}")
	key := store.InlineBlobPrefix + "claims/" + store.NewID() + ".x12"
	must(t, s.InTx(ctx, func(tx store.Queries) error { return tx.PutInlineBlob(ctx, a.ID, store.ModeTest, key, doc, t0) }))
	got, ok, err := s.GetInlineBlob(ctx, key)
	if err != nil || !ok || string(got) != string(doc) {
		t.Fatalf("GetInlineBlob = %q %v %v; want %q", got, ok, err, doc)
	}
	if err := s.InTx(ctx, func(tx store.Queries) error { return tx.PutInlineBlob(ctx, a.ID, store.ModeTest, key, []byte("x"), t0) }); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("second put of one key: %v; want ErrConflict", err)
	}
	rolled := store.InlineBlobPrefix + "claims/" + store.NewID() + ".x12"
	boom := errors.New("boom")
	if err := s.InTx(ctx, func(tx store.Queries) error {
		if err := tx.PutInlineBlob(ctx, a.ID, store.ModeTest, rolled, doc, t0); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, ok, err := s.GetInlineBlob(ctx, rolled); ok || err != nil {
		t.Fatalf("rolled-back document: ok=%v err=%v", ok, err)
	}
	must(t, s.DeleteInlineBlob(ctx, key))
	must(t, s.DeleteInlineBlob(ctx, key))
	if _, ok, _ := s.GetInlineBlob(ctx, key); ok {
		t.Fatal("deleted document still reads")
	}

	// Retention: a purged file's inline documents go with it.
	old := time.Now().UTC().Add(-40 * 24 * time.Hour).Truncate(time.Microsecond)
	file := func(acct string) string {
		e := newExecution(acct, 1)
		e.Status, e.CreatedAt, e.UpdatedAt = store.ExecutionDelivered, old, old
		k := store.InlineBlobPrefix + "claims/" + e.ID + ".x12"
		e.Input, e.Output = store.Artifact{Key: k, Size: int64(len(doc))}, store.Artifact{Key: k, Size: int64(len(doc))}
		must(t, s.InTx(ctx, func(tx store.Queries) error {
			if err := tx.InsertExecution(ctx, e); err != nil {
				return err
			}
			return tx.PutInlineBlob(ctx, acct, store.ModeTest, k, doc, old)
		}))
		return k
	}
	mine, theirs := file(a.ID), file(other.ID)
	cut := store.PurgeCutoffs{Files: time.Now().Add(-30 * 24 * time.Hour)}
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		_, err := tx.PurgeExpired(ctx, a.ID, cut, 100, false)
		return err
	}))
	if _, ok, err := s.GetInlineBlob(ctx, mine); ok || err != nil {
		t.Fatalf("purged file's inline document: ok=%v err=%v", ok, err)
	}
	if _, ok, err := s.GetInlineBlob(ctx, theirs); !ok || err != nil {
		t.Fatalf("the other account's inline document: ok=%v err=%v", ok, err)
	}
}
