-- Which claim a claim corrects, replaces or voids (issue 28: resent claims
-- link to each other in the timeline). A side table written in the new
-- claim's own transaction, so the claims table and its hot insert stay as
-- they are; both claims belong to the row's account and mode.
-- +goose Up
CREATE TABLE claim_resends (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    previous_claim_id TEXT NOT NULL,
    frequency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, claim_id)
);
CREATE INDEX claim_resends_previous ON claim_resends (account_id, previous_claim_id);

-- +goose Down
DROP TABLE claim_resends;
