package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestSFTPPasswordGuessing reproduces issue 20 item 6 against serve's SFTP
// server: a wrong password and an unknown user are refused in about the
// same time (no user enumeration by timing); a flood of wrong passwords
// from one address leaves the API's latency low; and after it, the
// address and the user are locked out: even the right password is refused,
// at once.
func TestSFTPPasswordGuessing(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, err := store.Open(ctx, data, "", store.PostgresTimeouts{})
	if err != nil {
		t.Fatal(err)
	}
	key, rec, err := auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	hash, _ := bcrypt.GenerateFromPassword([]byte("the-right-password"), bcrypt.DefaultCost)
	if err := st.CreateSFTPUser(ctx, store.SFTPUser{Username: "billing-co", AccountID: rec.AccountID, Mode: store.ModeTest,
		PasswordHash: string(hash), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	sftpAddr := freePort(t)
	base, _ := startServe(t, data, func(c *serveConfig) { c.sftpListen = sftpAddr })

	signIn := func(user, password string) (time.Duration, error) {
		start := time.Now()
		conn, err := ssh.Dial("tcp", sftpAddr, &ssh.ClientConfig{User: user, Auth: []ssh.AuthMethod{ssh.Password(password)},
			HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 20 * time.Second})
		if err == nil {
			conn.Close()
		}
		return time.Since(start), err
	}
	apiP50 := func(n int) time.Duration {
		var took []time.Duration
		for range n {
			start := time.Now()
			if code, body := get(t, base+"/2023-08-01/webhooks", key); code != 200 {
				t.Fatalf("API: %d %s", code, body)
			}
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		return took[len(took)/2]
	}
	quiet := apiP50(30)

	// Timing: 5 wrong passwords of a real user, 5 of unknown users
	// (within the lockout limits), alternating.
	var wrong, unknown []time.Duration
	for i := range 5 {
		d, err := signIn("billing-co", fmt.Sprintf("guess-%d", i))
		if err == nil {
			t.Fatal("a wrong password signed in")
		}
		wrong = append(wrong, d)
		d, _ = signIn(fmt.Sprintf("nobody-%d", i), "guess")
		unknown = append(unknown, d)
	}
	slices.Sort(wrong)
	slices.Sort(unknown)
	ratio := float64(wrong[2]) / float64(unknown[2])
	t.Logf("median refusal: wrong password %s, unknown user %s (%.1f×)", wrong[2], unknown[2], ratio)
	if ratio > 3 || ratio < 1.0/3 {
		t.Errorf("a wrong password takes %.1f× as long as an unknown user: user names can be told apart by timing", ratio)
	}

	// The flood: 8 callers guessing for 3 s, while the API is measured.
	var attempts atomic.Int64
	floodCtx, stop := context.WithTimeout(ctx, 3*time.Second)
	defer stop()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; floodCtx.Err() == nil; i++ {
				signIn("billing-co", fmt.Sprintf("flood-%d-%d", g, i))
				attempts.Add(1)
			}
		})
	}
	time.Sleep(200 * time.Millisecond)
	flooded := apiP50(40)
	wg.Wait()
	t.Logf("API p50: %s quiet, %s under %d wrong SFTP passwords in 3 s", quiet, flooded, attempts.Load())
	if flooded > 50*time.Millisecond && flooded > 10*quiet {
		t.Errorf("API p50 rose from %s to %s under an SFTP password flood", quiet, flooded)
	}

	// Locked out now: the right password is refused, without a bcrypt
	// comparison.
	d, err := signIn("billing-co", "the-right-password")
	t.Logf("the right password after the flood: %v in %s", err, d)
	if err == nil {
		t.Error("the right password signed in right after a flood of wrong ones: no lockout")
	} else if d > 40*time.Millisecond && d > wrong[2]/2 {
		t.Errorf("a locked-out sign-in took %s: it still runs bcrypt", d)
	}
}
