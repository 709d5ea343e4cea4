-- A check's request JSON, the payer's 271 and the JSON answered to the
-- caller (~13–18 KB, the answer alone up to 16 KB) are stored together in
-- one compressed value (package store, pack.go: S2 with a dictionary, to
-- 0.7–2.6 KB), so a check's row fits one 4 KiB page instead of spilling
-- onto three or four overflow pages, each a WAL frame to write, fsync and
-- copy at the checkpoint. Rows stored before keep their TEXT columns and a
-- NULL payload; new rows leave those three columns empty. The 270 stays in
-- x12_request: the history's "sent only" filter reads it.
-- +goose Up
ALTER TABLE eligibility_checks ADD COLUMN payload BYTEA;

-- +goose Down
-- (Rows stored since keep their answers only in payload: going down loses
-- them for a build that does not read it.)
ALTER TABLE eligibility_checks DROP COLUMN payload;
