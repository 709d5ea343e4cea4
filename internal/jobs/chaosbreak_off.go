//go:build !chaosbreak

package jobs

// ackBeforeWork is false in every real build; the chaosbreak build tag
// (chaosbreak.go) makes it true to prove the chaos test fails when
// exactly-once is broken.
const ackBeforeWork = false
