-- The usage sums read eligibility checks (00430): the mode and time index
-- every history list reads also carries each check's key and cost, so a
-- month of checks is summed from the index alone (~100 B an entry, as the
-- usage table's rows were) and never from the checks' ~2.4 KB rows. A
-- check writes this index anyway: no B-tree more.
-- +goose Up
DROP INDEX eligibility_checks_account_mode_created;
CREATE INDEX eligibility_checks_account_mode_created ON eligibility_checks (account_id, mode, created_at, id, key_id, cost_micros);

-- +goose Down
DROP INDEX eligibility_checks_account_mode_created;
CREATE INDEX eligibility_checks_account_mode_created ON eligibility_checks (account_id, mode, created_at, id);
