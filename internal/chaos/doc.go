// Package chaos holds the scale-out test (make chaos): several clearhouse
// serve replicas on one PostgreSQL database and one S3 bucket (versitygw),
// under a load of eligibility checks, dental claims and inbound files, while
// a driver kills a random replica with SIGKILL every few seconds and starts
// it again. At the end it checks, from the database and from a webhook
// receiver, that nothing answered 2xx was lost and nothing was done twice.
//
// The package has no code of its own: everything is in chaos_test.go, run by
// `go test ./internal/chaos` (a short run, part of make test) and by
// `make chaos` (longer: CHAOS_DURATION, CHAOS_REPLICAS, CHAOS_ENGINE).
package chaos
