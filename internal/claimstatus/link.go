package claimstatus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/blob"
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
			if err := record(ctx, tx, t, c, store.ClaimAnswer999, outcome, Detail{AckStatus: a.Status}); err != nil {
				return err
			}
		}
	}
	return nil
}

// linkClaims links a 277 or 835: its patient control numbers (the
// transaction's business identifiers of element) name the candidates, and
// only then is the set read for each claim's status.
func (l *Linker) linkClaims(ctx context.Context, tx store.Queries, t store.Transaction, element, kind string,
	read func(io.Reader) ([]claimFact, error)) error {
	var pcns []string
	for _, id := range t.Identifiers {
		if id.Element == element && len(pcns) < MaxClaimsPerSet {
			pcns = append(pcns, id.Value)
		}
	}
	var candidates []store.DentalClaim
	for len(pcns) > 0 { // 500 numbers a query
		n := min(len(pcns), 500)
		found, err := tx.FindClaimsForAnswer(ctx, t.AccountID, t.Mode, nil, pcns[:n])
		if err != nil {
			return err
		}
		candidates, pcns = append(candidates, found...), pcns[n:]
	}
	if len(candidates) == 0 {
		return nil
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
	for _, f := range facts {
		c, ok := match(candidates, f)
		if !ok {
			continue
		}
		outcome, d := judge(kind, f)
		if err := record(ctx, tx, t, c, kind, outcome, d); err != nil {
			return err
		}
	}
	return nil
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

// judge turns a fact into an outcome.
func judge(kind string, f claimFact) (string, Detail) {
	d := Detail{Statuses: f.Statuses, PayerClaimNumber: f.PayerClaim, ClaimStatus: f.ClaimStatus,
		Charge: f.ChargeAmount, Paid: f.PaidAmount, PatientShare: f.PatientShare}
	if kind == store.ClaimAnswer835 {
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

func record(ctx context.Context, tx store.Queries, t store.Transaction, c store.DentalClaim, kind, outcome string, d Detail) error {
	detail, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return tx.RecordClaimAnswer(ctx, store.ClaimAnswer{ClaimID: c.ID, AccountID: t.AccountID, Mode: t.Mode, Kind: kind,
		Outcome: outcome, ExecutionID: t.ExecutionID, TransactionID: t.ID, Detail: detail, CreatedAt: t.CreatedAt})
}
