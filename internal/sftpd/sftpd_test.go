package sftpd

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// received records what OnInbound was handed.
type received struct {
	mu    sync.Mutex
	files map[string][]byte // user/name → content
	calls int
}

func (r *received) onInbound(_ context.Context, user, name string, f *os.File) error {
	b, err := io.ReadAll(f)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.files[user+"/"+name] = b
	return nil
}

func (r *received) get(key string) ([]byte, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.files[key], r.calls
}

type fixture struct {
	srv     *Server
	addr    string
	dir     string
	got     *received
	clientK ssh.Signer // partner's key, authorized for user "partner1"
	keyFile string     // the same key, OpenSSH format, for the sftp command
}

func start(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, _ := ssh.MarshalPrivateKey(priv, "partner1")
	keyFile := filepath.Join(dir, "partner1_key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, _ := ssh.NewSignerFromKey(priv)
	got := &received{files: map[string][]byte{}}
	srv, err := New(Config{
		HostKeyFile: filepath.Join(dir, "host_key"), Root: filepath.Join(dir, "users"),
		Password: func(u, p string) bool { return u == "partner2" && p == "right" },
		PublicKey: func(u string, k ssh.PublicKey) bool {
			return u == "partner1" && bytes.Equal(k.Marshal(), signer.PublicKey().Marshal())
		},
		OnInbound: got.onInbound, MaxFileBytes: 1 << 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &fixture{srv: srv, addr: ln.Addr().String(), dir: dir, got: got, clientK: signer, keyFile: keyFile}
}

// openssh runs OpenSSH's sftp client in batch mode as partner1, pinning
// the server's host key.
func (f *fixture) openssh(t *testing.T, batch string) (string, error) {
	t.Helper()
	bin, err := exec.LookPath("sftp")
	if err != nil {
		testenv.Missing(t, "OpenSSH's sftp client is not installed (Debian openssh-client)")
	}
	host, port, _ := net.SplitHostPort(f.addr)
	known := filepath.Join(f.dir, "known_hosts")
	line := fmt.Sprintf("[%s]:%s %s", host, port, ssh.MarshalAuthorizedKey(f.srv.HostKey()))
	if err := os.WriteFile(known, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	batchFile := filepath.Join(f.dir, "batch")
	os.WriteFile(batchFile, []byte(batch), 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-b", batchFile, "-P", port, "-i", f.keyFile,
		"-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile="+known, "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-F", "/dev/null", "partner1@"+host)
	cmd.Dir = f.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestOpenSSHUploadIsHandedOverOnce(t *testing.T) {
	f := start(t)
	claim := []byte("ISA*00*          *00*          *ZZ*PARTNER1       *ZZ*CLEARHOUSE     *240501*1200*^*00501*000000001*0*T*:~IEA*0*000000001~")
	os.WriteFile(filepath.Join(f.dir, "claim.x12"), claim, 0o600)
	out, err := f.openssh(t, "put claim.x12 inbound/claim.x12\nls inbound\nls outbound\n")
	if err != nil {
		t.Fatalf("sftp: %v\n%s", err, out)
	}
	got, calls := f.got.get("partner1/claim.x12")
	if !bytes.Equal(got, claim) || calls != 1 {
		t.Fatalf("handed over %q in %d calls", got, calls)
	}
	left, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/inbound"))
	staged, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/.staging"))
	if len(left) != 0 || len(staged) != 0 {
		t.Errorf("files left behind: inbound %v, staging %v", left, staged)
	}
}

func TestOpenSSHIsConfined(t *testing.T) {
	f := start(t)
	if err := f.srv.PutOutbound("partner1", "277CA-1.x12", strings.NewReader("ST*277*0001~")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(f.dir, "x"), []byte("x"), 0o600)
	out, err := f.openssh(t, "get outbound/277CA-1.x12 downloaded.x12\n")
	if err != nil {
		t.Fatalf("download: %v\n%s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(f.dir, "downloaded.x12")); string(b) != "ST*277*0001~" {
		t.Errorf("downloaded %q", b)
	}
	for _, cmd := range []string{"get ../partner2/inbound/x y", "get /etc/passwd y", "put x outbound/x", "put x x", "mkdir inbound/sub", "put x ../x", "rm inbound", "symlink outbound/277CA-1.x12 inbound/l"} {
		out, err := f.openssh(t, cmd+"\n")
		if err == nil {
			t.Errorf("%q succeeded:\n%s", cmd, out)
		}
	}
	if _, calls := f.got.get(""); calls != 0 {
		t.Errorf("%d files handed over", calls)
	}
}

// dial logs in with the Go client (pkg/sftp) as partner1.
func (f *fixture) dial(t *testing.T) (*ssh.Client, *sftp.Client) {
	t.Helper()
	conn, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "partner1", Auth: []ssh.AuthMethod{ssh.PublicKeys(f.clientK)},
		HostKeyCallback: ssh.FixedHostKey(f.srv.HostKey()), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sftp.NewClient(conn)
	if err != nil {
		t.Fatal(err)
	}
	return conn, c
}

func TestHalfUploadIsNeverProcessed(t *testing.T) {
	f := start(t)
	conn, c := f.dial(t)
	w, err := c.Create("inbound/claim.x12")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat([]byte("A"), 40000)); err != nil {
		t.Fatal(err)
	}
	conn.Close() // the connection drops before the client closes the file
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		staged, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/.staging"))
		if len(staged) == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, calls := f.got.get(""); calls != 0 {
		t.Fatalf("a half-uploaded file was handed over")
	}
	staged, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/.staging"))
	inbound, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/inbound"))
	if len(staged) != 0 || len(inbound) != 0 {
		t.Errorf("partial upload left: staging %v, inbound %v", staged, inbound)
	}
}

func TestTemporaryNameIsProcessedOnRename(t *testing.T) {
	f := start(t)
	_, c := f.dial(t)
	w, err := c.Create("inbound/.claim.x12.part")
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("ISA*whole file~"))
	w.Close()
	if _, calls := f.got.get(""); calls != 0 {
		t.Fatal("a temporary name was handed over before its rename")
	}
	if err := c.PosixRename("inbound/.claim.x12.part", "inbound/claim.x12"); err != nil {
		t.Fatal(err)
	}
	if got, calls := f.got.get("partner1/claim.x12"); string(got) != "ISA*whole file~" || calls != 1 {
		t.Errorf("after rename: %q, %d calls", got, calls)
	}
}

func TestLoginAndHostKey(t *testing.T) {
	f := start(t)
	for _, pw := range []string{"wrong", ""} {
		_, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "partner2", Auth: []ssh.AuthMethod{ssh.Password(pw)},
			HostKeyCallback: ssh.FixedHostKey(f.srv.HostKey()), Timeout: 5 * time.Second})
		if err == nil {
			t.Errorf("password %q logged in", pw)
		}
	}
	conn, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "partner2", Auth: []ssh.AuthMethod{ssh.Password("right")},
		HostKeyCallback: ssh.FixedHostKey(f.srv.HostKey()), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	// The host key is kept: a second server on the same file has it.
	again, err := New(Config{HostKeyFile: filepath.Join(f.dir, "host_key"), Root: filepath.Join(f.dir, "users")})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.HostKey().Marshal(), f.srv.HostKey().Marshal()) {
		t.Error("the host key changed across restarts")
	}
	if fi, _ := os.Stat(filepath.Join(f.dir, "host_key")); fi.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %v", fi.Mode())
	}
}

