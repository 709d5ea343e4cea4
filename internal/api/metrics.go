package api

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// httpMetrics are the server's Prometheus series. Labels are the route
// pattern (never the raw path, which would explode cardinality) and status.
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

func newHTTPMetrics(reg *prometheus.Registry, version string) (*httpMetrics, error) {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "clearhouse_http_requests_total",
			Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "clearhouse_http_request_duration_seconds",
			Help: "HTTP request latency by route pattern and status code.",
			// From a mock check (about a millisecond) to payer round trips
			// of tens of seconds.
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"route", "code"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "clearhouse_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
	}
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "clearhouse_build_info",
		Help:        "Always 1; the version label names the running build.",
		ConstLabels: prometheus.Labels{"version": version},
	})
	build.Set(1)
	for _, c := range []prometheus.Collector{
		m.requests, m.duration, m.inFlight, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *httpMetrics) observe(route string, status int, elapsed time.Duration) {
	code := strconv.Itoa(status)
	m.requests.WithLabelValues(route, code).Inc()
	m.duration.WithLabelValues(route, code).Observe(elapsed.Seconds())
}
