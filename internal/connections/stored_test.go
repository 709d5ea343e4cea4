package connections

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// sealStored seals a stored connection's secrets as package partners does
// (bound to the account, mode, connection and name).
func sealStored(t *testing.T, box *secrets.Box, c *store.Connection, values map[string]string) {
	t.Helper()
	out := map[string]string{}
	for name, v := range values {
		s, err := box.SealString(v, store.ConnectionSecretsContext(c.AccountID, c.Mode, c.ID)+":"+name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = s
	}
	b, _ := json.Marshal(out)
	c.SealedSecrets = string(b)
}

// TestStoredConnectionsAreTheSameModel: an account's stored connections
// become the same Definitions and clients as the --payers file's, and
// `connections test` checks every type: an upstream's key with a probe
// that reaches no payer, and says what the local types are.
func TestStoredConnectionsAreTheSameModel(t *testing.T) {
	box := testBox(t)
	var probes int
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		probes++
		if r.Header.Get("Authorization") != "Key good-key" {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"message":"Unauthorized"}`))
			return
		}
		w.WriteHeader(http.StatusBadRequest) // the probe's body is no object
	}))
	defer upstream.Close()
	conn := func(id, typ, settings string, secrets map[string]string) store.Connection {
		c := store.Connection{ID: id, AccountID: "acct-1", Mode: store.ModeProduction, Type: typ, Settings: []byte(settings)}
		if secrets != nil {
			sealStored(t, box, &c, secrets)
		}
		return c
	}
	up := `{"url":"` + upstream.URL + `/2024-04-01","coreUrl":"` + upstream.URL + `/2023-08-01","timeout":"5s","transactions":["claims"]}`
	stored := []store.Connection{
		conn("up-good", store.ConnectionClearinghouseAPI, up, map[string]string{"apiKey": "good-key"}),
		conn("up-bad", store.ConnectionClearinghouseAPI, up, map[string]string{"apiKey": "wrong-key"}),
		conn("mock", store.ConnectionMock, `{}`, nil),
		conn("upload", store.ConnectionHTTPUpload, `{}`, nil),
		conn("sftp-in", store.ConnectionSFTPServer, `{"username":"partner1"}`, nil),
		conn("folders", store.ConnectionDirectory, `{"inboundPath":"in","outboundPath":"out"}`, nil),
	}
	set, err := FromStored(stored, box)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := set.Get("up-good")
	if d.Type != ClearinghouseAPI || d.CoreURL != upstream.URL+"/2023-08-01" || !d.Carries(TxClaims) || d.Carries(TxEligibility) ||
		d.Timeout != Duration(5e9) || set.secret("up-good", FieldAPIKey) != "good-key" {
		t.Errorf("definition: %+v", d)
	}
	opts := Options{Guard: netguard.New(netguard.Options{AllowPrivate: true})}
	want := map[string]string{
		"up-good": "dns ok, tcp ok, auth ok, path ok",
		"up-bad":  "dns ok, tcp ok, auth FAILED",
		"mock":    "local ok",
		"upload":  "local ok",
		"sftp-in": "local ok",
		"folders": "local ok",
	}
	for id, steps := range want {
		r, err := set.Test(context.Background(), id, opts)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var got []string
		for _, st := range r.Steps {
			mark := "ok"
			if !st.OK {
				mark = "FAILED"
			}
			got = append(got, st.Name+" "+mark)
		}
		if strings.Join(got, ", ") != steps {
			t.Errorf("%s: %s, want %s (%+v)", id, strings.Join(got, ", "), steps, r.Steps)
		}
		if id == "up-bad" && !strings.Contains(r.Failed().Detail, "check apiKey of connection up-bad") {
			t.Errorf("up-bad: %s", r.Failed().Detail)
		}
	}
	if probes != 2 {
		t.Errorf("the upstream got %d probes, want 2", probes)
	}

	// Secrets open only under their own record: a connection copied to
	// another account does not open, nor without a key.
	moved := stored[0]
	moved.AccountID = "acct-2"
	if _, err := FromStored([]store.Connection{moved}, box); err == nil || !strings.Contains(err.Error(), "up-good") {
		t.Errorf("another account's sealed key opened: %v", err)
	}
	if _, err := FromStored(stored[:1], nil); err == nil {
		t.Error("secrets opened without a key")
	}
}

func TestTestDirectoryOfTheFile(t *testing.T) {
	dir := t.TempDir()
	set, err := NewSet([]Definition{{ID: "here", Type: Directory, Path: dir}, {ID: "gone", Type: Directory, Path: dir + "/missing"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, ok := range map[string]bool{"here": true, "gone": false} {
		r, err := set.Test(context.Background(), id, Options{})
		if err != nil || r.OK() != ok {
			t.Errorf("%s: %+v %v", id, r, err)
		}
	}
}
