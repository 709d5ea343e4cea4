-- A check is its own usage row (package store, usage.go): the usage sums
-- read eligibility_checks, and the usage table keeps other kinds and the
-- usage of checks retention removed. The rows earlier builds wrote beside
-- each check they still keep go, so each check counts once. (The reads
-- also skip such a row while its check exists: an older build may still
-- write them.)
-- +goose Up
DELETE FROM usage WHERE kind = 'eligibility_check'
    AND EXISTS (SELECT 1 FROM eligibility_checks c WHERE c.id = usage.ref_id);

-- +goose Down
-- Every kept check gets its usage row back, for the builds that read only
-- the usage table.
INSERT INTO usage (id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at)
SELECT id, account_id, key_id, mode, 'eligibility_check', id, cost_micros, created_at FROM eligibility_checks c
WHERE NOT EXISTS (SELECT 1 FROM usage u WHERE u.account_id = c.account_id AND u.created_at = c.created_at
    AND u.kind = 'eligibility_check' AND u.ref_id = c.id);
