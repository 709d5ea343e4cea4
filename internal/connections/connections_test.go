package connections

import (
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

func testBox(t *testing.T) *secrets.Box {
	t.Helper()
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, err := secrets.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func seal(t *testing.T, box *secrets.Box, id, field, value string) string {
	t.Helper()
	v, err := box.SealString(value, SealContext(id, field))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// upstreamFile is a --payers file with one CLEARINGHOUSE_API connection "x".
func upstreamFile(fields string) string {
	return `{"connections":[{"id":"x","type":"CLEARINGHOUSE_API",` + fields + `}]}`
}

func TestParse(t *testing.T) {
	box, other := testBox(t), testBox(t)
	sealed := seal(t, box, "uhc-core", FieldPassword, "pw")
	core := func(password string) string {
		return `{"payers":[{"id":"87726","connection":"uhc-core"}],"connections":[{"id":"uhc-core","type":"CAQH_CORE","url":"https://core.example.com/core",` +
			`"senderId":"CLEARHOUSE","receiverId":"87726","username":"clearhouse","password":"` + password + `"}]}`
	}
	tests := []struct {
		name, file string
		box        *secrets.Box
		wantErr    string
	}{
		{"sealed password", core(sealed), box, ""},
		{"no connections", `{"payers":[]}`, nil, ""},
		{"plaintext password", core("pw"), box, "password is not sealed; seal it with `clearhouse connections seal --id uhc-core --field password`"},
		{"secrets and no key", core(sealed), nil, "no secrets key configured"},
		{"another key", core(sealed), other, "cannot decrypt"},
		{"sealed for another connection", strings.Replace(core(seal(t, box, "other", FieldPassword, "pw")), `"id":"uhc-core","type"`, `"id":"uhc-core","type"`, 1), box, "cannot decrypt"},
		{"typo in a field", `{"connections":[{"id":"x","type":"DIRECTORY","pth":"/tmp"}]}`, nil, `unknown field "pth"`},
		{"unknown type", `{"connections":[{"id":"x","type":"AS2"}]}`, nil, `type "AS2"`},
		{"declared twice", `{"connections":[{"id":"x","type":"MOCK"},{"id":"x","type":"MOCK"}]}`, nil, "declared twice"},
		{"SFTP without a pinned host key", `{"connections":[{"id":"x","type":"SFTP","host":"h","username":"u","password":"` + seal(t, box, "x", FieldPassword, "p") + `"}]}`, box, "hostKey is required"},
		{"CORE without ids", `{"connections":[{"id":"x","type":"CAQH_CORE","url":"https://h/core","username":"u","password":"` + seal(t, box, "x", FieldPassword, "p") + `"}]}`, box, "senderId and receiverId"},
		{"credentials in the URL", `{"connections":[{"id":"x","type":"CAQH_CORE","url":"https://u:p@h/core"}]}`, nil, "not in the URL"},
		{"upstream", upstreamFile(`"url":"https://hc.example/2024-04-01","coreUrl":"https://core.example/2023-08-01","apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, ""},
		{"upstream for eligibility only", upstreamFile(`"url":"https://hc.example/2024-04-01","transactions":["eligibility"],"apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, ""},
		{"upstream key in the clear", upstreamFile(`"url":"https://hc.example/2024-04-01","transactions":["eligibility"],"apiKey":"k"`), box, "apiKey is not sealed"},
		{"upstream without a key", upstreamFile(`"url":"https://hc.example/2024-04-01","transactions":["eligibility"]`), nil, "apiKey is required"},
		{"upstream claims without coreUrl", upstreamFile(`"url":"https://hc.example/2024-04-01","transactions":["claims"],"apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, "coreUrl is required for claims"},
		{"upstream unknown transaction", upstreamFile(`"url":"https://hc.example/2024-04-01","transactions":["remits"],"apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, `"remits" is not one of`},
		{"upstream key in the URL", upstreamFile(`"url":"https://hc.example/2024-04-01?key=k","transactions":["eligibility"],"apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, "the key goes in apiKey"},
		{"upstream breaker", upstreamFile(`"url":"https://hc.example","transactions":["eligibility"],"breakerOpenFor":"2h","apiKey":"` + seal(t, box, "x", FieldAPIKey, "k") + `"`), box, "breakerOpenFor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.file), tt.box)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
			if s != nil {
				t.Error("a Set came with the error")
			}
		})
	}
	s, err := Parse([]byte(core(sealed)), box)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.secret("uhc-core", FieldPassword); got != "pw" {
		t.Errorf("opened password %q", got)
	}
	conns, err := s.Eligibility(Options{Guard: netguard.New(netguard.Options{})})
	if err != nil || conns["uhc-core"] == nil || len(conns) != 1 {
		t.Errorf("eligibility connections %v, %v", conns, err)
	}
}

// coreServer is a CAQH CORE endpoint over TLS at /core with a fixed login.
func coreServer(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/core", &caqh.Handler{
		Backend:     nil, // the probe never reaches the backend
		Credentials: &caqh.Credentials{Username: "clearhouse", Password: "pw"},
	})
	srv := httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	ca := string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
	return srv, ca
}

func TestConnectionTest(t *testing.T) {
	box := testBox(t)
	srv, ca := coreServer(t)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	downAddr := ln.Addr().String()
	ln.Close()
	def := func(id, url, password, caPEM string) Definition {
		return Definition{ID: id, Type: CAQHCore, URL: url, SenderID: "S", ReceiverID: "R", Username: "clearhouse",
			Password: seal(t, box, id, FieldPassword, password), CACertificate: caPEM, Timeout: Duration(3 * time.Second)}
	}
	tests := []struct {
		def      Definition
		guard    netguard.Options
		wantStep string // the failed step; "" when every step passes
		wantText string
	}{
		{def("ok", srv.URL+"/core", "pw", ca), netguard.Options{AllowPrivate: true}, "", "answers CAQH CORE SOAP"},
		{def("mime", srv.URL+"/core", "pw", ca), netguard.Options{AllowPrivate: true}, "", ""},
		{def("password", srv.URL+"/core", "wrong", ca), netguard.Options{AllowPrivate: true}, "auth", "refused the credentials"},
		{def("path", srv.URL+"/wrong", "pw", ca), netguard.Options{AllowPrivate: true}, "path", "HTTP 404"},
		{def("tls", srv.URL+"/core", "pw", ""), netguard.Options{AllowPrivate: true}, "tls", "certificate"},
		{def("down", "https://"+downAddr+"/core", "pw", ca), netguard.Options{AllowPrivate: true}, "tcp", "cannot connect"},
		{def("dns", "https://no-such-host.invalid/core", "pw", ca), netguard.Options{AllowPrivate: true}, "dns", "cannot resolve"},
		{def("guard", srv.URL+"/core", "pw", ca), netguard.Options{}, "tcp", "SSRF guard"},
	}
	for _, tt := range tests {
		t.Run(tt.def.ID, func(t *testing.T) {
			d := tt.def
			if d.ID == "mime" {
				d.Envelope = "MIME"
			}
			s, err := NewSet([]Definition{d}, box)
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Test(context.Background(), d.ID, Options{Guard: netguard.New(tt.guard)})
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, st := range r.Steps {
				lines = append(lines, fmt.Sprintf("%s ok=%v %s", st.Name, st.OK, st.Detail))
			}
			got := strings.Join(lines, "\n")
			failed := r.Failed()
			switch {
			case tt.wantStep == "" && (!r.OK() || len(r.Steps) != 5):
				t.Fatalf("want every step to pass:\n%s", got)
			case tt.wantStep != "" && (failed == nil || failed.Name != tt.wantStep):
				t.Fatalf("want %s to fail:\n%s", tt.wantStep, got)
			}
			if !strings.Contains(got, tt.wantText) {
				t.Errorf("report lacks %q:\n%s", tt.wantText, got)
			}
		})
	}
}
