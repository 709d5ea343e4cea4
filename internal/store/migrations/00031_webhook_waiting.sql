-- The deliveries waiting for a concurrency slot, by webhook and age: a
-- finishing attempt wakes the oldest without scanning the webhook's
-- delivery history.

-- +goose Up
CREATE INDEX webhook_deliveries_waiting ON webhook_deliveries (webhook_id, waiting_since, id) WHERE waiting_since IS NOT NULL;

-- +goose Down
DROP INDEX webhook_deliveries_waiting;
