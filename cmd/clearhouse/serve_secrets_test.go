package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

// TestSecretsKeyOnTheEmbeddedDefault: without --secrets-key, serve makes a
// private key file in the data directory on first start, so webhooks can
// be created and their secrets still open after a restart; a restart with
// another key is refused, naming the webhook whose secret does not open.
func TestSecretsKeyOnTheEmbeddedDefault(t *testing.T) {
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"))
	base, stop := startServe(t, data)
	info, err := os.Stat(filepath.Join(data, secrets.KeyFileName))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file after first start: %v, %v (want mode 0600)", info, err)
	}
	code, body := call(t, "POST", base+"/2023-08-01/webhooks", key, `{"url": "http://example.com/hook"}`)
	if code != 201 {
		t.Fatalf("create webhook without --secrets-key: %d %s", code, body)
	}
	var hook struct{ ID, Secret string }
	if err := json.Unmarshal([]byte(body), &hook); err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	base, stop = startServe(t, data)
	code, body = get(t, base+"/2023-08-01/webhooks/"+hook.ID+"/secret", key)
	if code != 200 || !strings.Contains(body, hook.Secret) {
		t.Errorf("secret after a restart: %d %s", code, body)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}

	cfg := serveConfig{listen: "127.0.0.1:0", dataDir: data}
	cfg.secrets.key = secrets.NewKey()
	err = serve(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "webhook "+hook.ID) || !strings.Contains(err.Error(), "cannot be opened with this secrets key") {
		t.Errorf("start with another key: %v, want a refusal naming webhook %s", err, hook.ID)
	}
}

// TestSecretsKeyRequiredWithPostgres: replicas must share one key, so a
// missing key is a configuration error at start, before any connection.
func TestSecretsKeyRequiredWithPostgres(t *testing.T) {
	cfg := serveConfig{listen: "127.0.0.1:0", dataDir: t.TempDir(), databaseURL: "postgres://nobody@127.0.0.1:1/none"}
	err := serve(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), nil)
	if err == nil || !strings.Contains(err.Error(), "--secrets-key is required with --database") {
		t.Errorf("PostgreSQL without a key: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cfg.dataDir, secrets.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("a key file was made for a PostgreSQL server (%v)", err)
	}
}
