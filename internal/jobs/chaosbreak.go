//go:build chaosbreak

package jobs

// A build with -tags chaosbreak acknowledges each job before running it:
// the broken exactly-once guard that make chaos-broken must see fail.
func init() { ackBeforeWork = true }
