package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Events are the stored event envelopes (package events writes them).
type Events interface {
	// InsertEvent stores one event. Call it inside the transaction of the
	// change the event reports (events.Emitter.Emit does, with its dispatch job).
	InsertEvent(ctx context.Context, e Event) error
	GetEvent(ctx context.Context, accountID, id string) (Event, error)
	// ListEvents returns the account's events, newest first, and the cursor
	// of the next page ("" on the last page).
	ListEvents(ctx context.Context, accountID string, f EventFilter) ([]Event, string, error)
}

// Event is one stored event: the whole envelope (JSON) and the fields lists
// filter on.
type Event struct {
	ID            string
	AccountID     string
	Mode          string // ModeTest or ModeProduction
	DetailType    string // "transaction.processed.v2", ...
	ExecutionID   string // "" when the event concerns no execution
	TransactionID string // "" when the event concerns no transaction
	Time          time.Time
	Envelope      []byte // the spec §2.5 envelope, JSON
}

// EventFilter narrows ListEvents. Zero fields do not filter.
type EventFilter struct {
	Mode          string
	DetailType    string
	ExecutionID   string
	TransactionID string
	From          time.Time // Time >= From
	To            time.Time // Time < To
	Limit         int       // default 100, at most 500
	Cursor        string
}

const eventColumns = `id, account_id, mode, detail_type, execution_id, transaction_id, time, envelope`

const insertEventSQL = `INSERT INTO events (` + eventColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`

func (q *queries) InsertEvent(ctx context.Context, e Event) error {
	_, err := q.w.exec(ctx, insertEventSQL, e.ID, e.AccountID, e.Mode, e.DetailType, e.ExecutionID,
		e.TransactionID, toUS(e.Time), string(e.Envelope))
	return mapErr(err)
}

func (q *queries) GetEvent(ctx context.Context, accountID, id string) (Event, error) {
	return scanEvent(q.r.queryRow(ctx, `SELECT `+eventColumns+` FROM events WHERE account_id = $1 AND id = $2`, accountID, id))
}

func (q *queries) ListEvents(ctx context.Context, accountID string, f EventFilter) ([]Event, string, error) {
	w := newWhere(accountID)
	w.addIf(f.Mode != "", "mode = $?", f.Mode)
	w.addIf(f.DetailType != "", "detail_type = $?", f.DetailType)
	w.addIf(f.ExecutionID != "", "execution_id = $?", f.ExecutionID)
	w.addIf(f.TransactionID != "", "transaction_id = $?", f.TransactionID)
	w.addIf(!f.From.IsZero(), "time >= $?", toUS(f.From))
	w.addIf(!f.To.IsZero(), "time < $?", toUS(f.To))
	if err := w.cursor(f.Cursor, "time"); err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit, 100)
	rows, err := q.r.query(ctx, `SELECT `+eventColumns+` FROM events WHERE `+w.sql()+`
		ORDER BY time DESC, id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	evs, err := collect(rows, scanEvent)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(evs) > limit {
		evs = evs[:limit]
		next = encodeCursor(toUS(evs[limit-1].Time), evs[limit-1].ID)
	}
	return evs, next, nil
}

func scanEvent(row scanner) (Event, error) {
	var e Event
	var at int64
	var env string
	if err := row.Scan(&e.ID, &e.AccountID, &e.Mode, &e.DetailType, &e.ExecutionID, &e.TransactionID, &at, &env); err != nil {
		return Event{}, mapErr(err)
	}
	e.Time, e.Envelope = fromUS(at), []byte(env)
	return e, nil
}

// where builds the WHERE clause of a list query, always starting with the
// account, with numbered placeholders.
type where struct {
	conds []string
	args  []any
}

func newWhere(accountID string) *where {
	return &where{conds: []string{"account_id = $1"}, args: []any{accountID}}
}

// addIf adds cond (its placeholder written "$?") with value v when ok.
func (w *where) addIf(ok bool, cond string, v any) {
	if !ok {
		return
	}
	w.args = append(w.args, v)
	w.conds = append(w.conds, strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(w.args))))
}

// cursor adds the keyset condition of a page that continues after cursor,
// for lists ordered by (timeColumn DESC, id DESC).
func (w *where) cursor(cursor, timeColumn string) error { return w.cursorPast(cursor, timeColumn, "<") }

// cursorAfter is cursor for a list in ascending order.
func (w *where) cursorAfter(cursor, timeColumn string) error {
	return w.cursorPast(cursor, timeColumn, ">")
}

// cursorPast keeps the rows past the cursor's (time, id) in the list's
// order: op is "<" for newest first, ">" for oldest first.
func (w *where) cursorPast(cursor, timeColumn, op string) error {
	if cursor == "" {
		return nil
	}
	at, id, err := decodeCursor(cursor)
	if err != nil {
		return err
	}
	w.args = append(w.args, at, id)
	n := len(w.args)
	w.conds = append(w.conds, fmt.Sprintf("(%[1]s %[4]s $%[2]d OR (%[1]s = $%[2]d AND id %[4]s $%[3]d))", timeColumn, n-1, n, op))
	return nil
}

func (w *where) sql() string { return strings.Join(w.conds, " AND ") }

// limit adds the LIMIT value and returns its placeholder.
func (w *where) limit(n int) string {
	w.args = append(w.args, n)
	return "$" + strconv.Itoa(len(w.args))
}

// pageLimit is the page size asked for, def when none, at most 500.
// trimPage cuts a page read with limit+1 rows back to limit and names the
// next page's cursor by the last row's time and id ("" on the last page).
func trimPage[T any](list []T, limit int, key func(*T) (time.Time, string)) ([]T, string) {
	if len(list) <= limit {
		return list, ""
	}
	list = list[:limit]
	at, id := key(&list[limit-1])
	return list, encodeCursor(toUS(at), id)
}

func pageLimit(asked, def int) int {
	if asked <= 0 {
		return def
	}
	return min(asked, 500)
}
