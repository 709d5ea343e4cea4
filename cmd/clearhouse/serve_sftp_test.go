package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestSFTPUploadBecomesEvents: a partner logs in to serve's SFTP server
// with OpenSSH's sftp client and uploads an 837P to inbound/; the file
// enters the EDI core and its events come out: file.processed.v2 and one
// transaction.processed.v2, and the file leaves inbound/.
func TestSFTPUploadBecomesEvents(t *testing.T) {
	sftpBin, err := exec.LookPath("sftp")
	if err != nil {
		testenv.Missing(t, "OpenSSH's sftp client is not installed (Debian openssh-client)")
	}
	data := t.TempDir()
	key := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Clinic", "--mode", "test"))

	// The partner who sends 837Ps (ISA sender CLEARHOUSEGEN) to us (PAYERGEN).
	st, err := store.Open(context.Background(), data, "")
	if err != nil {
		t.Fatal(err)
	}
	acc, err := st.GetAccountByName(context.Background(), "Clinic")
	if err != nil {
		t.Fatal(err)
	}
	setup837P(t, st, acc.ID)
	st.Close()

	// Its login: a public key, and a password for a second user.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, _ := ssh.MarshalPrivateKey(priv, "partner")
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600)
	signer, _ := ssh.NewSignerFromKey(priv)
	os.WriteFile(keyFile+".pub", ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o644)
	runOK(t, "sftp", "users", "create", "--data", data, "--account", "Clinic", "--mode", "test", "--username", "billing-co", "--public-key", keyFile+".pub")
	if code, _, errOut := runCmd("sftp", "users", "create", "--data", data, "--account", "Clinic", "--mode", "test", "--username", "billing-co", "--public-key", keyFile+".pub"); code != 1 || !strings.Contains(errOut, "taken") {
		t.Errorf("a taken username: exit %d %s", code, errOut)
	}
	if out := runOK(t, "sftp", "users", "list", "--data", data); !strings.Contains(out, "billing-co") || !strings.Contains(out, "1 key(s)") {
		t.Errorf("users list:\n%s", out)
	}

	sftpAddr := freePort(t)
	base, _ := startServe(t, data, func(c *serveConfig) { c.sftpListen = sftpAddr })
	hostPEM, err := os.ReadFile(filepath.Join(data, "sftp_host_ed25519_key"))
	if err != nil {
		t.Fatal(err)
	}
	hostSigner, _ := ssh.ParsePrivateKey(hostPEM)
	host, port, _ := net.SplitHostPort(sftpAddr)
	known := filepath.Join(t.TempDir(), "known_hosts")
	os.WriteFile(known, []byte(fmt.Sprintf("[%s]:%s %s", host, port, ssh.MarshalAuthorizedKey(hostSigner.PublicKey()))), 0o600)

	var claims bytes.Buffer
	if _, err := x12gen.Generate(&claims, x12gen.Options{Kind: x12gen.Claims837P, Items: 3, LineBreaks: true}); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "claims-0001.x12"), claims.Bytes(), 0o600)
	os.WriteFile(filepath.Join(work, "batch"), []byte("put claims-0001.x12 inbound/claims-0001.x12\nls -l inbound\n"), 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, sftpBin, "-b", "batch", "-P", port, "-i", keyFile, "-F", "/dev/null",
		"-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile="+known, "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
		"billing-co@"+host)
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sftp: %v\n%s", err, out)
	}

	var kinds map[string]int
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		_, body := get(t, base+"/2023-08-01/events", key)
		var page struct {
			Items []struct {
				DetailType string `json:"detail-type"`
			} `json:"items"`
		}
		json.Unmarshal([]byte(body), &page)
		kinds = map[string]int{}
		for _, it := range page.Items {
			kinds[it.DetailType]++
		}
		if kinds["file.processed.v2"] > 0 || kinds["file.failed.v2"] > 0 {
			break
		}
	}
	if kinds["file.processed.v2"] != 1 || kinds["transaction.processed.v2"] != 1 {
		t.Fatalf("events %v, want one file.processed.v2 and one transaction.processed.v2", kinds)
	}
	if left, _ := os.ReadDir(filepath.Join(data, "sftp", "billing-co", "inbound")); len(left) != 0 {
		t.Errorf("inbound/ still holds %v", left)
	}
}

// setup837P gives the account a partnership that takes 837Ps from the
// generator's sender (ZZ/CLEARHOUSEGEN) to us (ZZ/PAYERGEN).
func setup837P(t *testing.T, st store.Store, account string) {
	t.Helper()
	ctx, now := context.Background(), time.Now()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.CreateProfile(ctx, store.Profile{ID: "us-837p", AccountID: account, Mode: store.ModeTest, Type: store.ProfileLocal,
		ISAQualifier: "ZZ", ISAID: "PAYERGEN", ApplicationCode: "PAYERGEN", CreatedAt: now}))
	must(st.CreateProfile(ctx, store.Profile{ID: "billing-co", AccountID: account, Mode: store.ModeTest, Type: store.ProfilePartner,
		ISAQualifier: "ZZ", ISAID: "CLEARHOUSEGEN", ApplicationCode: "CLEARHOUSEGEN", CreatedAt: now}))
	must(st.CreatePartnership(ctx, store.Partnership{ID: "us_billing-co", AccountID: account, Mode: store.ModeTest,
		Type: store.PartnershipTypeX12, LocalProfileID: "us-837p", PartnerProfileID: "billing-co", CreatedAt: now}))
	must(st.CreateTransactionSetting(ctx, store.TransactionSetting{ID: "837p-in", AccountID: account, Mode: store.ModeTest,
		PartnershipID: "us_billing-co", Direction: store.DirectionInbound, GuideID: "005010X222A1",
		TransactionSetIdentifier: "837", Ack999: true, CreatedAt: now}))
}
