package eligibility

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPayerCallsPerKey: a key with DefaultPayerCallsPerKey checks waiting
// on a payer gets 429 for the next one, nothing sent; another key, and the
// same key once a check finishes, go through.
func TestPayerCallsPerKey(t *testing.T) {
	f := newFixture(t, 10*time.Second)
	release := make(chan struct{})
	var mu sync.Mutex
	sent := 0
	f.prod.answer = func(ctx context.Context, _ []byte) ([]byte, error) {
		mu.Lock()
		sent++
		mu.Unlock()
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return []byte("ST*271*1*005010X279A1~BHT*0022*11*X*20240801*0930~HL*1**20*1~NM1*PR*2*UHC*****PI*87726~" +
			"HL*2*1*21*1~NM1*1P*2*P~HL*3*2*22*0~NM1*IL*1*DOE~EB*1**30~SE*9*1~"), nil
	}
	sentNow := func() int { mu.Lock(); defer mu.Unlock(); return sent }
	req := func() *Request {
		return &Request{TradingPartnerServiceID: "87726", Provider: &Provider{OrganizationName: "P", NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "M123"}}
	}
	check := func(caller Caller) *Result {
		res, err := f.svc.Check(context.Background(), caller, req())
		if err != nil {
			t.Error(err)
		}
		return res
	}

	var wg sync.WaitGroup
	for range DefaultPayerCallsPerKey {
		wg.Go(func() {
			if res := check(prodKey); res.HTTPStatus != http.StatusOK {
				t.Errorf("a check within the cap answered %d", res.HTTPStatus)
			}
		})
	}
	for deadline := time.Now().Add(5 * time.Second); sentNow() < DefaultPayerCallsPerKey; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d checks reached the payer", sentNow())
		}
	}

	over := check(prodKey)
	if over.HTTPStatus != http.StatusTooManyRequests || over.Problem == nil || over.Problem.Code != CodeTooManyRequests ||
		!strings.Contains(over.Problem.Message, "87726") {
		t.Fatalf("check over the cap: %d %+v", over.HTTPStatus, over.Problem)
	}
	if sentNow() != DefaultPayerCallsPerKey {
		t.Errorf("a refused check reached the payer (%d sent)", sentNow())
	}

	other := prodKey
	other.KeyID = "key3"
	otherDone := make(chan *Result)
	go func() { otherDone <- check(other) }()
	for deadline := time.Now().Add(5 * time.Second); sentNow() < DefaultPayerCallsPerKey+1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("another key's check was held back by the first key's cap")
		}
	}

	close(release)
	wg.Wait()
	if res := <-otherDone; res.HTTPStatus != http.StatusOK {
		t.Errorf("other key: %d", res.HTTPStatus)
	}
	if res := check(prodKey); res.HTTPStatus != http.StatusOK {
		t.Errorf("after the waiting checks finished: %d %+v", res.HTTPStatus, res.Problem)
	}
	if n := len(f.svc.calls.inFlight); n != 0 {
		t.Errorf("%d slots still held after every check finished", n)
	}
}
