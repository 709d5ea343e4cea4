package store

import (
	"context"
	"time"
)

// SimulatedAnswer records the payer simulator scenario that produced one
// answer: Kind (eligibility, 999, 277CA, 835, 277) about Subject (an
// eligibility check's id, or ClaimSubject of a claim).
type SimulatedAnswer struct {
	AccountID string
	Mode      string
	Subject   string
	Kind      string
	Scenario  string // the scenario's name
	Index     int    // its position in the file, from 0
	Line      int    // the line it starts at
	CreatedAt time.Time
}

// ClaimSubject is the subject of a claim's simulated answers: its outbound
// execution and patient control number, which is what the payer's answers
// name (a claim's id is ours, not the payer's).
func ClaimSubject(executionID, patientControlNumber string) string {
	return executionID + "/" + patientControlNumber
}

// SimulatedAnswers stores which scenario produced each simulated answer.
// Every call names the account and the mode.
type SimulatedAnswers interface {
	// PutSimulatedAnswers records answers; a subject's answer of a kind
	// recorded again (a job's rerun) keeps the first record.
	PutSimulatedAnswers(ctx context.Context, answers []SimulatedAnswer) error
	// ListSimulatedAnswers returns a subject's records, oldest first.
	ListSimulatedAnswers(ctx context.Context, accountID, mode, subject string) ([]SimulatedAnswer, error)
}

const insertSimulatedSQL = `INSERT INTO simulated_answers (account_id, mode, subject, kind, scenario_name, scenario_index, scenario_line, created_at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, mode, subject, kind) DO NOTHING`

func (q *queries) PutSimulatedAnswers(ctx context.Context, answers []SimulatedAnswer) error {
	return q.atomic(ctx, func(q *queries) error {
		for _, a := range answers {
			if _, err := q.w.exec(ctx, insertSimulatedSQL, a.AccountID, a.Mode, a.Subject, a.Kind, a.Scenario, a.Index, a.Line,
				toUS(a.CreatedAt)); err != nil {
				return mapErr(err)
			}
		}
		return nil
	})
}

func (q *queries) ListSimulatedAnswers(ctx context.Context, accountID, mode, subject string) ([]SimulatedAnswer, error) {
	rows, err := q.r.query(ctx, `SELECT kind, scenario_name, scenario_index, scenario_line, created_at FROM simulated_answers
		WHERE account_id = $1 AND mode = $2 AND subject = $3 ORDER BY created_at, kind`, accountID, mode, subject)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []SimulatedAnswer
	for rows.Next() {
		a := SimulatedAnswer{AccountID: accountID, Mode: mode, Subject: subject}
		var created int64
		if err := rows.Scan(&a.Kind, &a.Scenario, &a.Index, &a.Line, &created); err != nil {
			return nil, mapErr(err)
		}
		a.CreatedAt = fromUS(created)
		out = append(out, a)
	}
	return out, mapErr(rows.Err())
}

// SimulatedAnswers returns which scenarios produced the tenant's answers
// about subject (none: the published mocks or a real payer answered).
func (t Tenant) SimulatedAnswers(ctx context.Context, subject string) ([]SimulatedAnswer, error) {
	return t.q.ListSimulatedAnswers(ctx, t.scope.AccountID, t.scope.Mode, subject)
}
