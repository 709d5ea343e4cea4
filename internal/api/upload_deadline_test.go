package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// uploadServer is a real HTTP server whose ReadTimeout (1 s) is shorter
// than an upload of its file size limit (4 MiB) takes at the minimum
// upload rate (1 MiB/s) after base: base + 4 s.
func uploadServer(t *testing.T, base time.Duration) (url, key string) {
	t.Helper()
	ctx := context.Background()
	st := storetest.SQLite(t)
	srv := apptest.New(t, apptest.Options{Store: st, MaxFileBytes: 4 << 20,
		API: api.Options{Upload: api.UploadPace{ReadBase: base, MinRate: 1 << 20}}}).API
	var err error
	hs := httptest.NewUnstartedServer(srv)
	hs.Config.ReadTimeout, hs.Config.WriteTimeout = time.Second, 2*time.Second
	hs.Start()
	t.Cleanup(hs.Close)
	if key, _, err = auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	return hs.URL, key
}

// slowBody sends n bytes in 64 KiB pieces, pausing between them.
type slowBody struct {
	left  int
	pause time.Duration
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.left == 0 {
		return 0, io.EOF
	}
	time.Sleep(b.pause)
	n := min(len(p), b.left, 64<<10)
	copy(p, bytes.Repeat([]byte("A"), n))
	b.left -= n
	return n, nil
}

// TestSlowUploadOutlastsTheReadTimeout: a 2 MiB upload sent at ~1 MiB/s
// takes twice the server's read timeout and is accepted (it was cut at
// the read timeout and answered 503 "send it again shortly").
func TestSlowUploadOutlastsTheReadTimeout(t *testing.T) {
	t.Parallel()
	url, key := uploadServer(t, 10*time.Second) // a loaded machine may send slower
	const size = 2 << 20
	req, _ := http.NewRequest("POST", url+"/2023-08-01/files/inbound?name=big.x12", &slowBody{left: size, pause: 60 * time.Millisecond})
	req.ContentLength = size
	req.Header.Set("Authorization", key)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	t.Logf("%d after %s: %s", resp.StatusCode, time.Since(start).Round(time.Millisecond), body)
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("a %d-byte upload over %s: %d %s, want 202", size, time.Since(start).Round(time.Millisecond), resp.StatusCode, body)
	}
}

// TestStalledUploadAnswers408: a client that stops sending mid-body gets
// 408 REQUEST_TIMEOUT in the contract's error format once the upload's
// deadline passes, not a 503 that asks it to send again.
func TestStalledUploadAnswers408(t *testing.T) {
	t.Parallel()
	url, key := uploadServer(t, time.Second)
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /2023-08-01/files/inbound?name=big.x12 HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\nContent-Length: %d\r\n\r\n", key, 3<<20)
	conn.Write(bytes.Repeat([]byte("A"), 100<<10)) // then nothing more
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer after %s: %v", time.Since(start), err)
	}
	defer resp.Body.Close()
	var e struct{ Code, Message string }
	raw, _ := io.ReadAll(resp.Body)
	json.Unmarshal(raw, &e)
	took := time.Since(start)
	t.Logf("%d after %s: %s", resp.StatusCode, took.Round(time.Millisecond), raw)
	if resp.StatusCode != http.StatusRequestTimeout || e.Code != "REQUEST_TIMEOUT" || e.Message == "" {
		t.Errorf("a stalled upload: %d %s, want 408 REQUEST_TIMEOUT", resp.StatusCode, raw)
	}
	if took < 4*time.Second || took > 15*time.Second {
		t.Errorf("answered after %s, want at the upload's deadline (5 s)", took)
	}
}
