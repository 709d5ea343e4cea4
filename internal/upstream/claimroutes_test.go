package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// fakeUpstream is a real HTTP server that answers claim submissions the
// way the test tells it to, counting what reached it.
type fakeUpstream struct {
	mu     sync.Mutex
	keys   []string // Idempotency-Key of each request that arrived in full
	answer func(w http.ResponseWriter, r *http.Request)
	srv    *httptest.Server
}

func newFakeUpstream(t *testing.T) *fakeUpstream {
	u := &fakeUpstream{answer: accept}
	u.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		u.mu.Lock()
		u.keys = append(u.keys, r.Header.Get("Idempotency-Key"))
		answer := u.answer
		u.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(u.srv.Close)
	return u
}

func (u *fakeUpstream) set(f func(w http.ResponseWriter, r *http.Request)) {
	u.mu.Lock()
	u.answer = f
	u.mu.Unlock()
}

func (u *fakeUpstream) received() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]string(nil), u.keys...)
}

func accept(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(`{"status":"SUCCESS","claimReference":{"correlationId":"corr-` + r.Header.Get("Idempotency-Key") + `"}}`))
}

func status(code int) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		w.Write([]byte(`{"message":"as the test says"}`))
	}
}

// claimWorld is an account with CLEARINGHOUSE_API connections in a real
// SQLite store, and the routed delivery over them.
type claimWorld struct {
	st      store.Store
	box     *secrets.Box
	account string
	d       *Delivery
	routes  []string
	events  []string
}

func newClaimWorld(t *testing.T) *claimWorld {
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), store.SQLiteFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	box, err := secrets.New(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	w := &claimWorld{st: st, box: box}
	w.account = w.newAccount(t, "Clinic")
	w.d = &Delivery{Box: box, Guard: netguard.New(netguard.Options{AllowPrivate: true}), Store: st,
		ClaimRoutes: func(payer string) []string {
			if payer == "52133" {
				return w.routes
			}
			return nil
		},
		Observe: func(c, o string) { w.events = append(w.events, c+" "+o) }}
	return w
}

