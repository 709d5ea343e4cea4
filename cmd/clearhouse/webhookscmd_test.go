package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// syncBuffer is a bytes.Buffer safe for the listener's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startListen(t *testing.T, args ...string) (addr string, stdout, stderr *syncBuffer) {
	t.Helper()
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runListen(ctx, append([]string{"--listen", "127.0.0.1:0"}, args...), stdout, stderr, ready)
	}()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("listen stopped: %v; stderr %s", err, stderr)
	}
	t.Cleanup(func() { cancel(); <-done })
	return addr, stdout, stderr
}

func postSigned(t *testing.T, url, secret, id string, body []byte) *http.Response {
	t.Helper()
	now := time.Now()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	sig, err := webhooks.Sign(id, now, body, secret)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	req.Header.Set("attempt-number", "1")
	req.Header.Set("attempt-type", "AUTOMATIC")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

const listenBody = `{"event":{"version":"0","id":"evt-1","detail-type":"transaction.processed.v2","detail":{}}}`

func TestWebhooksListenPrintVerifies(t *testing.T) {
	secret := webhooks.NewSecret()
	addr, stdout, stderr := startListen(t, "--secret", secret, "--print")
	if resp := postSigned(t, "http://"+addr+"/", secret, "evt-1", []byte(listenBody)); resp.StatusCode != 204 {
		t.Fatalf("signed delivery answered %d", resp.StatusCode)
	}
	out := stdout.String()
	if !strings.Contains(out, "transaction.processed.v2 (webhook-id evt-1, attempt 1 AUTOMATIC)") || !strings.Contains(out, `"detail-type": "transaction.processed.v2"`) {
		t.Errorf("stdout does not show the event:\n%s", out)
	}
	if resp := postSigned(t, "http://"+addr+"/", webhooks.NewSecret(), "evt-2", []byte(listenBody)); resp.StatusCode != 401 {
		t.Errorf("delivery signed with another secret answered %d, want 401", resp.StatusCode)
	}
	resp, _ := http.Post("http://"+addr+"/", "application/json", strings.NewReader(listenBody))
	if resp.StatusCode != 401 {
		t.Errorf("unsigned delivery answered %d, want 401", resp.StatusCode)
	}
	if !strings.Contains(stderr.String(), "no signature in webhook-signature matches") || !strings.Contains(stderr.String(), "are required") {
		t.Errorf("stderr does not report the rejections:\n%s", stderr)
	}
	if strings.Contains(stdout.String(), "evt-2") {
		t.Error("a rejected delivery was printed")
	}
}

func TestWebhooksListenForwards(t *testing.T) {
	var got http.Header
	var gotBody []byte
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, gotBody = r.Header.Clone(), readAll(r.Body)
		w.WriteHeader(202)
	}))
	defer app.Close()
	secret := webhooks.NewSecret()
	addr, _, stderr := startListen(t, "--secret", secret, "--forward-to", app.URL+"/hooks")
	if resp := postSigned(t, "http://"+addr+"/", secret, "evt-1", []byte(listenBody)); resp.StatusCode != 202 {
		t.Fatalf("forwarded delivery answered %d, want the application's 202; stderr %s", resp.StatusCode, stderr)
	}
	if string(gotBody) != listenBody || got.Get("webhook-id") != "evt-1" || got.Get("webhook-signature") == "" {
		t.Errorf("application got body %s and headers %v", gotBody, got)
	}
}

func TestWebhooksListenFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--print"},
		{"--secret", "nope", "--print"},
		{"--secret", "whsec_AAAA"},
		{"--secret", "whsec_AAAA", "--print", "--forward-to", "http://x"},
		{"--secret", "whsec_AAAA", "--forward-to", "ftp://x"},
	} {
		var stderr bytes.Buffer
		err := runListen(context.Background(), args, io.Discard, &stderr, nil)
		if ee, ok := err.(*exitError); !ok || ee.code != 2 {
			t.Errorf("listen %v = %v, want a usage error (exit 2)", args, err)
		}
	}
}

func readAll(r io.Reader) []byte {
	b, _ := io.ReadAll(r)
	return b
}
