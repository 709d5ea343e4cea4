package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

func runWebhooks(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "listen" {
		fmt.Fprintln(stderr, "Usage: clearhouse webhooks listen --secret whsec_… (--print | --forward-to URL) [--listen ADDR]")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return errHelpShown
		}
		return &exitError{code: 2}
	}
	return runListen(ctx, args[1:], stdout, stderr, nil)
}

// listenConfig is every option of webhooks listen.
type listenConfig struct {
	listen    string
	secret    string
	print     bool
	forwardTo string
	timeout   time.Duration
}

// runListen serves a receiver that verifies each delivery's signature and
// prints it or forwards it; ready, if set, gets the listening address.
func runListen(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	var cfg listenConfig
	fs := newFlagSet("webhooks listen", "webhooks listen --secret whsec_… (--print | --forward-to URL) [options]",
		"Receives webhook deliveries on your machine: checks each one's Standard Webhooks signature\n"+
			"with the webhook's secret (GET /2023-08-01/webhooks/{id}/secret), then prints the event or\n"+
			"forwards the delivery, headers and all, to your application. Unsigned or badly signed\n"+
			"requests get 401 and are reported on stderr. Register the listener's URL as the webhook\n"+
			"(serve needs --webhooks-allow-private to call a local address).", stderr)
	fs.StringVar(&cfg.listen, "listen", "127.0.0.1:9000", "address to receive deliveries on")
	fs.StringVar(&cfg.secret, "secret", "", "the webhook's signing secret (whsec_…)")
	fs.BoolVar(&cfg.print, "print", false, "print each verified event to stdout (indented JSON)")
	fs.StringVar(&cfg.forwardTo, "forward-to", "", "forward each verified delivery to this URL and answer with its status")
	fs.DurationVar(&cfg.timeout, "timeout", 5*time.Second, "time allowed for the forwarded call")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return &exitError{code: 2, err: fmt.Errorf("unexpected argument %q (see --help)", rest[0])}
	case !strings.HasPrefix(cfg.secret, webhooks.SecretPrefix):
		return &exitError{code: 2, err: errors.New("--secret: give the webhook's signing secret, whsec_…")}
	case cfg.print == (cfg.forwardTo != ""):
		return &exitError{code: 2, err: errors.New("give exactly one of --print and --forward-to URL")}
	}
	if cfg.forwardTo != "" {
		if u, err := url.Parse(cfg.forwardTo); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &exitError{code: 2, err: fmt.Errorf("--forward-to %q: want an http(s) URL such as http://localhost:3000/webhooks", cfg.forwardTo)}
		}
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	l := &listener{cfg: cfg, out: stdout, errs: stderr,
		// The forward goes to the developer's own machine: private
		// addresses are the point; metadata addresses stay blocked.
		client: netguard.New(netguard.Options{AllowPrivate: true}).Client(cfg.timeout)}
	srv := &http.Server{Handler: l, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		ErrorLog: slog.NewLogLogger(slog.NewTextHandler(stderr, nil), slog.LevelWarn)}
	fmt.Fprintf(stderr, "listening on http://%s/ (verifying signatures; %s)\n", ln.Addr(), l.mode())
	if ready != nil {
		ready <- ln.Addr().String()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

type listener struct {
	cfg    listenConfig
	out    io.Writer
	errs   io.Writer
	mu     sync.Mutex // one event at a time on stdout
	client *http.Client
}

func (l *listener) mode() string {
	if l.cfg.print {
		return "printing events"
	}
	return "forwarding to " + l.cfg.forwardTo
}

// maxDelivery bounds a received body.
const maxDelivery = 10 << 20

func (l *listener) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxDelivery))
	if err != nil {
		http.Error(w, "body unreadable or over 10 MiB", http.StatusRequestEntityTooLarge)
		return
	}
	if err := webhooks.Verify(l.cfg.secret, r.Header, body, time.Now()); err != nil {
		fmt.Fprintf(l.errs, "rejected %s %s from %s: %v\n", r.Method, r.URL.Path, r.RemoteAddr, err)
		http.Error(w, "signature not verified: "+err.Error(), http.StatusUnauthorized)
		return
	}
	var wrapped struct {
		Event struct {
			ID         string `json:"id"`
			DetailType string `json:"detail-type"`
		} `json:"event"`
	}
	_ = json.Unmarshal(body, &wrapped)
	summary := fmt.Sprintf("%s %s (webhook-id %s, attempt %s %s)", time.Now().UTC().Format(time.RFC3339),
		wrapped.Event.DetailType, r.Header.Get("webhook-id"), r.Header.Get("attempt-number"), r.Header.Get("attempt-type"))
	if l.cfg.print {
		var pretty bytes.Buffer
		if json.Indent(&pretty, body, "", "  ") != nil {
			pretty.Write(body)
		}
		l.mu.Lock()
		fmt.Fprintf(l.out, "# %s\n%s\n", summary, pretty.Bytes())
		l.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	status, err := l.forward(r, body)
	if err != nil {
		fmt.Fprintf(l.errs, "%s: forward failed: %v\n", summary, err)
		http.Error(w, "forward failed: "+err.Error(), http.StatusBadGateway)
		return
	}
	fmt.Fprintf(l.errs, "%s → %d\n", summary, status)
	w.WriteHeader(status)
}

// forward sends the verified delivery on with its headers.
func (l *listener) forward(r *http.Request, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, l.cfg.forwardTo, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	for name, values := range r.Header {
		switch strings.ToLower(name) {
		case "host", "content-length", "connection", "accept-encoding":
			continue
		}
		req.Header[name] = values
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, nil
}
