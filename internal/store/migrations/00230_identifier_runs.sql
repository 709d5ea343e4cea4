-- +goose Up
-- A transaction's business identifiers, stored for their two readers
-- separately instead of one wide row per identifier with three B-trees
-- (business_identifiers: about 228 bytes and three inserts per claim, a
-- third of an inbound 835's CPU).
--
-- identifier_runs: the identifiers in order, one row per run of one
-- element's values (vals: a JSON array of strings), for GET
-- /transactions/{id} and the claim-status linker. A set of 300,000 claims is
-- a few dozen rows.
CREATE TABLE identifier_runs (
    transaction_id TEXT NOT NULL REFERENCES transactions (id),
    position       BIGINT NOT NULL,
    element        TEXT NOT NULL,
    element_id     TEXT NOT NULL DEFAULT '',
    name           TEXT NOT NULL DEFAULT '',
    vals           TEXT NOT NULL,
    PRIMARY KEY (transaction_id, position)
);

-- identifier_values: the search by value (ListTransactions'
-- businessIdentifier), one narrow row per identifier and one index. The
-- tenant's scope is the transaction's (the search joins transactions on
-- account_id); rows are removed by value with their transaction's runs
-- (retention), so no index on transaction_id and no foreign key, whose
-- check would be a lookup per row.
CREATE TABLE identifier_values (
    value          TEXT NOT NULL,
    transaction_id TEXT NOT NULL,
    element        TEXT NOT NULL,
    element_id     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX identifier_values_value ON identifier_values (value);

-- Rows written before this migration stay in business_identifiers (read
-- there when a transaction has no runs); their values join the search.
INSERT INTO identifier_values (value, transaction_id, element, element_id)
    SELECT value, transaction_id, element, element_id FROM business_identifiers;

-- +goose Down
DROP TABLE identifier_values;
DROP TABLE identifier_runs;
