package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/mockserver"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

const mockpayerSynopsis = "mockpayer serve [options] | mockpayer scenarios apply -f FILE --account NAME | mockpayer generate --scenarios FILE"

const mockpayerAbout = `Runs the mock payers as a trading partner that speaks the real protocols:
CAQH CORE real-time SOAP and MIME at http://LISTEN/core, answering the
published mock requests (the fixtures of test mode), and with --sftp-listen
an SFTP server where 837D files uploaded to inbound/ are answered with a
999 and a 277CA in outbound/. Point CAQH_CORE and SFTP connections at it
to run production mode end to end on one machine. With --scenarios FILE
the payer answers the requests the file's scenarios match as they say
(docs/guides/payer-simulator.md), and the published mocks everything else.`

func runMockpayer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "scenarios" {
		return mockpayerScenariosApply(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "generate" {
		return mockpayerGenerate(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "serve" {
		fmt.Fprintf(stderr, "Usage: clearhouse %s\n\n%s\n\nRun 'clearhouse mockpayer serve --help' for its options.\n", mockpayerSynopsis, mockpayerAbout)
		if len(args) > 0 && isHelp(args[0]) {
			return errHelpShown
		}
		return &exitError{code: 2}
	}
	var listen, sftpListen, dataDir, username, password, scenarioFile string
	fs := newFlagSet("mockpayer serve", mockpayerSynopsis, mockpayerAbout, stderr)
	fs.StringVar(&listen, "listen", "127.0.0.1:8090", "address of the CAQH CORE endpoint (POST /core)")
	fs.StringVar(&sftpListen, "sftp-listen", "", "address of the SFTP side (837D in inbound/, 999 and 277CA out in outbound/); empty: off. Needs --username and --password")
	fs.StringVar(&dataDir, "data", "./mockpayer-data", "the mock payer's data directory (created if missing)")
	fs.StringVar(&username, "username", "", "username every CORE request must carry (empty: none required)")
	fs.StringVar(&password, "password", "", "password every CORE request must carry")
	fs.StringVar(&scenarioFile, "scenarios", "", "payer simulator scenario file (JSON or YAML, internal/mockpayer/scenario/schema.json) tried before the published mocks")
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &exitError{code: 2, err: fmt.Errorf("unexpected argument %q", rest[0])}
	}
	if (username == "") != (password == "") {
		return &exitError{code: 2, err: errors.New("--username and --password go together")}
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	payer, err := mockpayerWithScenarios(scenarioFile, logger)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	cfg := mockserver.Config{Logger: logger, Payer: payer}
	if username != "" {
		cfg.Credentials = &caqh.Credentials{Username: username, Password: password}
	}
	if sftpListen != "" && username == "" {
		return &exitError{code: 2, err: errors.New("--sftp-listen needs --username and --password (the SFTP login)")}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	if sftpListen != "" {
		sftpSrv, err := mockserver.SFTP(mockserver.SFTPConfig{DataDir: dataDir, Username: username, Password: password, Logger: logger,
			Payer: payer})
		if err != nil {
			return err
		}
		sln, err := net.Listen("tcp", sftpListen)
		if err != nil {
			return err
		}
		go func() { _ = sftpSrv.Serve(sln) }()
		defer sftpSrv.Close()
		logger.Info("mock payer sftp listening", "sftp", sln.Addr().String(),
			"hostKey", strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sftpSrv.HostKey()))), "user", username)
	}
	srv := &http.Server{Handler: mockserver.Handler(cfg), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 60 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("mock payer listening", "core", "http://"+ln.Addr().String()+"/core", "data", dataDir, "auth", username != "",
		"scenarios", scenarioFile)
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	logger.Info("mock payer stopped")
	return nil
}

// mockpayerWithScenarios is the mock payer, trying the scenarios of file
// (when named) before the published mocks. A file with a problem stops
// the start, naming its line and field.
func mockpayerWithScenarios(file string, logger *slog.Logger) (*mockpayer.Payer, error) {
	if file == "" {
		return mockpayer.New(mockpayer.WithLogger(logger)), nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--scenarios: %w", err)
	}
	set, err := scenario.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("--scenarios %s: %w", file, err)
	}
	return mockpayer.New(mockpayer.WithScenarioSet(set), mockpayer.WithLogger(logger)), nil
}
