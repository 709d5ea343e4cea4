package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/jsonstr"
)

// Executions are files in and out (package core): one row per file, its
// transactions (one per ST..SE), their fragments and business identifiers.
// Contents live in the blob store; rows name their keys.
type Executions interface {
	InsertExecution(ctx context.Context, e Execution) error
	GetExecution(ctx context.Context, accountID, id string) (Execution, error)
	// ListExecutions returns the newest executions first and the cursor of
	// the next page ("" on the last page).
	ListExecutions(ctx context.Context, accountID string, f ExecutionFilter) ([]Execution, string, error)
	// UpdateExecution writes e's mutable fields (status, partnership,
	// connection, artifacts, counts, fault, detail, times) when the row's
	// current status is one of from (any status when from is empty).
	// ErrConflict when it is not: another worker got there first.
	UpdateExecution(ctx context.Context, e Execution, from ...string) error

	// InsertTransaction stores a transaction with its fragments and
	// business identifiers.
	InsertTransaction(ctx context.Context, t Transaction) error
	// InsertIdentifiers adds business identifiers to a transaction that
	// InsertTransaction stored, the first at position (the count already
	// stored): a set of a million claims is stored a bounded batch at a time.
	InsertIdentifiers(ctx context.Context, transactionID, accountID string, position int, ids []BusinessIdentifier) error
	// InsertIdentifierValues adds ids to the search by value alone (what
	// InsertIdentifiers writes besides the runs), before transactionID's
	// record exists: an inbound file's pass stores them beside its parsing,
	// and its records then write the runs (InsertIdentifierRuns). Such rows
	// name no transaction until the record does, so no search finds them
	// (the search is scoped by the transactions' rows). Storing the same
	// identifiers again (an earlier attempt that died stored them) changes
	// nothing: the search keeps one row per value, transaction and element.
	InsertIdentifierValues(ctx context.Context, groups []IdentifierValues) error
	// DeleteIdentifierValues removes the search rows of transactionID with
	// these values (a file that fails after its pass stored some), and
	// DeleteIdentifierGroups what named the transaction in them, once
	// every value is deleted.
	DeleteIdentifierValues(ctx context.Context, transactionID string, values []string) error
	DeleteIdentifierGroups(ctx context.Context, transactionID string) error
	// InsertIdentifierRuns is InsertIdentifiers without the search rows
	// (InsertIdentifierValues stored them).
	InsertIdentifierRuns(ctx context.Context, transactionID string, position int, ids []BusinessIdentifier) error
	// GetTransaction returns the transaction with its fragments and
	// business identifiers.
	GetTransaction(ctx context.Context, accountID, id string) (Transaction, error)
	// ListTransactions returns the newest first, without fragments and
	// identifiers.
	ListTransactions(ctx context.Context, accountID string, f TransactionFilter) ([]Transaction, string, error)
}

// Execution statuses. Inbound: RECEIVED → PROCESSING → COMPLETED or FAILED.
// Outbound: PENDING_DELIVERY → DELIVERED or FAILED.
const (
	ExecutionReceived        = "RECEIVED"
	ExecutionProcessing      = "PROCESSING"
	ExecutionCompleted       = "COMPLETED"
	ExecutionFailed          = "FAILED"
	ExecutionPendingDelivery = "PENDING_DELIVERY"
	ExecutionDelivered       = "DELIVERED"
)

// Transaction statuses (api-contract §5.3).
const (
	TransactionSucceeded = "succeeded"
	TransactionFailed    = "failed"
)

// Artifact is one stored content of a record.
type Artifact struct {
	Key         string // blob key, "" when absent
	ContentType string
	Size        int64
}

// Execution is one file, inbound or outbound.
type Execution struct {
	ID            string
	AccountID     string
	Mode          string
	Direction     string // DirectionInbound or DirectionOutbound
	Status        string
	FileType      string // "x12", "csv", "json", ...
	SourceDirname string
	SourceName    string
	ConnectionID  string
	PartnershipID string
	Input         Artifact // the file as received (inbound) or the payload it came from
	Output        Artifact // the generated file (outbound)
	Metadata      Artifact // the execution metadata document (spec §2.6)
	// TransactionCount counts the transactions the file produced.
	TransactionCount int
	FaultCode        string
	FaultMessage     string
	// Detail is free JSON the owning module keeps (e.g. the interchange
	// header of a failed file, delivery reports).
	Detail      []byte
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ProcessedAt time.Time // zero until processed or delivered
}

