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
	"time"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/mockpayer/mockserver"
)

func init() {
	register(command{name: "mockpayer", summary: "run the mock payers as a separate process (CAQH CORE SOAP/MIME)", run: runMockpayer})
}

const mockpayerUsage = `Usage: clearhouse mockpayer serve [options]

Runs the mock payers as a trading partner that speaks the real protocols:
CAQH CORE real-time SOAP and MIME at http://LISTEN/core, answering the
published mock requests (the fixtures of test mode). Point a CAQH_CORE
connection at it to run production mode end to end on one machine.`

func runMockpayer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "serve" {
		fmt.Fprintln(stderr, mockpayerUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			return errHelpShown
		}
		return &exitError{code: 2}
	}
	var listen, dataDir, username, password string
	fs := newFlagSet("mockpayer serve", "mockpayer serve [options]", mockpayerUsage, stderr)
	fs.StringVar(&listen, "listen", "127.0.0.1:8090", "address of the CAQH CORE endpoint (POST /core)")
	fs.StringVar(&dataDir, "data", "./mockpayer-data", "the mock payer's data directory (created if missing)")
	fs.StringVar(&username, "username", "", "username every CORE request must carry (empty: none required)")
	fs.StringVar(&password, "password", "", "password every CORE request must carry")
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
	cfg := mockserver.Config{Logger: logger}
	if username != "" {
		cfg.Credentials = &caqh.Credentials{Username: username, Password: password}
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mockserver.Handler(cfg), ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 60 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logger.Info("mock payer listening", "core", "http://"+ln.Addr().String()+"/core", "data", dataDir, "auth", username != "")
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
