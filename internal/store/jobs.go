package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

const jobColumns = `id, kind, account_id, mode, payload, state, attempt, max_attempts, run_at,
	locked_by, locked_until, last_error, created_at, updated_at, finished_at`

const insertJobSQL = `INSERT INTO jobs (id, kind, account_id, mode, payload, state, attempt, max_attempts,
		run_at, created_at, updated_at)
	VALUES ($1, $2, $3, $8, $4, 'available', 0, $5, $6, $7, $7)`

func (q *queries) EnqueueJob(ctx context.Context, n NewJob) (Job, error) {
	if n.Kind == "" {
		return Job{}, errors.New("store: job kind is empty")
	}
	if n.ID == "" {
		n.ID = NewID()
	}
	if n.MaxAttempts < 1 {
		n.MaxAttempts = 1
	}
	if n.CreatedAt.IsZero() {
		n.CreatedAt = time.Now()
	}
	if n.RunAt.IsZero() {
		n.RunAt = n.CreatedAt
	}
	_, err := q.w.exec(ctx, insertJobSQL,
		n.ID, n.Kind, n.AccountID, string(n.Payload), n.MaxAttempts, toUS(n.RunAt), toUS(n.CreatedAt), n.Mode)
	if err != nil {
		return Job{}, mapErr(err)
	}
	if q.inTx {
		q.enqueued = true
	} else {
		q.store.jobsCommitted()
	}
	return Job{
		ID: n.ID, Kind: n.Kind, AccountID: n.AccountID, Mode: n.Mode, Payload: n.Payload, State: JobAvailable,
		MaxAttempts: n.MaxAttempts, RunAt: fromUS(toUS(n.RunAt)),
		CreatedAt: fromUS(toUS(n.CreatedAt)), UpdatedAt: fromUS(toUS(n.CreatedAt)),
	}, nil
}

func (q *queries) ClaimJobs(ctx context.Context, c ClaimParams) ([]Job, error) {
	if c.Worker == "" || c.Limit < 1 || c.Lease <= 0 {
		return nil, fmt.Errorf("store: ClaimJobs needs a worker, a limit and a lease (got %q, %d, %s)", c.Worker, c.Limit, c.Lease)
	}
	now := toUS(c.Now)
	var claimed []Job
	err := q.atomic(ctx, func(q *queries) error {
		if !c.AvailableOnly {
			if err := q.sweepExpiredLeases(ctx, now); err != nil {
				return err
			}
		}
		// The limit is written into the statement, not bound: SQLite
		// re-prepares a statement whose LIMIT parameter is rebound, which
		// cost a claim five times its run. One statement per limit (at
		// most the queue's concurrency) stays prepared instead.
		limit := strconv.Itoa(c.Limit)
		args := []any{now, c.Worker, toUS(c.Now.Add(c.Lease))}
		kindFilter := ""
		if len(c.Kinds) > 0 {
			kindFilter = " AND kind IN (" + placeholders(len(args)+1, len(c.Kinds)) + ")"
			for _, k := range c.Kinds {
				args = append(args, k)
			}
		}
		for _, sc := range c.ExcludeScopes {
			kindFilter += " AND NOT (account_id = $" + strconv.Itoa(len(args)+1) + " AND mode = $" + strconv.Itoa(len(args)+2) + ")"
			args = append(args, sc.AccountID, sc.Mode)
		}
		available := "state = 'available' AND run_at <= $1"
		if q.w.sqlite {
			// Only the first limit due jobs in (run_at, id) order can be
			// claimed: take them from the jobs_due index instead of
			// sorting every due job (a burst of thousands) on each claim.
			// SQLite's single writer makes this safe; PostgreSQL's
			// claimers must each skip the others' locked rows, so there
			// the whole due set stays a candidate.
			available = "id IN (SELECT id FROM jobs WHERE state = 'available' AND run_at <= $1" + kindFilter +
				" ORDER BY run_at, id LIMIT " + limit + ")"
		}
		if !c.AvailableOnly {
			available = "(" + available + ") OR (state = 'running' AND locked_until <= $1)"
		}
		rows, err := q.w.query(ctx, `UPDATE jobs SET state = 'running', attempt = attempt + 1,
				locked_by = $2, locked_until = $3, updated_at = $1
			WHERE id IN (
				SELECT id FROM jobs
				WHERE (`+available+`)`+kindFilter+`
				ORDER BY run_at, id
				LIMIT `+limit+` `+skipLocked+`)
			RETURNING `+jobColumns, args...)
		if err != nil {
			return err
		}
		claimed, err = collect(rows, scanJob)
		if err != nil {
			return err
		}
		if len(claimed) == 0 {
			return nil
		}
		// One statement for the batch's attempt rows.
		var values strings.Builder
		args = append(args[:0], c.Worker, now)
		for i, j := range claimed {
			if i > 0 {
				values.WriteString(", ")
			}
			fmt.Fprintf(&values, "($%d, $%d, $1, $2, 'running')", len(args)+1, len(args)+2)
			args = append(args, j.ID, j.Attempt)
		}
		_, err = q.w.exec(ctx, `INSERT INTO job_attempts (job_id, attempt, worker, started_at, outcome) VALUES `+values.String(), args...)
		return mapErr(err)
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim jobs: %w", err)
	}
	return claimed, nil
}

// sweepExpiredLeases ends the attempts whose worker let the lease lapse
// before a claim takes their jobs again, and parks the jobs that were on
// their last attempt.
func (q *queries) sweepExpiredLeases(ctx context.Context, now int64) error {
	// Attempts whose worker let the lease lapse are over.
	if _, err := q.w.exec(ctx, `UPDATE job_attempts SET outcome = 'lease_expired', finished_at = $1,
			error = 'lease expired before the worker finished'
		WHERE outcome = 'running' AND job_id IN (
			SELECT id FROM jobs WHERE state = 'running' AND locked_until <= $1)`, now); err != nil {
		return err
	}
	// ... and if that was the last attempt, so is the job.
	if _, err := q.w.exec(ctx, `UPDATE jobs SET state = 'failed', finished_at = $1, updated_at = $1,
			locked_by = '', locked_until = NULL,
			last_error = 'parked after its last attempt: the worker stopped before finishing (process killed, crashed or stalled past its lease); retry it by hand once the cause is fixed'
		WHERE state = 'running' AND locked_until <= $1 AND attempt >= max_attempts`, now); err != nil {
		return err
	}
	return nil
}

func (q *queries) CompleteJob(ctx context.Context, f FinishParams) error {
	return q.finishJob(ctx, f, JobSucceeded, AttemptSucceeded)
}

func (q *queries) FailJob(ctx context.Context, f FinishParams) error {
	if f.RetryAt.IsZero() {
		return q.finishJob(ctx, f, JobFailed, AttemptFailed)
	}
	return q.finishJob(ctx, f, JobAvailable, AttemptFailed)
}

// finishJob ends the worker's attempt and moves the job to state; only the
// worker still holding that attempt may do so. A worker that overran its
// lease may still finish as long as no other worker has reclaimed the job.
func (q *queries) finishJob(ctx context.Context, f FinishParams, state, outcome string) error {
	now := toUS(f.Now)
	return q.atomic(ctx, func(q *queries) error {
		var finished sql.NullInt64
		runAt := toUS(f.RetryAt)
		if state != JobAvailable {
			finished = sql.NullInt64{Int64: now, Valid: true}
			runAt = now
		}
		res, err := q.w.exec(ctx, `UPDATE jobs SET state = $1, run_at = $2, finished_at = $3, updated_at = $4,
				last_error = $5, locked_by = '', locked_until = NULL
			WHERE id = $6 AND state = 'running' AND locked_by = $7 AND attempt = $8`,
			state, runAt, finished, now, f.Error, f.ID, f.Worker, f.Attempt)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrLeaseLost
		}
		_, err = q.w.exec(ctx, `UPDATE job_attempts SET outcome = $1, finished_at = $2, error = $3
			WHERE job_id = $4 AND attempt = $5`, outcome, now, f.Error, f.ID, f.Attempt)
		return err
	})
}

