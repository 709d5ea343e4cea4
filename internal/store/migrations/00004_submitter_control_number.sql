-- The caller's own number for an eligibility check (the request's
-- controlNumber, sent as BHT03), beside control_number (our ISA13).

-- +goose Up
ALTER TABLE eligibility_checks ADD COLUMN submitter_control_number TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE eligibility_checks DROP COLUMN submitter_control_number;
