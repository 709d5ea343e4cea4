package connections

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// sshdServer is OpenSSH's sshd on a loopback port, serving the current
// user with public-key login and the internal sftp subsystem.
type sshdServer struct {
	port    int
	dir     string
	hostKey string // authorized_keys line
	client  string // the client's private key, OpenSSH PEM
	user    string
}

func newKey(t *testing.T, comment string) (pemText string, pub ssh.PublicKey) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		t.Fatal(err)
	}
	signer, _ := ssh.NewSignerFromKey(priv)
	return string(pem.EncodeToMemory(block)), signer.PublicKey()
}

func startSSHD(t *testing.T) *sshdServer {
	t.Helper()
	bin := "/usr/sbin/sshd"
	if _, err := os.Stat(bin); err != nil {
		testenv.Missing(t, "OpenSSH's sshd is not installed (Debian openssh-server)")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	hostPEM, hostPub := newKey(t, "host")
	clientPEM, clientPub := newKey(t, "client")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "host_key"), []byte(hostPEM), 0o600))
	must(os.WriteFile(filepath.Join(dir, "authorized_keys"), ssh.MarshalAuthorizedKey(clientPub), 0o600))
	must(os.MkdirAll("/run/sshd", 0o755)) // sshd's privilege separation directory
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %[2]s/host_key
PidFile %[2]s/sshd.pid
AuthorizedKeysFile %[2]s/authorized_keys
StrictModes no
UsePAM no
PermitRootLogin yes
PasswordAuthentication yes
KbdInteractiveAuthentication no
Subsystem sftp internal-sftp
LogLevel ERROR
`, port, dir)
	must(os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(cfg), 0o600))
	cmd := exec.Command(bin, "-D", "-e", "-f", filepath.Join(dir, "sshd_config"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	must(cmd.Start())
	t.Cleanup(func() {
		// Let the per-connection processes end first, so sshd reaps them.
		time.Sleep(100 * time.Millisecond)
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not start: %s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, d := range []string{"in", "out", "done"} {
		must(os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	return &sshdServer{port: port, dir: dir, hostKey: string(ssh.MarshalAuthorizedKey(hostPub)), client: clientPEM, user: u.Username}
}

func (s *sshdServer) definition(t *testing.T, box interface {
	SealString(string, string) (string, error)
}, id string) Definition {
	key, err := box.SealString(s.client, SealContext(id, FieldPrivateKey))
	if err != nil {
		t.Fatal(err)
	}
	return Definition{ID: id, Type: SFTP, Host: "127.0.0.1", Port: s.port, Username: s.user, PrivateKey: key,
		HostKey: s.hostKey, OutboundDir: filepath.Join(s.dir, "out"), InboundDir: filepath.Join(s.dir, "in"), Timeout: Duration(10 * time.Second)}
}

var allowLoopback = Options{Guard: netguard.New(netguard.Options{AllowPrivate: true})}

func TestSFTPAgainstOpenSSH(t *testing.T) {
	srv := startSSHD(t)
	box := testBox(t)
	d := srv.definition(t, box, "partner")
	set, err := NewSet([]Definition{d}, box)
	if err != nil {
		t.Fatal(err)
	}
	remote, err := set.SFTPClient(d, allowLoopback, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// Deliver: the file arrives whole under its name; no temporary file stays.
	where, err := remote.Deliver(ctx, "claims-1.x12", []byte("ISA*837D~"))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(srv.dir, "out", "claims-1.x12")); string(b) != "ISA*837D~" || !strings.Contains(where, "claims-1.x12") {
		t.Errorf("delivered %q to %s", b, where)
	}
	if left, _ := os.ReadDir(filepath.Join(srv.dir, "out")); len(left) != 1 {
		t.Errorf("outbound holds %v", left)
	}

	// Poll: complete files once; temporary names left alone.
	os.WriteFile(filepath.Join(srv.dir, "in", "999-1.x12"), []byte("ST*999~"), 0o644)
	os.WriteFile(filepath.Join(srv.dir, "in", ".277-1.x12.part"), []byte("ST*2"), 0o644)
	var got []string
	handle := func(_ context.Context, name, _ string, body io.Reader) error {
		b, _ := io.ReadAll(body)
		got = append(got, name+"="+string(b))
		return nil
	}
	if n, err := remote.Poll(ctx, handle); err != nil || n != 1 || len(got) != 1 || got[0] != "999-1.x12=ST*999~" {
		t.Fatalf("poll: %d %v %v", n, got, err)
	}
	if _, err := os.Stat(filepath.Join(srv.dir, "in", "999-1.x12")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a processed file was not deleted")
	}
	if n, _ := remote.Poll(ctx, handle); n != 0 {
		t.Errorf("second poll handed over %d", n)
	}

	// Move mode, and a file that comes back unchanged is not processed twice.
	d.AfterProcessing = "move:" + filepath.Join(srv.dir, "done")
	set, _ = NewSet([]Definition{d}, box)
	remote, _ = set.SFTPClient(d, allowLoopback, nil)
	p := filepath.Join(srv.dir, "in", "277CA-1.x12")
	os.WriteFile(p, []byte("ST*277~"), 0o644)
	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(p, mtime, mtime)
	got = nil
	if n, err := remote.Poll(ctx, handle); err != nil || n != 1 {
		t.Fatalf("poll (move): %d %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(srv.dir, "done", "277CA-1.x12")); err != nil {
		t.Errorf("not moved: %v", err)
	}
	os.Rename(filepath.Join(srv.dir, "done", "277CA-1.x12"), p)
	os.Chtimes(p, mtime, mtime)
	if n, err := remote.Poll(ctx, handle); err != nil || n != 0 {
		t.Errorf("the same file (name, size, time) was processed again: %d %v", n, err)
	}

	// connections test walks every step.
	report, err := set.Test(ctx, "partner", allowLoopback)
	if err != nil || !report.OK() {
		t.Errorf("connections test: %+v %v", report, err)
	}
}

func TestSFTPFailures(t *testing.T) {
	srv := startSSHD(t)
	box := testBox(t)
	otherHost, _ := newKey(t, "other")
	otherSigner, _ := ssh.ParsePrivateKey([]byte(otherHost))
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	downPort := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	wrongPassword, _ := box.SealString("not-the-password", SealContext("pw", FieldPassword))
	tests := []struct {
		name     string
		edit     func(*Definition)
		wantStep string
		wantText string
	}{
		{"wrong password", func(d *Definition) { d.PrivateKey, d.Password = "", wrongPassword }, "auth", "refused"},
		{"unknown host key", func(d *Definition) { d.HostKey = string(ssh.MarshalAuthorizedKey(otherSigner.PublicKey())) }, "ssh", "not the pinned one"},
		{"server down", func(d *Definition) { d.Port = downPort }, "tcp", "refused"},
		{"missing directory", func(d *Definition) { d.OutboundDir = filepath.Join(srv.dir, "nope") }, "path", "cannot write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := "pw"
			d := srv.definition(t, box, id)
			tt.edit(&d)
			set, err := NewSet([]Definition{d}, box)
			if err != nil {
				t.Fatal(err)
			}
			remote, err := set.SFTPClient(d, allowLoopback, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = remote.Deliver(context.Background(), "claims-1.x12", []byte("ISA~"))
			var se *SFTPError
			if !errors.As(err, &se) || se.Step != tt.wantStep || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("error %v, want step %s with %q", err, tt.wantStep, tt.wantText)
			}
			report, _ := set.Test(context.Background(), id, allowLoopback)
			if f := report.Failed(); f == nil || (f.Name != tt.wantStep && !(tt.wantStep == "path" && f.Name == "path")) {
				t.Errorf("connections test: %+v", report.Steps)
			}
		})
	}
}