func (q *queries) ExtendJobLease(ctx context.Context, id, worker string, attempt int, until time.Time) error {
	res, err := q.w.exec(ctx, `UPDATE jobs SET locked_until = $1
		WHERE id = $2 AND state = 'running' AND locked_by = $3 AND attempt = $4`, toUS(until), id, worker, attempt)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrLeaseLost
	}
	return nil
}

func (q *queries) RetryJob(ctx context.Context, id string, now time.Time, extraAttempts int) error {
	if extraAttempts < 1 {
		extraAttempts = 1
	}
	res, err := q.w.exec(ctx, `UPDATE jobs SET state = 'available', run_at = $1, updated_at = $1,
			finished_at = NULL, max_attempts = attempt + $2
		WHERE id = $3 AND state IN ('succeeded', 'failed')`, toUS(now), extraAttempts, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := q.GetJob(ctx, id); err != nil {
			return err
		}
		return fmt.Errorf("%w: job %s is not finished", ErrConflict, id)
	}
	return nil
}

func (q *queries) GetJob(ctx context.Context, id string) (Job, error) {
	return scanJob(q.r.queryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = $1`, id))
}

func (q *queries) ListJobAttempts(ctx context.Context, jobID string) ([]JobAttempt, error) {
	rows, err := q.r.query(ctx, `SELECT job_id, attempt, worker, started_at, finished_at, outcome, error
		FROM job_attempts WHERE job_id = $1 ORDER BY attempt`, jobID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (JobAttempt, error) {
		var a JobAttempt
		var started int64
		var finished sql.NullInt64
		err := row.Scan(&a.JobID, &a.Attempt, &a.Worker, &started, &finished, &a.Outcome, &a.Error)
		a.StartedAt, a.FinishedAt = fromUS(started), fromNullUS(finished)
		return a, err
	})
}

func scanJob(row scanner) (Job, error) {
	var j Job
	var payload string
	var runAt, created, updated int64
	var lockedUntil, finished sql.NullInt64
	err := row.Scan(&j.ID, &j.Kind, &j.AccountID, &j.Mode, &payload, &j.State, &j.Attempt, &j.MaxAttempts, &runAt,
		&j.LockedBy, &lockedUntil, &j.LastError, &created, &updated, &finished)
	if err != nil {
		return Job{}, mapErr(err)
	}
	j.Payload = bytesOrNil(payload)
	j.RunAt, j.CreatedAt, j.UpdatedAt = fromUS(runAt), fromUS(created), fromUS(updated)
	j.LockedUntil, j.FinishedAt = fromNullUS(lockedUntil), fromNullUS(finished)
	return j, nil
}
