-- Which payer simulator scenario produced each simulated answer: an
-- eligibility check's 271, or a claim's 999, 277CA, 835 or 277 (issue 27:
-- deterministic and observable). A side table, so the checks' and claims'
-- own tables stay as they are; rows belong to an account and a mode like
-- what they describe. subject is the check's id, or for a claim its
-- outbound execution id and patient control number ("<execution>/<CLM01>").
-- +goose Up
CREATE TABLE simulated_answers (
    account_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    subject TEXT NOT NULL,
    kind TEXT NOT NULL,
    scenario_name TEXT NOT NULL,
    scenario_index INTEGER NOT NULL,
    scenario_line INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, mode, subject, kind)
);

-- +goose Down
DROP TABLE simulated_answers;
