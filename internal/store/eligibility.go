package store

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// eligibilityColumns are read back: request_json, x12_response and
// response_json hold the rows stored before payload (pack.go), which new
// rows hold instead (leaving those three empty).
const eligibilityColumns = `id, account_id, key_id, mode, trading_partner_service_id, payer_name,
	control_number, status, request_json, x12_request, x12_response, response_json,
	http_status, created_at, duration_us, cost_micros,
	patient_name, member_id, patient_birth_date, service_date, submitter_control_number, route, payload`

const insertEligibilitySQL = `INSERT INTO eligibility_checks (id, account_id, key_id, mode, trading_partner_service_id,
	payer_name, control_number, status, x12_request, http_status, created_at, duration_us, cost_micros,
	patient_name, member_id, patient_birth_date, service_date, submitter_control_number, route, payload)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`

// checkColumns is how many values insertEligibilitySQL takes.
const checkColumns = 20

// checkArgs writes c's values for insertEligibilitySQL's columns, in its
// order, into dst (checkColumns long).
func checkArgs(dst []any, c *EligibilityCheck, payload any) {
	_ = dst[checkColumns-1]
	dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = c.ID, c.AccountID, c.KeyID, c.Mode, c.TradingPartnerServiceID, c.PayerName
	dst[6], dst[7], dst[8], dst[9], dst[10], dst[11], dst[12] = c.ControlNumber, c.Status, text(c.X12Request), c.HTTPStatus,
		toUS(c.CreatedAt), c.DurationMicros, c.CostMicros
	dst[13], dst[14], dst[15], dst[16] = strings.ToUpper(c.PatientName), strings.ToUpper(c.MemberID), c.PatientBirthDate, c.ServiceDate
	dst[17], dst[18], dst[19] = c.SubmitterControlNumber, c.Route, payload
}

func (q *queries) InsertEligibilityCheck(ctx context.Context, c EligibilityCheck) error {
	if c.Mode != ModeProduction {
		c.CostMicros = 0 // test checks are free
	}
	if q.inTx && q.w.pend.deferCheck(&c) {
		return nil // written with its audit event when the caller's function returns (checkrows.go)
	}
	return q.atomic(ctx, func(q *queries) error {
		payload, buf := packCheck(&c)
		var args [checkColumns]any
		checkArgs(args[:], &c, payload)
		_, err := q.w.exec(ctx, insertEligibilitySQL, args[:]...)
		putPacked(buf)
		if err != nil {
			return mapErr(err)
		}
		if sim := c.Simulation; sim != nil {
			if _, err := q.w.exec(ctx, insertSimulatedSQL, c.AccountID, c.Mode, c.ID, sim.Kind, sim.Scenario, sim.Index, sim.Line,
				toUS(c.CreatedAt)); err != nil {
				return mapErr(err)
			}
		}
		return nil
	})
}

