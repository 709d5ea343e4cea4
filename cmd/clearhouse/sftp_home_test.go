package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestSFTPUserNameReusedStartsEmpty: an SFTP user's folders are its
// account and mode's, so a user name deleted and made again by another
// account (or mode) never sees the first owner's files — before, both
// were DATA/sftp/<user> and the new owner downloaded the old one's 999s.
func TestSFTPUserNameReusedStartsEmpty(t *testing.T) {
	ctx := context.Background()
	st := storetest.SQLite(t)
	data := t.TempDir()
	blobs, err := blob.Open(ctx, "", data)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	quiet := slog.New(slog.DiscardHandler)
	edi, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: jobs.New(st, jobs.Options{Logger: quiet}), Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := services.NewSFTPServer(services.SFTPConfig(data), st, edi, quiet)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"acme", "beta"} {
		if err := st.CreateAccount(ctx, store.Account{ID: a, Name: a, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	user := func(account, mode string) {
		if err := st.CreateSFTPUser(ctx, store.SFTPUser{Username: "billing", AccountID: account, Mode: mode,
			PublicKeys: "ssh-ed25519 AAAA", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	user("acme", store.ModeProduction)
	if err := srv.PutOutbound("billing", "999-acme.x12", strings.NewReader("ISA*acme's 999~")); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSFTPUser(ctx, "billing"); err != nil {
		t.Fatal(err)
	}
	for _, owner := range [][2]string{{"beta", store.ModeProduction}, {"acme", store.ModeTest}} {
		user(owner[0], owner[1])
		if err := srv.PutOutbound("billing", "999-new.x12", strings.NewReader("ISA*new~")); err != nil {
			t.Fatal(err)
		}
		out, _ := os.ReadDir(filepath.Join(data, "sftp", owner[0], owner[1], "billing", "outbound"))
		if len(out) != 1 || out[0].Name() != "999-new.x12" {
			t.Errorf("%s/%s's outbound/: %v, want only its own file", owner[0], owner[1], out)
		}
		if err := st.DeleteSFTPUser(ctx, "billing"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "sftp", "acme", store.ModeProduction, "billing", "outbound", "999-acme.x12")); err != nil {
		t.Errorf("the first owner's file: %v", err)
	}
	// A name no user has gets no folder.
	if err := srv.PutOutbound("billing", "x.x12", strings.NewReader("x")); err == nil {
		t.Error("PutOutbound for a deleted user: no error")
	}
}
