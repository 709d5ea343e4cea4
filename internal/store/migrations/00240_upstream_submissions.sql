-- Where each outbound file's submission to CLEARINGHOUSE_API upstreams
-- stands (package upstream): one row per file execution and route tried.
-- A row is SENDING from before the request leaves until the upstream's
-- answer is known, UNKNOWN when the request left and no answer says whether
-- the upstream took it (a time limit, a reset), ACCEPTED once the upstream took the file (written before
-- anything else is recorded), NOT_ACCEPTED when it certainly did not (not
-- reached, 5xx, refused). A SENDING or UNKNOWN row pins the file to its route: an
-- ambiguous outcome is retried only there, with the same Idempotency-Key.
-- Rows belong to the execution's account and mode.
-- +goose Up
CREATE TABLE upstream_submissions (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    execution_id TEXT NOT NULL,
    connection_id TEXT NOT NULL,
    state TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    message TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, execution_id, connection_id)
);

-- +goose Down
DROP TABLE upstream_submissions;