func (w *claimWorld) newAccount(t *testing.T, name string) string {
	id := store.NewID()
	if err := w.st.CreateAccount(context.Background(), store.Account{ID: id, Name: name, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return id
}

// connect stores a CLEARINGHOUSE_API connection of account to u.
func (w *claimWorld) connect(t *testing.T, account, id string, u *fakeUpstream, timeout string) store.Connection {
	settings, _ := json.Marshal(StoredSettings{URL: u.srv.URL + "/2024-04-01", Timeout: timeout})
	c := store.Connection{ID: id, AccountID: account, Mode: store.ModeProduction, Type: store.ConnectionClearinghouseAPI,
		Settings: settings, CreatedAt: time.Now(), UpdatedAt: time.Now()}
	sealStoredSecrets(t, w, &c, map[string]string{"apiKey": "key-" + id})
	if err := w.st.CreateConnection(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

// claim837 is an 837D interchange to payer 52133 (only what routing reads).
const claim837 = "ISA*00*          *00*          *ZZ*CLINICA        *ZZ*52133          *261126*0400*^*00501*000000001*0*P*:~" +
	"GS*HC*CLINICA*52133*20261126*0400*1*X*005010X224A2~ST*837*0001*005010X224A2~NM1*PR*2*UHC DENTAL*****PI*52133~SE*3*0001~GE*1*1~IEA*1*000000001~"

func (w *claimWorld) file(conn store.Connection, id string) delivery.File {
	return delivery.File{Execution: store.Execution{ID: id, AccountID: conn.AccountID, Mode: conn.Mode, ConnectionID: conn.ID},
		Connection: conn, Body: []byte(claim837)}
}

func (w *claimWorld) rows(t *testing.T, exec string) string {
	rows, err := w.st.ListUpstreamSubmissions(context.Background(), w.account, store.ModeProduction, exec)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.ConnectionID+"="+r.State)
	}
	return strings.Join(out, " ")
}

// twoRoutes is a world whose payer's claims routes are routes (of up-b
// and up-c, fake upstreams B and C); B's connection has time limit bTimeout.
func twoRoutes(t *testing.T, bTimeout string, routes ...string) (*claimWorld, *fakeUpstream, *fakeUpstream, store.Connection) {
	w := newClaimWorld(t)
	b, c := newFakeUpstream(t), newFakeUpstream(t)
	connB := w.connect(t, w.account, "up-b", b, bTimeout)
	w.connect(t, w.account, "up-c", c, "2s")
	w.routes = routes
	return w, b, c, connB
}

func TestPayerID(t *testing.T) {
	if got := PayerID([]byte(claim837)); got != "52133" {
		t.Errorf("PayerID = %q", got)
	}
	noPR := strings.Replace(claim837, "NM1*PR*2*UHC DENTAL*****PI*52133~", "", 1)
	noPR = strings.Replace(noPR, "*ZZ*52133          *", "*ZZ*ISA08ID        *", 1)
	if got := PayerID([]byte(noPR)); got != "ISA08ID" {
		t.Errorf("PayerID without NM1*PR = %q, want ISA08", got)
	}
}

// TestClaimFailover: a claim moves to the payer's next upstream only when
// the first certainly did not take it, and never reaches two upstreams.
func TestClaimFailover(t *testing.T) {
	ctx := context.Background()

	t.Run("unreachable then accepted by the next route", func(t *testing.T) {
		w, b, c, connB := twoRoutes(t, "2s", "up-b", "up-c")
		b.srv.Close() // connection refused: nothing left
		msg, via, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-1"))
		if err != nil || via.ID != "up-c" || !strings.Contains(msg, "up-c") || !strings.Contains(msg, `corr-ex-1`) {
			t.Fatalf("delivered: %q via %q, %v", msg, via.ID, err)
		}
		if got := c.received(); len(got) != 1 || got[0] != "ex-1" {
			t.Errorf("C received %v, want one request with Idempotency-Key ex-1", got)
		}
		if got := w.rows(t, "ex-1"); got != "up-b=NOT_ACCEPTED up-c=ACCEPTED" {
			t.Errorf("rows: %s", got)
		}
		// A rerun (say the commit of DELIVERED was lost) sends nothing.
		msg2, via2, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-1"))
		if err != nil || via2.ID != "up-c" || msg2 != msg || len(c.received()) != 1 {
			t.Errorf("rerun: %q via %q, %v; C received %d", msg2, via2.ID, err, len(c.received()))
		}
		if strings.Join(w.events, ",") != "up-b failover,up-c answered" {
			t.Errorf("route events: %v", w.events)
		}
	})

	for _, code := range []int{500, 502, 503, 429} {
		t.Run("HTTP "+http.StatusText(code), func(t *testing.T) {
			w, b, c, connB := twoRoutes(t, "2s", "up-b", "up-c")
			b.set(status(code))
			if _, via, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-2")); err != nil || via.ID != "up-c" {
				t.Fatalf("via %q, %v", via.ID, err)
			}
			if len(b.received()) != 1 || len(c.received()) != 1 {
				t.Errorf("B %v, C %v", b.received(), c.received())
			}
		})
	}

	t.Run("time limit after the request left: the same route only, same key", func(t *testing.T) {
		w, b, c, connB := twoRoutes(t, "300ms", "up-b", "up-c")
		release := make(chan struct{})
		b.set(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
			accept(w, r)
		})
		_, _, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-3"))
		var ue *Error
		if !errors.As(err, &ue) || !ue.Timeout() || !strings.Contains(err.Error(), "stays with connection up-b") {
			t.Fatalf("first attempt: %v", err)
		}
		close(release)
		if got := w.rows(t, "ex-3"); got != "up-b=UNKNOWN" {
			t.Errorf("rows after the time limit: %s", got)
		}
		// B answers 503 now: that says nothing of the first request, so
		// the claim stays pinned and C is never tried.
		b.set(status(http.StatusServiceUnavailable))
		if _, _, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-3")); err == nil {
			t.Fatal("delivered while the pinned route answers 503")
		}
		if len(c.received()) != 0 {
			t.Fatalf("C received %v while B may hold the claim", c.received())
		}
		// B answers again: accepted there, with the same key.
		b.set(accept)
		_, via, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-3"))
		if err != nil || via.ID != "up-b" {
			t.Fatalf("after B is back: via %q, %v", via.ID, err)
		}
		keys := b.received()
		if len(keys) != 3 || keys[0] != "ex-3" || keys[1] != "ex-3" || keys[2] != "ex-3" || len(c.received()) != 0 {
			t.Errorf("B received %v (want ex-3 three times: one submission), C %v", keys, c.received())
		}
		if got := w.rows(t, "ex-3"); got != "up-b=ACCEPTED" {
			t.Errorf("rows: %s", got)
		}
		if strings.Join(w.events, ",") != "up-b ambiguous,up-b ambiguous,up-b answered" {
			t.Errorf("route events: %v", w.events)
		}
	})
	t.Run("504 and a reset after the request: ambiguous", func(t *testing.T) {
		for name, answer := range map[string]func(http.ResponseWriter, *http.Request){
			"504": status(http.StatusGatewayTimeout),
			"reset": func(w http.ResponseWriter, r *http.Request) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					conn.Close()
				}
			},
		} {
			w, b, c, connB := twoRoutes(t, "2s", "up-b", "up-c")
			b.set(answer)
			if _, _, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-4")); err == nil {
				t.Errorf("%s: delivered", name)
			}
			if got := w.rows(t, "ex-4"); got != "up-b=UNKNOWN" || len(c.received()) != 0 {
				t.Errorf("%s: rows %s, C received %v", name, got, c.received())
			}
		}
	})

	t.Run("a refused key: no other route", func(t *testing.T) {
		w, b, c, connB := twoRoutes(t, "2s", "up-b", "up-c")
		b.set(status(http.StatusUnauthorized))
		_, _, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-5"))
		if err == nil || !strings.Contains(err.Error(), "upstream connection up-b") || len(c.received()) != 0 {
			t.Errorf("%v; C received %v", err, c.received())
		}
		if got := w.rows(t, "ex-5"); got != "up-b=NOT_ACCEPTED" {
			t.Errorf("rows: %s", got)
		}
	})

	t.Run("a crash after SENDING pins the route", func(t *testing.T) {
		w, _, c, connB := twoRoutes(t, "2s", "up-c", "up-b")
		// The process died after writing SENDING for up-b, before the answer.
		if err := w.d.mark(ctx, w.file(connB, "ex-6").Execution, "up-b", store.UpstreamSending, ""); err != nil {
			t.Fatal(err)
		}
		_, via, err := w.d.DeliverRouted(ctx, w.file(connB, "ex-6"))
		if err != nil || via.ID != "up-b" || len(c.received()) != 0 {
			t.Errorf("via %q, %v; C received %v (C is the first route, but B may hold the claim)", via.ID, err, c.received())
		}
	})
}

// TestClaimRoutesStayInTheAccount: a payer's claims route that names a
// connection only another account has is not used: one account's claim
// never goes out with another account's upstream key.
func TestClaimRoutesStayInTheAccount(t *testing.T) {
	w := newClaimWorld(t)
	b, c := newFakeUpstream(t), newFakeUpstream(t)
	connB := w.connect(t, w.account, "up-b", b, "2s")
	other := w.newAccount(t, "Other")
	w.connect(t, other, "up-c", c, "2s")
	w.routes = []string{"up-b", "up-c"}
	b.srv.Close()
	_, _, err := w.d.DeliverRouted(context.Background(), w.file(connB, "ex-7"))
	if err == nil || !strings.Contains(err.Error(), "claims route up-c: no CLEARINGHOUSE_API connection of that id in this account") {
		t.Errorf("err = %v", err)
	}
	if got := c.received(); len(got) != 0 {
		t.Errorf("the other account's upstream received %v", got)
	}
	if strings.Join(w.events, ",") != "up-b failover,up-c skipped" {
		t.Errorf("route events: %v", w.events)
	}
}
