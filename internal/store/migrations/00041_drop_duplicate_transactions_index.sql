-- transactions_execution repeats the index of the table's
-- UNIQUE (execution_id, set_index): every transaction wrote the same key
-- into two indexes. The unique index answers the same lookups.

-- +goose Up
DROP INDEX transactions_execution;

-- +goose Down
CREATE INDEX transactions_execution ON transactions (execution_id, set_index);
