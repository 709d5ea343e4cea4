-- +goose Up
-- /readyz inserts a row here that needs new pages, then rolls it back: a
-- database whose file cannot grow (disk full, a size limit) is not ready,
-- even while a rewrite of the one readiness row still fits in its pages.
-- Nothing is ever committed to this table.
CREATE TABLE readiness_probes (
    id      INTEGER PRIMARY KEY,
    payload TEXT NOT NULL
);

-- +goose Down
DROP TABLE readiness_probes;
