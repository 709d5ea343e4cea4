-- A job's mode, beside its account: the outbound lane caps each account
-- and mode on its own, so a test key's flood of test-mode work cannot take
-- the slots of the same account's production work. '' for system jobs and
-- for jobs enqueued before this column (capped with their account's other
-- modeless jobs, as before).

-- +goose Up
ALTER TABLE jobs ADD COLUMN mode TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE jobs DROP COLUMN mode;