// ExecutionFilter narrows ListExecutions. Zero fields do not filter.
type ExecutionFilter struct {
	Mode      string
	Direction string
	Status    string
	From, To  time.Time // CreatedAt in [From, To)
	Limit     int       // default 100, at most 500
	Cursor    string
	// PartnershipID keeps the files of one partnership.
	PartnershipID string
	// NameContains keeps files whose source name contains it, in any case
	// (ASCII), as typed: % and _ are not wildcards.
	NameContains string
}

// Transaction is one transaction set of an execution.
type Transaction struct {
	ID                     string
	AccountID              string
	Mode                   string
	ExecutionID            string
	SetIndex               int // 0-based position of the set in its file
	Direction              string
	Status                 string
	TransactionSetID       string // ST01
	ControlNumber          string // ST02
	GuideID                string
	PartnershipID          string
	TransactionSettingID   string
	Sender, Receiver       string // "qualifier/id" of ISA05/06 and ISA07/08
	Input                  Artifact
	Output                 Artifact
	FragmentCount          int
	FragmentBatchSize      int
	FragmentKeyName        string
	Fragments              []Fragment
	Identifiers            []BusinessIdentifier
	Detail                 []byte // JSON: partnership, x12 metadata and setting (the event's shape)
	ProcessedAt, CreatedAt time.Time
}

// Fragment is one piece of a transaction's Guide JSON.
type Fragment struct {
	Index  int
	Output Artifact
}

// BusinessIdentifier is one tracked value of a transaction (BHT-03, CLM-01...).
type BusinessIdentifier struct {
	Element   string // "CLM-01"
	ElementID string // X12 data element number, "1028"
	Name      string
	Value     string
}

// TransactionFilter narrows ListTransactions. Zero fields do not filter.
type TransactionFilter struct {
	Mode               string
	ExecutionID        string
	Direction          string
	Status             string
	TransactionSetID   string
	PartnershipID      string
	Sender, Receiver   string
	BusinessIdentifier string // a transaction having this identifier value
	ElementID          string // with BusinessIdentifier: only this element ("CLM-01" or "1028")
	From, To           time.Time
	Limit              int
	Cursor             string
	// Ascending lists oldest first, processed strictly after From (the
	// polling endpoint: a client resumes after what it has seen).
	Ascending bool
}

const executionColumns = `id, account_id, mode, direction, status, file_type, source_dirname, source_name,
	connection_id, partnership_id, input_key, input_type, input_size, output_key, output_size,
	metadata_key, metadata_size, transaction_count, fault_code, fault_message, detail,
	created_at, updated_at, processed_at`

const insertExecutionSQL = `INSERT INTO executions (` + executionColumns + `) VALUES
	($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`

func (q *queries) InsertExecution(ctx context.Context, e Execution) error {
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = e.CreatedAt
	}
	_, err := q.w.exec(ctx, insertExecutionSQL,
		e.ID, e.AccountID, e.Mode, e.Direction, e.Status, e.FileType, e.SourceDirname, e.SourceName,
		e.ConnectionID, e.PartnershipID, e.Input.Key, e.Input.ContentType, e.Input.Size, e.Output.Key, e.Output.Size,
		e.Metadata.Key, e.Metadata.Size, e.TransactionCount, e.FaultCode, e.FaultMessage, string(e.Detail),
		toUS(e.CreatedAt), toUS(e.UpdatedAt), nullUS(e.ProcessedAt))
	return mapErr(err)
}

func (q *queries) GetExecution(ctx context.Context, accountID, id string) (Execution, error) {
	return scanExecution(q.r.queryRow(ctx, `SELECT `+executionColumns+` FROM executions WHERE account_id = $1 AND id = $2`, accountID, id))
}

func (q *queries) UpdateExecution(ctx context.Context, e Execution, from ...string) error {
	args := []any{e.AccountID, e.ID, e.Status, e.ConnectionID, e.PartnershipID, e.Output.Key, e.Output.Size,
		e.Metadata.Key, e.Metadata.Size, e.TransactionCount, e.FaultCode, e.FaultMessage, string(e.Detail),
		toUS(e.UpdatedAt), nullUS(e.ProcessedAt), e.FileType}
	cond := ""
	if len(from) > 0 {
		cond = " AND status IN (" + placeholders(len(args)+1, len(from)) + ")"
		for _, s := range from {
			args = append(args, s)
		}
	}
	res, err := q.w.exec(ctx, `UPDATE executions SET status = $3, connection_id = $4, partnership_id = $5,
		output_key = $6, output_size = $7, metadata_key = $8, metadata_size = $9, transaction_count = $10,
		fault_code = $11, fault_message = $12, detail = $13, updated_at = $14, processed_at = $15, file_type = $16
		WHERE account_id = $1 AND id = $2`+cond, args...)
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	if _, err := q.GetExecution(ctx, e.AccountID, e.ID); err != nil {
		return err
	}
	return fmt.Errorf("%w: execution %s is no longer in status %v", ErrConflict, e.ID, from)
}

