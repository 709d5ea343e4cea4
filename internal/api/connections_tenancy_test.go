package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// TestConnectionsNameNoServerPath: a DIRECTORY connection is refused
// unless the operator set a directory root, always for a test key, and
// for any folder that is absolute, climbs with "..", or leads out of the
// account's own folder through a link; a folder inside it is stored.
func TestConnectionsNameNoServerPath(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.SQLite(t)
	base := t.TempDir()
	data := filepath.Join(base, "data")
	must(t, os.MkdirAll(data, 0o700))
	dirs, err := tenantdir.Open(filepath.Join(base, "root"), data)
	must(t, err)
	defer dirs.Close()
	testKey, _, err := auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", time.Now())
	must(t, err)
	prodKey, prodRec, err := auth.CreateKey(ctx, st, "Acme", auth.ModeProduction, "", time.Now())
	must(t, err)
	tenantDir := filepath.Join(base, "root", prodRec.AccountID, store.ModeProduction)
	must(t, os.MkdirAll(tenantDir, 0o700))
	must(t, os.Symlink(data, filepath.Join(tenantDir, "stolen")))

	withRoot := apptest.New(t, apptest.Options{Store: st, Directories: dirs}).API
	withoutRoot := apptest.New(t, apptest.Options{Store: st}).API

	for _, tc := range []struct {
		name        string
		srv         *api.Server
		key, folder string
		status      int
		field, want string
	}{
		{"no directory root", withoutRoot, prodKey, "in", 400, "/connectionType", "--directory-root"},
		{"test key", withRoot, testKey, "in", 400, "/connectionType", "only in production mode"},
		{"the data directory", withRoot, prodKey, data, 400, "/settings/inboundPath", "absolute"},
		{"another account's folder", withRoot, prodKey, "../../other/production", 400, "/settings/inboundPath", "'..'"},
		{"a link to the data directory", withRoot, prodKey, "stolen", 400, "/settings/inboundPath", "leads out"},
		{"below a link", withRoot, prodKey, "stolen/blobs", 400, "/settings/inboundPath", "leads out"},
		{"a hidden folder", withRoot, prodKey, ".clearhouse", 400, "/settings/inboundPath", "start with '.'"},
		{"its outbound folder", withRoot, prodKey, "payer-x/outbound", 400, "/settings/outboundPath", "must differ"},
		{"its own folder", withRoot, prodKey, "payer-x/inbound", 201, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"connectionType": "DIRECTORY",
				"settings": map[string]string{"inboundPath": tc.folder, "outboundPath": "payer-x/outbound"}})
			rec := post(tc.srv, "/2023-08-01/x12/connections", tc.key, string(body))
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == 400 {
				wantField(t, rec, tc.field, tc.want)
			}
		})
	}
	if b, err := os.ReadDir(data); err != nil || len(b) != 0 {
		t.Errorf("the data directory changed: %v %v", b, err)
	}
}

// TestSFTPServerConnectionNamesOwnUser: an SFTP_SERVER connection may name
// only an SFTP user of its own account and mode, and names no folder.
func TestSFTPServerConnectionNamesOwnUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := storetest.SQLite(t)
	keyA, recA, err := auth.CreateKey(ctx, st, "Acme", auth.ModeProduction, "", time.Now())
	must(t, err)
	_, recB, err := auth.CreateKey(ctx, st, "Beta", auth.ModeProduction, "", time.Now())
	must(t, err)
	for _, u := range []store.SFTPUser{
		{Username: "acme-prod", AccountID: recA.AccountID, Mode: store.ModeProduction},
		{Username: "acme-test", AccountID: recA.AccountID, Mode: store.ModeTest},
		{Username: "beta-prod", AccountID: recB.AccountID, Mode: store.ModeProduction},
	} {
		u.PublicKeys, u.CreatedAt = "ssh-ed25519 AAAA", time.Now()
		must(t, st.CreateSFTPUser(ctx, u))
	}
	srv := apptest.New(t, apptest.Options{Store: st}).API
	for _, tc := range []struct {
		name, settings string
		status         int
		field, want    string
	}{
		{"another account's user", `{"username":"beta-prod"}`, 400, "/settings/username", `no SFTP user "beta-prod" in this account's production mode`},
		{"the other mode's user", `{"username":"acme-test"}`, 400, "/settings/username", "no SFTP user"},
		{"no such user", `{"username":"nobody"}`, 400, "/settings/username", "no SFTP user"},
		{"a server folder", `{"username":"acme-prod","outboundPath":"/srv/clearhouse/sftp/beta-prod/outbound"}`, 400, "/settings/outboundPath", "unknown setting"},
		{"its own user", `{"username":"acme-prod"}`, 201, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := post(srv, "/2023-08-01/x12/connections", keyA, `{"connectionType":"SFTP_SERVER","settings":`+tc.settings+`}`)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == 400 {
				wantField(t, rec, tc.field, tc.want)
			}
		})
	}
	// Changing a stored connection to another account's user is refused too.
	rec := post(srv, "/2023-08-01/x12/connections", keyA, `{"connectionId":"own","connectionType":"SFTP_SERVER","settings":{"username":"acme-prod"}}`)
	if rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	req := httptest.NewRequest(http.MethodPut, "/2023-08-01/x12/connections/own", strings.NewReader(`{"connectionType":"SFTP_SERVER","settings":{"username":"beta-prod"}}`))
	req.Header.Set("Authorization", keyA)
	req.Header.Set("Content-Type", "application/json")
	put := httptest.NewRecorder()
	srv.ServeHTTP(put, req)
	if put.Code != 400 {
		t.Fatalf("update to another account's user: %d %s", put.Code, put.Body)
	}
}

