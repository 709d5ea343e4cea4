package sftpconn_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/sftpconn"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestLocalDeliversOnlyToOwnUser: an SFTP_SERVER connection delivers only
// to an SFTP user of its own account and mode (a connection stored before
// that rule, or whose user was deleted and made again by another account,
// fails), under a name Clearhouse makes.
func TestLocalDeliversOnlyToOwnUser(t *testing.T) {
	ctx := context.Background()
	st := storetest.SQLite(t)
	now := time.Now()
	for _, a := range []string{"acme", "beta"} {
		if err := st.CreateAccount(ctx, store.Account{ID: a, Name: a, CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []store.SFTPUser{
		{Username: "acme-prod", AccountID: "acme", Mode: store.ModeProduction},
		{Username: "acme-test", AccountID: "acme", Mode: store.ModeTest},
		{Username: "beta-prod", AccountID: "beta", Mode: store.ModeProduction},
	} {
		u.PublicKeys, u.CreatedAt = "ssh-ed25519 AAAA", now
		if err := st.CreateSFTPUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	root := t.TempDir()
	srv, err := sftpd.New(sftpd.Config{Root: filepath.Join(root, "sftp"), HostKeyFile: filepath.Join(root, "host_key")})
	if err != nil {
		t.Fatal(err)
	}
	local := &sftpconn.Local{Server: srv, Users: st}
	file := func(username string) delivery.File {
		return delivery.File{
			Connection: store.Connection{ID: "c", AccountID: "acme", Mode: store.ModeProduction, Type: store.ConnectionSFTPServer,
				Settings: []byte(`{"username":"` + username + `"}`)},
			// A 999 is named after the file it answers, which the
			// uploader chose: here, one of beta's own 999s.
			Execution: store.Execution{ID: "0d6c4c0e-2d33-5b8f-9a51-6c2d0c1b7e11", AccountID: "acme", Mode: store.ModeProduction,
				SourceName: "999-999-beta.x12"},
			Body: []byte("ISA*00~"),
		}
	}
	for _, user := range []string{"beta-prod", "acme-test", "nobody"} {
		if msg, err := local.Deliver(ctx, file(user)); err == nil {
			t.Errorf("delivered to %s: %s", user, msg)
		}
		if out, _ := os.ReadDir(filepath.Join(root, "sftp", user, "outbound")); len(out) != 0 {
			t.Errorf("%s's outbound/ holds %d files", user, len(out))
		}
	}
	msg, err := local.Deliver(ctx, file("acme-prod"))
	if err != nil {
		t.Fatal(err)
	}
	want := "999-0d6c4c0e-2d33-5b8f-9a51-6c2d0c1b7e11.x12"
	if _, err := os.Stat(filepath.Join(root, "sftp", "acme-prod", "outbound", want)); err != nil {
		t.Errorf("%s: %v (%s)", want, err, msg)
	}
}