func (q *queries) ListExecutions(ctx context.Context, accountID string, f ExecutionFilter) ([]Execution, string, error) {
	w := newWhere(accountID)
	w.addIf(f.Mode != "", "mode = $?", f.Mode)
	w.addIf(f.Direction != "", "direction = $?", f.Direction)
	w.addIf(f.Status != "", "status = $?", f.Status)
	w.addIf(!f.From.IsZero(), "created_at >= $?", toUS(f.From))
	w.addIf(!f.To.IsZero(), "created_at < $?", toUS(f.To))
	w.addIf(f.PartnershipID != "", "partnership_id = $?", f.PartnershipID)
	w.addIf(f.NameContains != "", `LOWER(source_name) LIKE $? ESCAPE '\'`, likeContains(f.NameContains))
	if err := w.cursor(f.Cursor, "created_at"); err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit, 100)
	rows, err := q.r.query(ctx, `SELECT `+executionColumns+` FROM executions WHERE `+w.sql()+`
		ORDER BY created_at DESC, id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, scanExecution)
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *Execution) (time.Time, string) { return r.CreatedAt, r.ID })
	return list, next, nil
}

func scanExecution(row scanner) (Execution, error) {
	var e Execution
	var detail string
	var created, updated int64
	var processed sql.NullInt64
	err := row.Scan(&e.ID, &e.AccountID, &e.Mode, &e.Direction, &e.Status, &e.FileType, &e.SourceDirname, &e.SourceName,
		&e.ConnectionID, &e.PartnershipID, &e.Input.Key, &e.Input.ContentType, &e.Input.Size, &e.Output.Key, &e.Output.Size,
		&e.Metadata.Key, &e.Metadata.Size, &e.TransactionCount, &e.FaultCode, &e.FaultMessage, &detail,
		&created, &updated, &processed)
	if err != nil {
		return Execution{}, mapErr(err)
	}
	e.Detail = bytesOrNil(detail)
	e.CreatedAt, e.UpdatedAt, e.ProcessedAt = fromUS(created), fromUS(updated), fromNullUS(processed)
	return e, nil
}

const transactionColumns = `id, account_id, mode, execution_id, set_index, direction, status, transaction_set_id,
	control_number, guide_id, partnership_id, transaction_setting_id, sender, receiver, input_key, input_size,
	output_key, output_size, fragment_count, fragment_batch_size, fragment_key_name, detail, processed_at, created_at`

const insertTransactionSQL = `INSERT INTO transactions (` + transactionColumns + `) VALUES
	($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`

// insertFragmentSQL and the identifier inserts are the transaction's other
// rows. The values of an identifier run travel as one JSON array that the
// database expands (json_each on SQLite, jsonb_array_elements_text on
// PostgreSQL): a set costs a few statements, not one per claim.
const (
	insertFragmentSQL = `INSERT INTO transaction_fragments (transaction_id, fragment_index, output_key, output_size)
	VALUES ($1, $2, $3, $4)`
	insertIdentifierRunSQL = `INSERT INTO identifier_runs (transaction_id, position, element, element_id, name, vals)
	VALUES ($1, $2, $3, $4, $5, $6)`
)

func (q *queries) InsertTransaction(ctx context.Context, t Transaction) error {
	return q.atomic(ctx, func(q *queries) error {
		_, err := q.w.exec(ctx, insertTransactionSQL,
			t.ID, t.AccountID, t.Mode, t.ExecutionID, t.SetIndex, t.Direction, t.Status, t.TransactionSetID,
			t.ControlNumber, t.GuideID, t.PartnershipID, t.TransactionSettingID, t.Sender, t.Receiver,
			t.Input.Key, t.Input.Size, t.Output.Key, t.Output.Size, t.FragmentCount, t.FragmentBatchSize,
			t.FragmentKeyName, string(t.Detail), toUS(t.ProcessedAt), toUS(t.CreatedAt))
		if err != nil {
			return mapErr(err)
		}
		for _, f := range t.Fragments {
			if _, err := q.w.exec(ctx, insertFragmentSQL, t.ID, f.Index, f.Output.Key, f.Output.Size); err != nil {
				return mapErr(err)
			}
		}
		return q.insertIdentifiers(ctx, t.ID, t.AccountID, 0, t.Identifiers)
	})
}

func (q *queries) InsertIdentifiers(ctx context.Context, transactionID, accountID string, position int, ids []BusinessIdentifier) error {
	return q.atomic(ctx, func(q *queries) error { return q.insertIdentifiers(ctx, transactionID, accountID, position, ids) })
}

func (q *queries) InsertIdentifierRuns(ctx context.Context, transactionID string, position int, ids []BusinessIdentifier) error {
	return q.atomic(ctx, func(q *queries) error { return q.writeIdentifiers(ctx, transactionID, position, ids, true, false) })
}

// insertIdentifiers writes a transaction's business identifiers: each run
// of one element (consecutive identifiers with the same element, id and
// name: the 5,000 CLP-01 of a claim set) as one identifier_runs row in
// their order, and their values, sorted, into identifier_keys for the
// search. Sorted, consecutive inserts land on neighbouring pages of the
// value index instead of one random page each (a third of the cost of
// random order in a set of 300,000 claims); the order of the runs is kept
// by their position.
func (q *queries) insertIdentifiers(ctx context.Context, transactionID, accountID string, position int, ids []BusinessIdentifier) error {
	_ = accountID // the scope of the rows is their transaction's
	return q.writeIdentifiers(ctx, transactionID, position, ids, true, true)
}

// writeIdentifiers writes the runs, the search rows or both of ids.
func (q *queries) writeIdentifiers(ctx context.Context, transactionID string, position int, ids []BusinessIdentifier, runs, search bool) error {
	var values []string
	var doc []byte
	for start := 0; start < len(ids); {
		first := ids[start]
		end := start + 1
		for end < len(ids) && ids[end].Element == first.Element && ids[end].ElementID == first.ElementID && ids[end].Name == first.Name {
			end++
		}
		values = values[:0]
		for _, b := range ids[start:end] {
			values = append(values, b.Value)
		}
		if runs {
			doc = appendJSONStrings(doc[:0], values)
			if _, err := q.w.exec(ctx, insertIdentifierRunSQL, transactionID, position+start, first.Element, first.ElementID, first.Name, string(doc)); err != nil {
				return mapErr(err)
			}
		}
		if search {
			g := []IdentifierValues{{TransactionID: transactionID, Element: first.Element, ElementID: first.ElementID, Values: values}}
			if err := q.insertSearchKeys(ctx, g); err != nil {
				return err
			}
		}
		start = end
	}
	return nil
}

// appendJSONStrings appends values as a JSON array of strings.
func appendJSONStrings(b []byte, values []string) []byte {
	b = append(b, '[')
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, v)
	}
	return append(b, ']')
}

// appendJSONString appends v as a JSON string (the database parses it:
// no HTML escaping needed).
func appendJSONString(b []byte, v string) []byte { return jsonstr.Append(b, v, false) }

func (q *queries) GetTransaction(ctx context.Context, accountID, id string) (Transaction, error) {
	t, err := scanTransaction(q.r.queryRow(ctx, `SELECT `+transactionColumns+` FROM transactions WHERE account_id = $1 AND id = $2`, accountID, id))
	if err != nil {
		return Transaction{}, err
	}
	rows, err := q.r.query(ctx, `SELECT fragment_index, output_key, output_size FROM transaction_fragments
		WHERE transaction_id = $1 ORDER BY fragment_index`, id)
	if err != nil {
		return Transaction{}, err
	}
	if t.Fragments, err = collect(rows, func(row scanner) (Fragment, error) {
		f := Fragment{Output: Artifact{ContentType: "application/json"}}
		return f, row.Scan(&f.Index, &f.Output.Key, &f.Output.Size)
	}); err != nil {
		return Transaction{}, err
	}
	if t.Identifiers, err = q.identifiers(ctx, id); err != nil {
		return Transaction{}, err
	}
	return t, nil
}

// identifiers reads a transaction's business identifiers in order: from
// its runs, or, for a transaction recorded before the runs existed (no
// runs), from business_identifiers.
func (q *queries) identifiers(ctx context.Context, transactionID string) ([]BusinessIdentifier, error) {
	rows, err := q.r.query(ctx, `SELECT element, element_id, name, vals FROM identifier_runs
		WHERE transaction_id = $1 ORDER BY position`, transactionID)
	if err != nil {
		return nil, err
	}
	type run struct {
		id   BusinessIdentifier
		vals string
	}
	runs, err := collect(rows, func(row scanner) (run, error) {
		var r run
		return r, row.Scan(&r.id.Element, &r.id.ElementID, &r.id.Name, &r.vals)
	})
	if err != nil {
		return nil, err
	}
	var out []BusinessIdentifier
	for _, r := range runs {
		var values []string
		if err := json.Unmarshal([]byte(r.vals), &values); err != nil {
			return nil, fmt.Errorf("store: identifiers of transaction %s: %w", transactionID, err)
		}
		for _, v := range values {
			b := r.id
			b.Value = v
			out = append(out, b)
		}
	}
	if len(runs) > 0 {
		return out, nil
	}
	rows, err = q.r.query(ctx, `SELECT element, element_id, name, value FROM business_identifiers
		WHERE transaction_id = $1 ORDER BY position`, transactionID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (BusinessIdentifier, error) {
		var b BusinessIdentifier
		return b, row.Scan(&b.Element, &b.ElementID, &b.Name, &b.Value)
	})
}

func (q *queries) ListTransactions(ctx context.Context, accountID string, f TransactionFilter) ([]Transaction, string, error) {
	w := newWhere(accountID)
	w.addIf(f.Mode != "", "mode = $?", f.Mode)
	w.addIf(f.ExecutionID != "", "execution_id = $?", f.ExecutionID)
	w.addIf(f.Direction != "", "direction = $?", f.Direction)
	w.addIf(f.Status != "", "status = $?", f.Status)
	w.addIf(f.TransactionSetID != "", "transaction_set_id = $?", f.TransactionSetID)
	w.addIf(f.PartnershipID != "", "partnership_id = $?", f.PartnershipID)
	w.addIf(f.Sender != "", "sender = $?", f.Sender)
	w.addIf(f.Receiver != "", "receiver = $?", f.Receiver)
	w.addIf(!f.From.IsZero() && !f.Ascending, "processed_at >= $?", toUS(f.From))
	w.addIf(!f.From.IsZero() && f.Ascending, "processed_at > $?", toUS(f.From))
	w.addIf(!f.To.IsZero(), "processed_at < $?", toUS(f.To))
	if f.BusinessIdentifier != "" {
		w.args = append(w.args, f.BusinessIdentifier)
		// The account's scope is the outer query's (account_id = $1).
		sub := fmt.Sprintf(searchIdentifierSQL, len(w.args))
		if f.ElementID != "" {
			w.args = append(w.args, f.ElementID)
			sub += fmt.Sprintf(searchIdentifierElementSQL, len(w.args))
		}
		w.conds = append(w.conds, sub+")")
	}
	order := "DESC"
	if f.Ascending {
		order = "ASC"
		if err := w.cursorAfter(f.Cursor, "processed_at"); err != nil {
			return nil, "", err
		}
	} else if err := w.cursor(f.Cursor, "processed_at"); err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit, 100)
	rows, err := q.r.query(ctx, `SELECT `+transactionColumns+` FROM transactions WHERE `+w.sql()+`
		ORDER BY processed_at `+order+`, id `+order+` LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, scanTransaction)
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *Transaction) (time.Time, string) { return r.ProcessedAt, r.ID })
	return list, next, nil
}

