package mockserver

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/sftpd"
)

// SFTPConfig wires the mock payers' SFTP side.
type SFTPConfig struct {
	// DataDir holds the host key (generated on first start) and the user's
	// folders.
	DataDir string
	// Username and Password are the one login (required).
	Username, Password string
	Payer              *mockpayer.Payer
	Logger             *slog.Logger
}

// maxClaimFile bounds an 837D the mock reads.
const maxClaimFile = 16 << 20

// SFTP is the mock payers' batch side, as a payer's SFTP server: 837D
// files uploaded to inbound/ are answered in outbound/ with a 999
// (<name>-999.x12) and, when the 999 accepts the file, a 277CA
// (<name>-277CA.x12) and an 835 paying the accepted claims (<name>-835.x12,
// by the member rules of mockpayer.Remit). A file the mock cannot take (not an 837D, or the
// payer MOCKDOWN, whose connection is always down) is refused: the
// uploader's close fails and the file stays in inbound/.
func SFTP(cfg SFTPConfig) (*sftpd.Server, error) {
	if cfg.Username == "" || cfg.Password == "" {
		return nil, fmt.Errorf("mockserver: the SFTP side needs a username and password")
	}
	p := cfg.Payer
	if p == nil {
		p = mockpayer.New()
	}
	var srv *sftpd.Server
	answer := func(ctx context.Context, user, name string, f *os.File) error {
		body, err := io.ReadAll(io.LimitReader(f, maxClaimFile+1))
		if err != nil {
			return err
		}
		if len(body) > maxClaimFile {
			return fmt.Errorf("the file is over %d bytes", maxClaimFile)
		}
		ans, err := p.AnswerClaims(ctx, body)
		if err != nil {
			return err
		}
		base := strings.TrimSuffix(name, filepath.Ext(name))
		if err := srv.PutOutbound(user, base+"-999.x12", strings.NewReader(string(ans.Ack999))); err != nil {
			return err
		}
		if ans.Ack277CA == nil {
			return nil
		}
		if err := srv.PutOutbound(user, base+"-277CA.x12", strings.NewReader(string(ans.Ack277CA))); err != nil {
			return err
		}
		// The payer pays what it accepted: an 835 beside the 277CA (the
		// same rules as the in-process mock; nil when nothing is paid).
		era, err := p.Remit(ctx, body)
		if err != nil || era == nil {
			return err
		}
		return srv.PutOutbound(user, base+"-835.x12", strings.NewReader(string(era)))
	}
	srv, err := sftpd.New(sftpd.Config{
		HostKeyFile: filepath.Join(cfg.DataDir, "ssh_host_ed25519_key"),
		Root:        filepath.Join(cfg.DataDir, "sftp"),
		Password: func(u, pw string) bool {
			return subtle.ConstantTimeCompare([]byte(u), []byte(cfg.Username))&subtle.ConstantTimeCompare([]byte(pw), []byte(cfg.Password)) == 1
		},
		OnInbound: answer, Logger: cfg.Logger,
	})
	if err != nil {
		return nil, err
	}
	pub := ssh.MarshalAuthorizedKey(srv.HostKey())
	if err := os.WriteFile(filepath.Join(cfg.DataDir, "ssh_host_ed25519_key.pub"), pub, 0o644); err != nil {
		return nil, err
	}
	return srv, nil
}
