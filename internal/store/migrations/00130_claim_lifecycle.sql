-- The claims lifecycle API (GET /2025-03-07/claims): each claim's type, its
-- status in the hosted API's words (SUBMITTED, RECEIVED, ACCEPTED, REJECTED,
-- PROCESSED, DENIED, UNKNOWN) with who reported it, the total the payer
-- paid (the sum of its 835 answers; paid_known 0 until the first), its
-- dates of service (YYYY-MM-DD) and the patient's name as its 837 gives
-- it (JSON: firstName, middleName, lastName, suffix). package claimstatus
-- keeps status, reporter and paid total in the transaction that records
-- the answer that changes them, with the claim.status.changed.v2 event.
-- Claims recorded before this migration get a status from their answer
-- and a type from their 837's guide.
-- +goose Up
ALTER TABLE dental_claims ADD COLUMN claim_type TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN status TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN status_reported_by TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN paid_cents BIGINT NOT NULL DEFAULT 0;
ALTER TABLE dental_claims ADD COLUMN paid_known INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dental_claims ADD COLUMN service_start TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN service_end TEXT NOT NULL DEFAULT '';
ALTER TABLE dental_claims ADD COLUMN patient TEXT NOT NULL DEFAULT '';
UPDATE dental_claims SET
    status = CASE answer WHEN 'paid' THEN 'PROCESSED' WHEN 'denied' THEN 'DENIED' WHEN 'rejected' THEN 'REJECTED'
        WHEN 'accepted' THEN 'ACCEPTED' WHEN 'acknowledged' THEN 'RECEIVED' WHEN 'reversed' THEN 'UNKNOWN'
        ELSE 'SUBMITTED' END,
    status_reported_by = CASE answer WHEN '' THEN 'CLEARINGHOUSE' ELSE 'PAYER' END,
    claim_type = COALESCE((SELECT CASE t.guide_id WHEN '005010X222A1' THEN 'PROFESSIONAL'
        WHEN '005010X223A3' THEN 'INSTITUTIONAL' ELSE 'DENTAL' END
        FROM transactions t WHERE t.id = dental_claims.transaction_id), 'DENTAL');
CREATE INDEX dental_claims_lifecycle_status ON dental_claims (account_id, mode, status, created_at);

-- The claims of inbound 277CAs and 835s that name no claim of the account
-- (GET /2025-03-07/unmatched-claim-reports): one row per claim of the set,
-- or one row with an empty patient control number for a set none of whose
-- patient control numbers names a claim (such a set is not read again).
-- id is the transaction id and the claim's position, so pages are stable.
CREATE TABLE unmatched_claim_reports (
    id                     TEXT PRIMARY KEY,
    account_id             TEXT NOT NULL REFERENCES accounts (id),
    mode                   TEXT NOT NULL,
    transaction_id         TEXT NOT NULL,
    kind                   TEXT NOT NULL CHECK (kind IN ('277CA', '835')),
    patient_control_number TEXT NOT NULL DEFAULT '',
    created_at             BIGINT NOT NULL
);
CREATE INDEX unmatched_claim_reports_list ON unmatched_claim_reports (account_id, mode, created_at, id);

-- +goose Down
DROP TABLE unmatched_claim_reports;
DROP INDEX dental_claims_lifecycle_status;
ALTER TABLE dental_claims DROP COLUMN patient;
ALTER TABLE dental_claims DROP COLUMN service_end;
ALTER TABLE dental_claims DROP COLUMN service_start;
ALTER TABLE dental_claims DROP COLUMN paid_known;
ALTER TABLE dental_claims DROP COLUMN paid_cents;
ALTER TABLE dental_claims DROP COLUMN status_reported_by;
ALTER TABLE dental_claims DROP COLUMN status;
ALTER TABLE dental_claims DROP COLUMN claim_type;
