package eligibility

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/x12"
)

// TestStoreControlNumbers: checks through services sharing one database
// (two replicas, then a restarted one) carry distinct ISA13 and GS06, and
// ST02 is 0001 in each single-transaction group.
func TestStoreControlNumbers(t *testing.T) {
	st := storetest.SQLite(t)
	dir := payers.Default()
	router, err := payers.NewRouter(dir, mockpayer.New(mockpayer.WithDirectory(dir)), nil)
	if err != nil {
		t.Fatal(err)
	}
	newReplica := func() *Service {
		svc, err := NewService(Config{Router: router, Numbers: StoreControlNumbers(st, DefaultSenderID, 3)})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	req := mockpayer.Requests()[0]
	caller := Caller{AccountID: "a", KeyID: "k", Mode: payers.ModeTest}
	isa, gs := map[string]bool{}, map[string]bool{}
	for round, svc := range []*Service{newReplica(), newReplica(), newReplica()} {
		for range 5 {
			var r Request
			if err := json.Unmarshal(req.RequestJSON(), &r); err != nil {
				t.Fatal(err)
			}
			res, err := svc.Check(context.Background(), caller, &r)
			if err != nil || res.HTTPStatus != 200 {
				t.Fatalf("round %d: check: %v %d %+v", round, err, res.HTTPStatus, res.Problem)
			}
			controls := envelopeControls(t, res.X12Request)
			if isa[controls.Interchange] || gs[controls.Group] {
				t.Errorf("round %d: control numbers %+v repeated", round, controls)
			}
			isa[controls.Interchange], gs[controls.Group] = true, true
			if controls.Transaction != "0001" {
				t.Errorf("ST02 = %q, want 0001", controls.Transaction)
			}
		}
	}
}

// envelopeControls reads ISA13, GS06 and ST02 of an interchange.
func envelopeControls(t *testing.T, interchange []byte) x12.Controls {
	t.Helper()
	var c x12.Controls
	rd := x12.NewReader(strings.NewReader(string(interchange)))
	for {
		seg, err := rd.Next()
		if err != nil {
			break
		}
		switch seg.ID() {
		case "ISA":
			c.Interchange = seg.Element(13)
		case "GS":
			c.Group = seg.Element(6)
		case "ST":
			c.Transaction = seg.Element(2)
		}
	}
	if c.Interchange == "" || c.Group == "" || c.Transaction == "" {
		t.Fatalf("no envelope in %q", interchange)
	}
	return c
}

// reservations counts a store's block reservations.
type reservations struct {
	calls []int64
	next  int64
}

func (r *reservations) ReserveControlNumbers(_ context.Context, _ string, n int64) (int64, error) {
	r.calls = append(r.calls, n)
	first := r.next + 1
	r.next += n
	return first, nil
}

// By default a service reserves ControlNumberBlock numbers of each
// sequence at a time: 2,500 checks make 3 reservations of each, not 25.
func TestStoreControlNumbersBlock(t *testing.T) {
	r := &reservations{}
	numbers := StoreControlNumbers(r, DefaultSenderID, 0)
	seen := map[int64]bool{}
	for range 2500 {
		n, err := numbers.Next(x12.InterchangeControl)
		if err != nil || seen[n] {
			t.Fatalf("interchange %d repeated or failed: %v", n, err)
		}
		seen[n] = true
		if _, err := numbers.Next(x12.GroupControl); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.calls) != 6 {
		t.Fatalf("%d reservations for 2,500 checks, want 6 (3 of each sequence)", len(r.calls))
	}
	for _, n := range r.calls {
		if n != ControlNumberBlock {
			t.Errorf("reserved %d numbers at a time, want %d", n, ControlNumberBlock)
		}
	}
}
