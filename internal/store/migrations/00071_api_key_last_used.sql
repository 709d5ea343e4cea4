-- When each API key was last used for an API call (the console's keys
-- page). Written at most once a minute per key and process, never on
-- every request (package api's keyUse); 0 = never since this migration.
-- +goose Up
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE api_keys DROP COLUMN last_used_at;
