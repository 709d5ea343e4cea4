-- Claim status (the console's claims pages): what the payer answered about
-- each dental claim. When an inbound 999, 277CA or 835 is processed, the
-- claims it refers to get one claim_answers row each, in the same database
-- transaction as the inbound transaction, and the claim's answer columns
-- hold the latest outcome (an 835 outranks a 277CA, which outranks a 999).
-- group_control_number (GS06 of the claim's 837D) is how a 999 points back
-- at it (AK1-02 with AK2-02 = the 837's ST02); patient_name is for the list.
-- Claims recorded before this migration keep empty values.
-- +goose Up
ALTER TABLE dental_claims ADD COLUMN group_control_number TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN patient_name TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN answer TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN answer_rank INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dental_claims ADD COLUMN answered_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX dental_claims_group_control ON dental_claims (account_id, mode, group_control_number);

CREATE TABLE claim_answers (
    claim_id       TEXT NOT NULL,
    account_id     TEXT NOT NULL REFERENCES accounts (id),
    mode           TEXT NOT NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('999', '277CA', '835')),
    outcome        TEXT NOT NULL,
    execution_id   TEXT NOT NULL,
    transaction_id TEXT NOT NULL,
    detail         TEXT NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL,
    PRIMARY KEY (claim_id, transaction_id)
);
CREATE INDEX claim_answers_account_claim ON claim_answers (account_id, claim_id, created_at);

-- +goose Down
DROP TABLE claim_answers;
DROP INDEX dental_claims_group_control;
ALTER TABLE dental_claims DROP COLUMN answered_at;
ALTER TABLE dental_claims DROP COLUMN answer_rank;
ALTER TABLE dental_claims DROP COLUMN answer;
ALTER TABLE dental_claims DROP COLUMN patient_name;
ALTER TABLE dental_claims DROP COLUMN group_control_number;