// text passes b to the driver as a string without copying it first: a
// check's JSON and X12 are ~18 KB, and both drivers copy a string argument
// while the statement runs (SQLite's bind, pgx's encoding); the caller
// does not change b meanwhile, and nothing keeps the string after.
func text(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func (q *queries) GetEligibilityCheck(ctx context.Context, accountID, id string) (EligibilityCheck, error) {
	return scanEligibility(q.r.queryRow(ctx, `SELECT `+eligibilityColumns+`
		FROM eligibility_checks WHERE account_id = $1 AND id = $2`, accountID, id))
}

func (q *queries) ListEligibilityChecks(ctx context.Context, accountID string, f EligibilityFilter) ([]EligibilityCheck, string, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	where := []string{"account_id = $1"}
	args := []any{accountID}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(args))))
	}
	if f.PayerID != "" {
		add("trading_partner_service_id = $?", f.PayerID)
	}
	if len(f.PayerIDs) > 0 {
		in := make([]string, len(f.PayerIDs))
		for i, id := range f.PayerIDs {
			args = append(args, id)
			in[i] = "$" + strconv.Itoa(len(args))
		}
		where = append(where, "trading_partner_service_id IN ("+strings.Join(in, ", ")+")")
	}
	if f.Status != "" {
		add("status = $?", f.Status)
	}
	if f.PatientName != "" {
		add(`patient_name LIKE $? ESCAPE '\'`, "%"+likeEscaper.Replace(strings.ToUpper(f.PatientName))+"%")
	}
	if f.MemberID != "" {
		add("member_id = $?", strings.ToUpper(f.MemberID))
	}
	if f.PatientBirthDate != "" {
		add("patient_birth_date = $?", f.PatientBirthDate)
	}
	if f.ServiceDate != "" {
		add("service_date = $?", f.ServiceDate)
	}
	if f.SentOnly {
		where = append(where, "x12_request <> '' AND http_status <> 403")
	}
	if f.Mode != "" {
		add("mode = $?", f.Mode)
	}
	if !f.From.IsZero() {
		add("created_at >= $?", toUS(f.From))
	}
	if !f.To.IsZero() {
		add("created_at < $?", toUS(f.To))
	}
	if f.Cursor != "" {
		at, id, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		args = append(args, at, id)
		n := len(args)
		where = append(where, fmt.Sprintf("(created_at < $%d OR (created_at = $%d AND id < $%d))", n-1, n-1, n))
	}
	args = append(args, limit+1)
	rows, err := q.r.query(ctx, `SELECT `+eligibilityColumns+` FROM eligibility_checks
		WHERE `+strings.Join(where, " AND ")+`
		ORDER BY created_at DESC, id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, "", err
	}
	checks, err := collect(rows, scanEligibility)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(checks) > limit {
		checks = checks[:limit]
		last := checks[limit-1]
		next = encodeCursor(toUS(last.CreatedAt), last.ID)
	}
	return checks, next, nil
}

// likeEscaper makes a search text match itself only in LIKE ... ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)

// ErrBadCursor is returned for a cursor this store did not produce.
var ErrBadCursor = errors.New("store: invalid cursor")

func encodeCursor(at int64, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(at, 10) + ":" + id))
}

func decodeCursor(s string) (int64, string, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return 0, "", ErrBadCursor
	}
	atText, id, ok := strings.Cut(string(b), ":")
	at, err := strconv.ParseInt(atText, 10, 64)
	if !ok || err != nil || id == "" {
		return 0, "", ErrBadCursor
	}
	return at, id, nil
}

func scanEligibility(row scanner) (EligibilityCheck, error) {
	var c EligibilityCheck
	var req, x12req, x12resp, resp string
	var payload []byte
	var created int64
	err := row.Scan(&c.ID, &c.AccountID, &c.KeyID, &c.Mode, &c.TradingPartnerServiceID, &c.PayerName,
		&c.ControlNumber, &c.Status, &req, &x12req, &x12resp, &resp,
		&c.HTTPStatus, &created, &c.DurationMicros, &c.CostMicros,
		&c.PatientName, &c.MemberID, &c.PatientBirthDate, &c.ServiceDate, &c.SubmitterControlNumber, &c.Route, &payload)
	if err != nil {
		return EligibilityCheck{}, mapErr(err)
	}
	c.X12Request = bytesOrNil(x12req)
	if payload == nil {
		// Stored before the payload column.
		c.RequestJSON, c.X12Response, c.ResponseJSON = bytesOrNil(req), bytesOrNil(x12resp), bytesOrNil(resp)
	} else if err := unpackCheck(payload, &c); err != nil {
		return EligibilityCheck{}, fmt.Errorf("%w (check %s)", err, c.ID)
	}
	c.CreatedAt = fromUS(created)
	return c, nil
}

func bytesOrNil(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}

// A check is its own usage row (usage.go): usage holds the calls of other
// kinds and the checks retention removed.
const usageColumns = `id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at`
