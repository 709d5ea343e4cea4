# Clearhouse developer commands. `make run` serves on the embedded default
# (SQLite and files under ./data); `make test` is what CI runs.

GO          ?= go
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
STATICCHECK ?= $(shell command -v staticcheck 2>/dev/null || echo $(HOME)/go/bin/staticcheck)
# The machine has 2 cores and CI 90 minutes: the whole suite runs once
# without the race detector, and the packages built on concurrency run
# again with it (`make race RACE_PKGS=./...` races everything: 3.5 min in
# November 2026).
RACE_PKGS   ?= ./internal/store/... ./internal/jobs/... ./x12
# CI sets TESTFLAGS=-count=1: a cached pass says nothing about whether
# PostgreSQL is reachable now.
TESTFLAGS   ?=

.PHONY: run test vet lint unit race build clean bench bench-hey bench-load bench-inbound bench-replicas versitygw chaos chaos-broken

run:
	@echo "building and starting clearhouse serve (the first build takes a few minutes)"
	$(GO) run ./cmd/clearhouse serve

# test runs every step even when one fails, so one run shows all problems,
# and fails if any did.
test:
	@status=0; for step in vet lint unit race; do \
	  $(MAKE) --no-print-directory $$step || { echo "make $$step: FAILED"; status=1; }; \
	done; exit $$status

vet:
	$(GO) vet ./...

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: these files are not formatted:"; echo "$$unformatted"; exit 1; fi
	@if [ -x "$(STATICCHECK)" ]; then echo "$(STATICCHECK) ./..."; "$(STATICCHECK)" ./...; \
	else echo "staticcheck not installed; skipped (go install honnef.co/go/tools/cmd/staticcheck@v0.8.2)"; fi

unit:
	$(GO) test $(TESTFLAGS) -timeout 20m ./...

race:
	$(GO) test $(TESTFLAGS) -race -timeout 30m $(RACE_PKGS)

# build prints each package as it compiles (-v): the first build downloads
# the modules and compiles about 200 packages, which takes minutes.
build:
	@echo "building bin/clearhouse (the first build downloads modules and compiles ~200 packages: a few minutes)"
	CGO_ENABLED=0 $(GO) build -v -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o bin/clearhouse ./cmd/clearhouse

# bench: the benchmark leg (not part of make test): every line of
# bench/benchmarks.txt, COUNT rounds (default 6) interleaved, raw output
# for benchstat in bench/out/, and each HTTP figure beside its floor
# (GET /healthz) from the same run. See docs/performance.md.
bench:
	bench/run.sh

# bench-hey: issue 29's eligibility figure its own way: hey at 16
# connections against a real `clearhouse serve` (SQLite, audit, fsync),
# /healthz and a mock check in interleaved rounds: checks/s as a share of
# /healthz, p99, sequential p99, server CPU per request (bench/hey-floor.sh;
# BEFORE=REV measures that commit's build beside the working tree's).
bench-hey:
	bench/hey-floor.sh

# bench-load: mock eligibility checks over loopback with SQLite persistence
# (wrk; see bench/load.sh for DURATION, CONNECTIONS and the request mix).
bench-load: build
	bench/load.sh

# bench-inbound: an 835 uploaded to a real server in one set and in sets of
# 1,000 (MB/s beside the split floor, server CPU, peak RSS) and guide
# validation beside the split floor, from the same run; BEFORE=REV runs
# that commit in turn and compares with benchstat (bench/inbound.sh).
bench-inbound:
	bench/inbound.sh

# chaos: replicas on PostgreSQL + S3 (versitygw) killed at random under load,
# then every answer checked against the database (internal/chaos). make test
# runs a 20 s variant; this one runs CHAOS_DURATION (default 2m).
CHAOS_DURATION ?= 2m
chaos: versitygw
	CI=true CHAOS_DURATION=$(CHAOS_DURATION) $(GO) test -count=1 -v -timeout 60m -run TestChaos ./internal/chaos/

# chaos-broken: the same run on a build whose jobs are acknowledged before
# their work commits (-tags chaosbreak). It must fail; this target fails if
# it passes.
chaos-broken: versitygw
	@if CI=true CHAOS_BREAK=1 CHAOS_DURATION=30s $(GO) test -count=1 -v -timeout 30m -run TestChaos ./internal/chaos/; then \
	  echo "chaos-broken: the broken build PASSED the chaos test: the test cannot see lost work"; exit 1; \
	else echo "chaos-broken: the chaos test caught the broken exactly-once guard (as it must)"; fi

# bench-replicas: eligibility checks and dental claims per second with 1 and
# 3 replicas on PostgreSQL + S3 (versitygw), with the CPU each part spent
# per request (internal/chaos/throughput_test.go; THROUGHPUT_DURATION,
# THROUGHPUT_CLIENTS).
bench-replicas: versitygw
	CI=true $(GO) test -count=1 -run '^$$' -bench Replicas -benchtime 1x -timeout 60m ./internal/chaos/

# versitygw: the S3 server the blob and scale-out tests run against, built
# from the module proxy at the version pinned in tools/versitygw/go.mod.
versitygw: bin/versitygw
bin/versitygw: tools/versitygw/go.mod tools/versitygw/go.sum
	cd tools/versitygw && CGO_ENABLED=0 $(GO) build -trimpath -o ../../bin/versitygw github.com/versity/versitygw/cmd/versitygw

clean:
	rm -rf bin
