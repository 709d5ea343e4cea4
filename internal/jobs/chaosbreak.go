//go:build chaosbreak

package jobs

// A build with -tags chaosbreak acknowledges each job before running it:
// the broken exactly-once guard that make chaos-broken must see fail.
// A constant per build, not a variable an init sets: nothing in a real
// build can turn it on.
const ackBeforeWork = true
