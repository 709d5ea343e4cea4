-- A number that every change to any account's payer simulator scenario
-- file (upload, replacement, removal) raises in its own transaction. The
-- in-process mock payer keeps the files it has read and reads this one row
-- per test-mode check instead of the account's file: a change made by any
-- process on the same database (`clearhouse mockpayer apply`, the
-- scenarios API of another replica) is seen on the next check. Files
-- stored before this table read as before (the first check reads them).
-- +goose Up
CREATE TABLE mock_payer_scenarios_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO mock_payer_scenarios_version (id, version) VALUES (1, 0);

-- +goose Down
DROP TABLE mock_payer_scenarios_version;