func post(srv *api.Server, path, key, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Authorization", key)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// wantField checks a 400 names field with a message holding want.
func wantField(t *testing.T, rec *httptest.ResponseRecorder, field, want string) {
	t.Helper()
	var e api.Error
	if err := json.NewDecoder(io.Reader(rec.Body)).Decode(&e); err != nil {
		t.Fatal(err)
	}
	for _, f := range e.FieldList {
		if f.Path == field && strings.Contains(f.Message, want) {
			return
		}
	}
	t.Errorf("no field %s saying %q in %+v", field, want, e.FieldList)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSFTPHostPassesTheGuard: an SFTP connection's host that the SSRF
// guard would never dial is refused when the connection is stored (a name
// is checked when it is resolved and dialled).
func TestSFTPHostPassesTheGuard(t *testing.T) {
	t.Parallel()
	srv, key := guardedAPI(t)
	for _, tc := range []struct {
		host   string
		status int
	}{
		{"169.254.169.254", 400}, {"127.0.0.1", 400}, {"localhost", 400}, {"10.0.0.5", 400}, {"[::1]", 400},
		{"sftp.payer.example", 201}, {"8.8.8.8", 201}, {"::ffff:127.0.0.1", 400},
	} {
		body := `{"connectionType":"SFTP","settings":{"host":"` + tc.host + `","username":"clinic","hostKey":"SHA256:abc"},"secrets":{"password":"pw"}}`
		rec := post(srv, "/2023-08-01/x12/connections", key, body)
		if rec.Code != tc.status {
			t.Errorf("host %s: %d, want %d: %s", tc.host, rec.Code, tc.status, rec.Body)
			continue
		}
		if tc.status == 400 {
			wantField(t, rec, "/settings/host", "never connects to")
		}
	}
}

// TestUpstreamURLPassesTheGuard: an upstream connection's url or coreUrl
// at an address the SSRF guard would never dial is refused when the
// connection is stored, as an SFTP host is, at the setting that names it
// (it was accepted, and failed only at its first call or poll).
func TestUpstreamURLPassesTheGuard(t *testing.T) {
	t.Parallel()
	srv, key := guardedAPI(t)
	const public = "https://api.upstream.example/2024-04-01"
	for _, tc := range []struct {
		connType, url, coreURL string
		field                  string // refused at; "" for 201
	}{
		{"CLEARINGHOUSE_API", "http://169.254.169.254/latest", "", "/settings/url"},
		{"CLEARINGHOUSE_API", "http://127.0.0.1:8080/2024-04-01", "", "/settings/url"},
		{"CLEARINGHOUSE_API", "http://localhost/2024-04-01", "", "/settings/url"},
		{"CLEARINGHOUSE_API", "https://10.0.0.5/2024-04-01", "", "/settings/url"},
		{"CLEARINGHOUSE_API", "https://[::1]/2024-04-01", "", "/settings/url"},
		{"CLEARINGHOUSE_API", public, "http://169.254.169.254/2023-08-01", "/settings/coreUrl"},
		{"CAQH_CORE", "https://192.168.1.10/core", "", "/settings/url"},
		{"CLEARINGHOUSE_API", public, "https://8.8.8.8/2023-08-01", ""},
		{"CLEARINGHOUSE_API", public, "", ""},
	} {
		settings := `"url":"` + tc.url + `"`
		if tc.coreURL != "" {
			settings += `,"coreUrl":"` + tc.coreURL + `"`
		}
		secrets := `{"apiKey":"k"}`
		if tc.connType == "CAQH_CORE" {
			settings += `,"senderId":"S","receiverId":"R"`
			secrets = `{"username":"u","password":"p"}`
		}
		rec := post(srv, "/2023-08-01/x12/connections", key, `{"connectionType":"`+tc.connType+`","settings":{`+settings+`},"secrets":`+secrets+`}`)
		want := http.StatusCreated
		if tc.field != "" {
			want = http.StatusBadRequest
		}
		if rec.Code != want {
			t.Errorf("%s %s %s: %d, want %d: %s", tc.connType, tc.url, tc.coreURL, rec.Code, want, rec.Body)
			continue
		}
		if tc.field != "" {
			wantField(t, rec, tc.field, "never connects to")
		}
	}
}

// guardedAPI is an API whose SSRF guard refuses private addresses, and a
// production key of an account on it.
func guardedAPI(t *testing.T) (*api.Server, string) {
	st := storetest.SQLite(t)
	key, _, err := auth.CreateKey(context.Background(), st, "Acme", auth.ModeProduction, "", time.Now())
	must(t, err)
	return apptest.New(t, apptest.Options{Store: st, Secrets: true, RefusePrivateConnections: true}).API, key
}