// TestRenameWhileOpenHandsOverOnClose: a client renames "x.part" to "x"
// with its handle still open, writes the rest, then closes: the file is
// handed over once, whole, at the close (not half of it at the rename).
func TestRenameWhileOpenHandsOverOnClose(t *testing.T) {
	whole := bytes.Repeat([]byte("ISA*0123456789~\n"), 48)[:761]
	for _, method := range []string{"Rename", "PosixRename"} {
		t.Run(method, func(t *testing.T) {
			f := start(t)
			_, c := f.dial(t)
			w, err := c.Create("inbound/claims.x12.part")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(whole[:380]); err != nil {
				t.Fatal(err)
			}
			rename := c.Rename
			if method == "PosixRename" {
				rename = c.PosixRename
			}
			if err := rename("inbound/claims.x12.part", "inbound/claims.x12"); err != nil {
				t.Fatalf("rename while open: %v", err)
			}
			if got, calls := f.got.get("partner1/claims.x12"); calls != 0 {
				t.Fatalf("handed over at the rename, with its handle open: %d of %d bytes", len(got), len(whole))
			}
			if _, err := w.Write(whole[380:]); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatalf("close: %v", err)
			}
			got, calls := f.got.get("partner1/claims.x12")
			if calls != 1 || !bytes.Equal(got, whole) {
				t.Fatalf("after the close: %d hand-overs, %d of %d bytes", calls, len(got), len(whole))
			}
			if left, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/inbound")); len(left) != 0 {
				t.Errorf("inbound/ still holds %v", left)
			}
		})
	}
}

// TestRenameWhileOpenThenDropIsNotHandedOver: the connection drops after
// the rename, before the close: the upload is incomplete and never handed
// over.
func TestRenameWhileOpenThenDropIsNotHandedOver(t *testing.T) {
	f := start(t)
	conn, c := f.dial(t)
	w, err := c.Create("inbound/claims.x12.part")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("A"), 380))
	if err := c.PosixRename("inbound/claims.x12.part", "inbound/claims.x12"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	inbound := filepath.Join(f.dir, "users/partner1/inbound")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if left, _ := os.ReadDir(inbound); len(left) == 0 {
			break
		}
	}
	if _, calls := f.got.get(""); calls != 0 {
		t.Fatal("an interrupted upload was handed over")
	}
	if left, _ := os.ReadDir(inbound); len(left) != 0 {
		t.Errorf("the interrupted upload is left in inbound/: %v", left)
	}
}

// TestTwoHandlesOnOneNameAreOneUpload: a client writing one file through
// two handles (each its part, at its offset) has it handed over once,
// whole, when the second closes.
func TestTwoHandlesOnOneNameAreOneUpload(t *testing.T) {
	whole := bytes.Repeat([]byte("ISA*0123456789~\n"), 48)[:761]
	f := start(t)
	_, c := f.dial(t)
	first, err := c.OpenFile("inbound/claims.x12", os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.OpenFile("inbound/claims.x12", os.O_WRONLY)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.WriteAt(whole[:380], 0); err != nil {
		t.Fatal(err)
	}
	if _, err := second.WriteAt(whole[380:], 380); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if got, calls := f.got.get("partner1/claims.x12"); calls != 0 {
		t.Fatalf("handed over with a handle still open: %d of %d bytes", len(got), len(whole))
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	if got, calls := f.got.get("partner1/claims.x12"); calls != 1 || !bytes.Equal(got, whole) {
		t.Fatalf("after both closes: %d hand-overs, %d of %d bytes", calls, len(got), len(whole))
	}
	if staged, _ := os.ReadDir(filepath.Join(f.dir, "users/partner1/.staging")); len(staged) != 0 {
		t.Errorf("staging still holds %v", staged)
	}
}
