-- +goose Up
-- One row that /readyz rewrites: a database that cannot commit a write
-- (disk full, read-only file system or standby) is not ready, even if it
-- still answers reads.
CREATE TABLE readiness (
    id         INTEGER PRIMARY KEY,
    checked_at BIGINT NOT NULL
);
INSERT INTO readiness (id, checked_at) VALUES (1, 0);

-- +goose Down
DROP TABLE readiness;
