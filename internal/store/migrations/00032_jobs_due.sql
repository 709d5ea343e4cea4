-- Due jobs in claim order (run_at, id): a claim reads the first few from
-- this index instead of sorting every due job when a burst is queued.

-- +goose Up
CREATE INDEX jobs_due ON jobs (state, run_at, id);

-- +goose Down
DROP INDEX jobs_due;
