package main

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
)

// serveProfiler serves Go's profiling endpoints (/debug/pprof/…) on their
// own listener, so they are never reachable through the API's address. It
// returns a function that stops it.
func serveProfiler(addr string, logger *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	logger.Info("profiler listening", "addr", ln.Addr().String())
	return func() { srv.Close() }, nil
}
