package claimstatus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Outcomes: a claim's answer (store.DentalClaim.Answer).
const (
	Acknowledged = "acknowledged" // a 999 accepted the claim's set
	Accepted     = "accepted"     // a 277CA accepted the claim
	Rejected     = "rejected"     // a 999 or 277CA rejected it
	Paid         = "paid"         // an 835 paid it (or processed it)
	Denied       = "denied"       // an 835 denied it (CLP02 4)
	Reversed     = "reversed"     // an 835 reversed a payment (CLP02 22)
)

// Detail is what a claim answer keeps (store.ClaimAnswer.Detail).
type Detail struct {
	Statuses         []Status `json:"statuses,omitempty"`         // 277CA STC
	PayerClaimNumber string   `json:"payerClaimNumber,omitempty"` // REF*1K, CLP07
	AckStatus        string   `json:"ackStatus,omitempty"`        // 999 IK5-01
	ClaimStatus      string   `json:"claimStatus,omitempty"`      // CLP02
	Charge           string   `json:"charge,omitempty"`           // CLP03
	Paid             string   `json:"paid,omitempty"`             // CLP04
	PatientShare     string   `json:"patientShare,omitempty"`     // CLP05
	// SourceEntity and SourceName are a 277CA's information source (NM1
	// of HL 20): PR the payer, AY a clearinghouse.
	SourceEntity string `json:"sourceEntity,omitempty"`
	SourceName   string `json:"sourceName,omitempty"`
	// Payments are every CLP of an 835 about the claim, in order (a
	// payment, its reversal, the corrected payment); the fields above are
	// the last one's.
	Payments []Payment `json:"payments,omitempty"`
}

// Payment is one CLP of an 835 about a claim.
type Payment struct {
	ClaimStatus      string `json:"claimStatus"`                // CLP02
	Charge           string `json:"charge,omitempty"`           // CLP03
	Paid             string `json:"paid,omitempty"`             // CLP04
	PatientShare     string `json:"patientShare,omitempty"`     // CLP05
	PayerClaimNumber string `json:"payerClaimNumber,omitempty"` // CLP07
	CheckOrEFT       string `json:"checkOrEftTraceNumber,omitempty"`
}

// ParseDetail reads a stored answer's detail (zero on bad JSON).
func ParseDetail(b []byte) Detail {
	var d Detail
	_ = json.Unmarshal(b, &d)
	return d
}

// Linker links inbound transactions to the claims they answer.
type Linker struct {
	Blob blob.Store
	// Events records the claims' status changes (required).
	Events *events.Emitter
	// Clock dates the answers and status changes when they are recorded
	// (default clock.System): the core's, so a test's fake time is theirs
	// too.
	Clock clock.Clock
}

// Link is a core.InboundHook: it records, through tx, an answer for every
// claim of the account that the 999, 277 or 835 transaction t refers to.
// Other transactions cost nothing; a 277 or 835 whose patient control
// numbers match no claim is not read.
func (l *Linker) Link(ctx context.Context, tx store.Queries, t store.Transaction) error {
	switch t.TransactionSetID {
	case "999":
		return l.link999(ctx, tx, t)
	case "277":
		return l.linkClaims(ctx, tx, t, "TRN-02", store.ClaimAnswer277CA, read277)
	case "835":
		return l.linkClaims(ctx, tx, t, "CLP-01", store.ClaimAnswer835, read835)
	}
	return nil
}

func (l *Linker) open(ctx context.Context, t store.Transaction) (io.ReadCloser, error) {
	rc, err := l.Blob.Get(ctx, t.Input.Key)
	if err != nil {
		return nil, fmt.Errorf("claimstatus: read transaction %s: %w", t.ID, err)
	}
	return rc, nil
}

func (l *Linker) link999(ctx context.Context, tx store.Queries, t store.Transaction) error {
	rc, err := l.open(ctx, t)
	if err != nil {
		return err
	}
	acks, err := read999(rc)
	rc.Close()
	if err != nil {
		return nil // a 999 we cannot read links nothing; the core reports the file
	}
	var answers []answer
	for _, a := range acks {
		if a.SetID != "837" {
			continue
		}
		found, err := tx.FindClaimsByControlNumbers(ctx, t.AccountID, t.Mode, t.PartnershipID, a.GroupControl, a.SetControl)
		if err != nil {
			return err
		}
		outcome := Acknowledged
		if a.Status != "A" && a.Status != "E" {
			outcome = Rejected
		}
		for _, c := range found {
			answers = append(answers, answer{c, outcome, Detail{AckStatus: a.Status}})
		}
	}
	return l.record(ctx, tx, t, store.ClaimAnswer999, answers)
}

