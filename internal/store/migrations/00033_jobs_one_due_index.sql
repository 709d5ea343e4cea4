-- jobs_runnable (state, run_at) is a prefix of jobs_due (state, run_at, id),
-- which serves every query it served; each job's claim and completion
-- updated both. One index fewer to write on every state change.

-- +goose Up
DROP INDEX jobs_runnable;

-- +goose Down
CREATE INDEX jobs_runnable ON jobs (state, run_at);
