-- The console's history search: who a check was about and for which date,
-- copied from the request when the check is recorded (checks recorded
-- before this migration keep empty values and are found by payer, status
-- and date only).
-- +goose Up
ALTER TABLE eligibility_checks ADD COLUMN patient_name TEXT NOT NULL DEFAULT '';
ALTER TABLE eligibility_checks ADD COLUMN member_id TEXT NOT NULL DEFAULT '';
ALTER TABLE eligibility_checks ADD COLUMN patient_birth_date TEXT NOT NULL DEFAULT '';
ALTER TABLE eligibility_checks ADD COLUMN service_date TEXT NOT NULL DEFAULT '';
CREATE INDEX eligibility_checks_member ON eligibility_checks (account_id, member_id);
CREATE INDEX eligibility_checks_birth_date ON eligibility_checks (account_id, patient_birth_date);
CREATE INDEX eligibility_checks_service_date ON eligibility_checks (account_id, service_date);

-- +goose Down
DROP INDEX eligibility_checks_service_date;
DROP INDEX eligibility_checks_birth_date;
DROP INDEX eligibility_checks_member;
ALTER TABLE eligibility_checks DROP COLUMN service_date;
ALTER TABLE eligibility_checks DROP COLUMN patient_birth_date;
ALTER TABLE eligibility_checks DROP COLUMN member_id;
ALTER TABLE eligibility_checks DROP COLUMN patient_name;
