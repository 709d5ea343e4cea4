-- The connection (route) that answered a production check, when a payer is
-- reached over ordered routes with failover ("" for test mode and checks
-- that reached no connection).
-- +goose Up
ALTER TABLE eligibility_checks ADD COLUMN route TEXT NOT NULL DEFAULT '';
