package jobs

import (
	"log/slog"
	"time"
)

// maxClaimBackoff bounds the wait between claims while they fail.
const maxClaimBackoff = time.Minute

// claimLogEvery is how often a lane whose claims keep failing says so
// again (with the count since), after the first failure's line.
const claimLogEvery = time.Minute

// claimFailures paces a lane whose claims fail: each consecutive failure
// doubles the wait before the next claim (from the poll interval up to
// maxClaimBackoff), and the failures are logged on the first, then once a
// claimLogEvery with their count, then once when claims work again.
type claimFailures struct {
	logger     *slog.Logger
	n          int       // consecutive failures
	unlogged   int       // failures since the last line
	lastLogged time.Time // zero: none logged in this run of failures
}

// failed records a failed claim and returns how long to wait before the
// next one.
func (f *claimFailures) failed(err error, poll time.Duration, now time.Time) time.Duration {
	f.n++
	f.unlogged++
	if f.lastLogged.IsZero() || now.Sub(f.lastLogged) >= claimLogEvery {
		f.logger.Error("jobs: claim failed; backing off", "error", err.Error(), "failures", f.n, "since_last_line", f.unlogged)
		f.lastLogged, f.unlogged = now, 0
	}
	wait := poll
	for i := 1; i < f.n && wait < maxClaimBackoff; i++ {
		wait *= 2
	}
	return min(wait, maxClaimBackoff)
}

// succeeded ends a run of failures.
func (f *claimFailures) succeeded() {
	if f.n > 0 {
		f.logger.Info("jobs: claims work again", "failures", f.n)
	}
	*f = claimFailures{logger: f.logger}
}
