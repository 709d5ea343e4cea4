-- The payer simulator's scenario file of each account and mode (test mode
-- is the one the in-process mock payer reads; production never reaches
-- it). One file per account and mode, replaced whole on upload.
-- +goose Up
CREATE TABLE mock_payer_scenarios (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    body TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode)
);

-- +goose Down
DROP TABLE mock_payer_scenarios;