func scanTransaction(row scanner) (Transaction, error) {
	var t Transaction
	var detail string
	var processed, created int64
	err := row.Scan(&t.ID, &t.AccountID, &t.Mode, &t.ExecutionID, &t.SetIndex, &t.Direction, &t.Status, &t.TransactionSetID,
		&t.ControlNumber, &t.GuideID, &t.PartnershipID, &t.TransactionSettingID, &t.Sender, &t.Receiver,
		&t.Input.Key, &t.Input.Size, &t.Output.Key, &t.Output.Size, &t.FragmentCount, &t.FragmentBatchSize,
		&t.FragmentKeyName, &detail, &processed, &created)
	if err != nil {
		return Transaction{}, mapErr(err)
	}
	// Both directions keep the X12 as the input and its Guide JSON as the
	// output: an inbound set is translated to JSON, and a claim stores the
	// 837D it built as its transaction's input beside the 837D's Guide JSON.
	t.Input.ContentType, t.Output.ContentType = "application/edi-x12", "application/json"
	t.Detail = bytesOrNil(detail)
	t.ProcessedAt, t.CreatedAt = fromUS(processed), fromUS(created)
	return t, nil
}

// likeContains is a LIKE pattern matching s anywhere, lower-cased, with
// LIKE's own characters escaped with a backslash.
func likeContains(s string) string {
	s = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(strings.ToLower(s))
	return "%" + s + "%"
}
