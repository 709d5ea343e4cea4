package jobs

import "github.com/prometheus/client_golang/prometheus"

// queueMetrics count attempts by kind and outcome (succeeded, retrying,
// failed, lease_lost, unrecorded) and time them. They exist even without a
// registry, so the worker never checks for nil.
type queueMetrics struct {
	attempts *prometheus.CounterVec
	duration *prometheus.HistogramVec
	running  prometheus.Gauge
}

func newQueueMetrics(reg prometheus.Registerer) *queueMetrics {
	m := &queueMetrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "clearhouse_job_attempts_total",
			Help: "Job attempts finished by this process, by kind and outcome.",
		}, []string{"kind", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "clearhouse_job_duration_seconds",
			Help:    "Time spent in job handlers, by kind.",
			Buckets: []float64{.01, .05, .1, .5, 1, 5, 10, 30, 60, 300},
		}, []string{"kind"}),
		running: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "clearhouse_jobs_running",
			Help: "Jobs being worked by this process.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.attempts, m.duration, m.running)
	}
	return m
}