// linkClaims links a 277 or 835: its patient control numbers (the
// transaction's business identifiers of element) name the candidates, and
// only then is the set read for each claim's status. The set's claims that
// name no claim are recorded as unmatched (a set none of whose numbers
// names a claim as one row, without reading it).
func (l *Linker) linkClaims(ctx context.Context, tx store.Queries, t store.Transaction, element, kind string,
	read func(io.Reader) ([]claimFact, error)) error {
	var pcns []string
	for _, id := range t.Identifiers {
		if id.Element == element && len(pcns) < MaxClaimsPerSet {
			pcns = append(pcns, id.Value)
		}
	}
	if len(pcns) == 0 {
		return nil
	}
	var candidates []store.DentalClaim
	for rest := pcns; len(rest) > 0; {
		n := min(len(rest), store.MaxClaimsForAnswer)
		found, err := tx.FindClaimsForAnswer(ctx, t.AccountID, t.Mode, nil, rest[:n])
		if err != nil {
			return err
		}
		candidates, rest = append(candidates, found...), rest[n:]
	}
	if len(candidates) == 0 {
		return tx.RecordUnmatchedReports(ctx, []store.UnmatchedReport{unmatched(t, kind, 0, "")})
	}
	rc, err := l.open(ctx, t)
	if err != nil {
		return err
	}
	facts, err := read(rc)
	rc.Close()
	if err != nil {
		return nil
	}
	// A claim may be named by several claims of the set (an 835's payment,
	// its reversal and the corrected payment): one answer holds them all.
	byClaim := map[string][]claimFact{}
	var order []store.DentalClaim
	var lost []store.UnmatchedReport
	for i, f := range facts {
		c, ok := match(candidates, f)
		if !ok {
			lost = append(lost, unmatched(t, kind, i, f.PCN))
			continue
		}
		if _, seen := byClaim[c.ID]; !seen {
			order = append(order, c)
		}
		byClaim[c.ID] = append(byClaim[c.ID], f)
	}
	answers := make([]answer, len(order))
	for i, c := range order {
		outcome, d := judge(kind, byClaim[c.ID])
		answers[i] = answer{c, outcome, d}
	}
	if err := l.record(ctx, tx, t, kind, answers); err != nil {
		return err
	}
	return tx.RecordUnmatchedReports(ctx, lost)
}

func unmatched(t store.Transaction, kind string, n int, pcn string) store.UnmatchedReport {
	return store.UnmatchedReport{ID: store.UnmatchedReportID(t.ID, n), AccountID: t.AccountID, Mode: t.Mode,
		TransactionID: t.ID, Kind: kind, PatientControlNumber: pcn, CreatedAt: t.CreatedAt}
}

// match finds the claim a fact is about: the one REF*D9 names, else the
// newest with its patient control number (candidates are newest first).
func match(candidates []store.DentalClaim, f claimFact) (store.DentalClaim, bool) {
	if f.ClaimID != "" {
		for _, c := range candidates {
			if strings.EqualFold(c.ID, f.ClaimID) {
				return c, true
			}
		}
	}
	for _, c := range candidates {
		if c.PatientControlNumber == f.PCN {
			return c, true
		}
	}
	return store.DentalClaim{}, false
}

// judge turns what one set says about one claim into an outcome: the last
// of its claims decides (an 835's corrected payment after a reversal).
func judge(kind string, facts []claimFact) (string, Detail) {
	f := facts[len(facts)-1]
	d := Detail{Statuses: f.Statuses, PayerClaimNumber: f.PayerClaim, ClaimStatus: f.ClaimStatus,
		Charge: f.ChargeAmount, Paid: f.PaidAmount, PatientShare: f.PatientShare,
		SourceEntity: f.SourceEntity, SourceName: f.SourceName}
	if kind == store.ClaimAnswer835 {
		for _, p := range facts {
			d.Payments = append(d.Payments, Payment{ClaimStatus: p.ClaimStatus, Charge: p.ChargeAmount, Paid: p.PaidAmount,
				PatientShare: p.PatientShare, PayerClaimNumber: p.PayerClaim, CheckOrEFT: p.CheckOrEFT})
		}
		switch f.ClaimStatus {
		case "4":
			return Denied, d
		case "22":
			return Reversed, d
		}
		return Paid, d
	}
	for _, s := range f.Statuses {
		if s.Rejects() {
			return Rejected, d
		}
	}
	return Accepted, d
}

// answer is what t says about one claim.
type answer struct {
	claim   store.DentalClaim
	outcome string
	detail  Detail
}

// record stores t's answers, with the claim status each reports, and emits
// claim.status.changed.v2 for each claim whose status changes: all through
// tx, so the changes and their events commit together or not at all.
//
// They are dated now, once tx holds the claims, not with t's time: t was
// dated before it waited for the writer, so a 277CA read before a 999 but
// recorded after it (its change names the 999's RECEIVED) was dated before
// it, and listed before it in the events and on the claim's timeline. Read
// after the claims are held (on PostgreSQL a transaction holding one of
// them first has ended), the clock orders each claim's answers and changes
// as they were recorded; a clock that does not (another replica's, behind
// this one's, or a test's frozen one) is overruled by the newest answer
// already recorded on them.
func (l *Linker) record(ctx context.Context, tx store.Queries, t store.Transaction, kind string, answers []answer) error {
	if len(answers) == 0 {
		return nil
	}
	ids := make([]string, len(answers))
	for i, a := range answers {
		ids[i] = a.claim.ID
	}
	newest, err := tx.HoldClaims(ctx, t.AccountID, ids)
	if err != nil {
		return err
	}
	at := l.now().UTC().Truncate(time.Microsecond) // as stored
	if !at.After(newest) {
		at = newest.Add(time.Microsecond)
	}
	for _, an := range answers {
		detail, err := json.Marshal(an.detail)
		if err != nil {
			return err
		}
		c := an.claim
		a := store.ClaimAnswer{ClaimID: c.ID, AccountID: t.AccountID, Mode: t.Mode, Kind: kind,
			Outcome: an.outcome, ExecutionID: t.ExecutionID, TransactionID: t.ID, Detail: detail, CreatedAt: at,
			State: State(kind, an.outcome, an.detail)}
		if kind == store.ClaimAnswer835 {
			a.Paid, a.PaidCents = true, an.detail.PaidCents()
		}
		ch, err := tx.RecordClaimAnswer(ctx, a)
		if err != nil {
			return err
		}
		if ch.Changed() {
			if err := emitChange(ctx, tx, l.Events, c, ch, t.ExecutionID, t.ID, kind, at); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *Linker) now() time.Time {
	if l.Clock == nil {
		return clock.System{}.Now()
	}
	return l.Clock.Now()
}
