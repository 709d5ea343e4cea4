package tenancytest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// server is the whole API on a real HTTP listener with workers, and three
// keys: the owner's (account A, test mode), another account's (B, test
// mode) and the owner account's other mode (A, production).
type server struct {
	t     *testing.T
	url   string
	store store.Store
	owner struct {
		key, keyID, accountID string
	}
	otherAccount, otherMode string
}

func newServer(t *testing.T, open storetest.Opener) *server {
	t.Helper()
	ctx := context.Background()
	st := open(t)
	hs := apptest.New(t, apptest.Options{Store: st, Secrets: true, Workers: true})

	s := &server{t: t, url: hs.URL, store: st}
	var rec store.APIKey
	var err error
	if s.owner.key, rec, err = auth.CreateKey(ctx, st, "Owner Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	s.owner.keyID, s.owner.accountID = rec.ID, rec.AccountID
	var other store.APIKey
	if s.otherAccount, other, err = auth.CreateKey(ctx, st, "Other Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if s.otherMode, _, err = auth.CreateKey(ctx, st, "Owner Clinic", auth.ModeProduction, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	// Test mode's mock payers (claims), and an 835 sender (files). The
	// other account has the same mock payers (as every account made by
	// `keys create` has), so what it sends is answered, not refused for
	// want of a partnership.
	for _, a := range []string{rec.AccountID, other.AccountID} {
		if _, err := partners.Seed(ctx, st, a, services.MockPayers(), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := coretest.SetupPartners(ctx, st, rec.AccountID, store.ModeTest); err != nil {
		t.Fatal(err)
	}
	return s
}

// call sends one request with key (and headers, name then value) and
// returns the status and body.
func (s *server) call(method, path, key, body string, headers ...string) (int, []byte) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Key "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// owned sends a request as the owner, wants status (any of them) and
// decodes the body into v (when not nil).
func (s *server) owned(method, path, body string, v any, status ...int) {
	s.t.Helper()
	s.ownedWith(nil, method, path, body, v, status...)
}

// ownedWith is owned with request headers (name then value).
func (s *server) ownedWith(headers []string, method, path, body string, v any, status ...int) {
	s.t.Helper()
	got, b := s.call(method, path, s.owner.key, body, headers...)
	ok := false
	for _, want := range status {
		ok = ok || got == want
	}
	if !ok {
		s.t.Fatalf("owner %s %s: %d, want %v: %s", method, path, got, status, b)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			s.t.Fatalf("owner %s %s: %v in %s", method, path, err, b)
		}
	}
}

// await asks path as the owner until done says the answer is final.
func (s *server) await(path string, done func(body []byte) bool) []byte {
	s.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if status, b := s.call("GET", path, s.owner.key, ""); status == 200 && done(b) {
			return b
		}
	}
	s.t.Fatalf("%s: not done in 30 s", path)
	return nil
}
