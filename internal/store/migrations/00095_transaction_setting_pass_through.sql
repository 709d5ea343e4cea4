-- An inbound transaction setting may pass through sets Clearhouse has no
-- implementation guide for (a 997, a 4010 set): they are stored as their
-- X12, with no Guide JSON. Without it such a set fails its file with
-- UNSUPPORTED_TRANSACTION (package core).
-- +goose Up
ALTER TABLE x12_transaction_settings ADD COLUMN pass_through BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE x12_transaction_settings DROP COLUMN pass_through;
