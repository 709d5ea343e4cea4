-- Where polling a CLEARINGHOUSE_API connection's upstream for answers
-- stands (package upstream): the processedAt of the last upstream
-- transaction handed to our inbound path, and the poll job that carries the
-- connection (one per connection, re-scheduled by itself). Rows belong to
-- the connection's account and mode.
-- +goose Up
CREATE TABLE upstream_cursors (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    connection_id TEXT NOT NULL,
    processed_after BIGINT NOT NULL,
    job_id TEXT NOT NULL,
    ingested INTEGER NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, connection_id)
);

-- +goose Down
DROP TABLE upstream_cursors;
