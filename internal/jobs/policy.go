package jobs

import "time"

// Policy is how one kind of job is retried.
type Policy struct {
	// MaxAttempts is the number of attempts in total (default 3).
	MaxAttempts int
	// Backoff is the delay after failed attempt n (1-based) before the
	// next one (default Exponential(5s, 1h)).
	Backoff func(attempt int) time.Duration
	// Timeout bounds one attempt (default 1 minute). The lease is Timeout
	// plus a grace period, so a worker that dies mid-job loses the job to
	// another worker soon after Timeout.
	Timeout time.Duration
	// Lane is the pool of workers that runs the kind (LaneDefault or
	// LaneOutbound, see Lane).
	Lane string
}

func (p Policy) withDefaults() Policy {
	if p.MaxAttempts < 1 {
		p.MaxAttempts = 3
	}
	if p.Backoff == nil {
		p.Backoff = Exponential(5*time.Second, time.Hour)
	}
	if p.Timeout <= 0 {
		p.Timeout = time.Minute
	}
	return p
}

// Fixed waits d between attempts: outbound file delivery retries every 6
// minutes, 3 attempts in total.
func Fixed(d time.Duration) func(int) time.Duration {
	return func(int) time.Duration { return d }
}

// Schedule waits delays[n-1] after attempt n, and the last delay after any
// later attempt (Standard Webhooks: 5s, 5m, 30m, 2h, 5h, 10h, ...).
func Schedule(delays ...time.Duration) func(int) time.Duration {
	return func(attempt int) time.Duration {
		if len(delays) == 0 {
			return 0
		}
		return delays[min(max(attempt, 1), len(delays))-1]
	}
}

// Exponential doubles the delay from base after each attempt, up to limit.
func Exponential(base, limit time.Duration) func(int) time.Duration {
	return func(attempt int) time.Duration {
		d := base
		for i := 1; i < attempt && d < limit; i++ {
			d *= 2
		}
		return min(d, limit)
	}
}
