-- The payers' real-time answers (277 to our 276, package statusinquiry)
-- about one of the tenant's claims: the claim's status as the payer gave
-- it when asked, kept as a timeline entry of the claim (claimStatusInquiry,
-- ours). A row belongs to the claim's account and mode; the claim is the
-- asker's own claim whose patient control number the 277 names, at the
-- same payer.
-- +goose Up
CREATE TABLE claim_status_inquiries (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    id TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    payer_id TEXT NOT NULL,
    category_code TEXT NOT NULL DEFAULT '',
    status_code TEXT NOT NULL DEFAULT '',
    entity_code TEXT NOT NULL DEFAULT '',
    effective_date TEXT NOT NULL DEFAULT '',
    submitted_amount TEXT NOT NULL DEFAULT '',
    amount_paid TEXT NOT NULL DEFAULT '',
    paid_date TEXT NOT NULL DEFAULT '',
    check_number TEXT NOT NULL DEFAULT '',
    payer_claim_number TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, id)
);
CREATE INDEX claim_status_inquiries_claim ON claim_status_inquiries (account_id, mode, claim_id, created_at);

-- +goose Down
DROP TABLE claim_status_inquiries;
