package reports

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
)

// Remittances read for people: what an 835 paid, per transaction set, per
// claim and per service line, with its adjustments' codes explained from
// the shipped CARC and RARC lists. The console's claim page and file page
// show these; the contract's report JSON (Convert835) stays the API's.

// Remittance is one 835 transaction set: one payment (a check, an EFT or
// no money at all) and the claims it settles.
type Remittance struct {
	ControlNumber      string // ST02
	PayerName, PayerID string // N1*PR, its REF*2U or N1-04
	PayeeName, PayeeID string // N1*PE and its id (NPI or tax id)
	PayeeIDType        string // N1-03: XX (NPI), FI (tax id), PI, XV
	// Method is BPR04 (ACH, CHK, FWT, BOP, NON); Trace the check or EFT
	// trace number (TRN02); Date the check's or EFT's date (BPR16).
	Method, Trace, Date string
	TotalCents          int64 // BPR02, negative when BPR03 is D
	Claims              []ClaimPayment
	// MoreClaims counts the set's claims past the ones kept.
	MoreClaims int
	// ProviderAdjustmentCents is the PLB amounts added up (taken from
	// the payment, so a positive amount pays less).
	ProviderAdjustmentCents int64
}

// MethodWords says how the money was sent.
func (r Remittance) MethodWords() string {
	switch r.Method {
	case "ACH":
		return "Electronic funds transfer (ACH)"
	case "CHK":
		return "Paper check"
	case "FWT":
		return "Wire transfer"
	case "BOP":
		return "Financial institution option"
	case "NON":
		return "No payment"
	}
	return r.Method
}

// PayeeIDWords names the payee's id ("NPI 1999999984").
func (r Remittance) PayeeIDWords() string {
	if r.PayeeID == "" {
		return ""
	}
	switch r.PayeeIDType {
	case "XX":
		return "NPI " + r.PayeeID
	case "FI":
		return "tax ID " + r.PayeeID
	}
	return r.PayeeID
}

// ClaimPayment is one CLP: the payer's decision on one claim.
type ClaimPayment struct {
	PCN              string // CLP01: the claim's patient control number
	StatusCode       string // CLP02
	ChargeCents      int64  // CLP03
	PaidCents        int64  // CLP04
	PatientCents     int64  // CLP05
	PayerClaimNumber string // CLP07
	Adjustments      []Adjustment
	Remarks          []Remark // MOA's remark codes
	Lines            []LinePayment
}

// Denied: CLP02 4.
func (c ClaimPayment) Denied() bool { return c.StatusCode == "4" }

// Reversal: CLP02 22, an earlier payment taken back.
func (c ClaimPayment) Reversal() bool { return c.StatusCode == "22" }

// Partial: processed, but less paid than charged.
func (c ClaimPayment) Partial() bool {
	return !c.Denied() && !c.Reversal() && c.PaidCents < c.ChargeCents
}

// StatusWords says what the payer did with the claim (CLP02).
func (c ClaimPayment) StatusWords() string {
	switch c.StatusCode {
	case "1", "19":
		return "Processed as primary"
	case "2", "20":
		return "Processed as secondary"
	case "3", "21":
		return "Processed as tertiary"
	case "4":
		return "Denied"
	case "22":
		return "Reversal of an earlier payment"
	case "23":
		return "Not this payer's claim; forwarded"
	case "25":
		return "Predetermination: pricing only, nothing paid"
	}
	return "Status " + c.StatusCode
}

// LinePayment is one SVC: one billed service line's payment.
type LinePayment struct {
	Qualifier, Code string   // SVC01-1, SVC01-2
	Modifiers       []string // SVC01-3…6
	Revenue         string   // SVC04 (institutional)
	Units           string   // SVC05
	ChargeCents     int64    // SVC02
	PaidCents       int64    // SVC03
	AllowedCents    int64    // AMT*B6
	HasAllowed      bool
	Date            string // DTM*472 (or 150), CCYYMMDD
	ControlNumber   string // REF*6R: the line's control number from the claim
	Adjustments     []Adjustment
	Remarks         []Remark // LQ*HE
}

// PatientCents is what the line leaves to the patient: its PR adjustments.
func (l LinePayment) PatientCents() int64 { return PatientShare(l.Adjustments) }

// Adjustment is one reason of a CAS segment.
type Adjustment struct {
	Group       string // CAS01: CO, PR, OA, PI, CR
	Reason      string // the CARC
	AmountCents int64
	Quantity    string
}

// GroupWords says whose the adjusted amount is, in an office's words.
func (a Adjustment) GroupWords() string {
	switch a.Group {
	case "CO":
		return "Contractual (the practice writes it off)"
	case "PR":
		return "Patient responsibility"
	case "OA":
		return "Other adjustment"
	case "PI":
		return "Payer reduction"
	case "CR":
		return "Correction or reversal"
	}
	return adjustmentGroups[a.Group]
}

// ReasonWords is the CARC's description ("" when it is not in the
// shipped list: never guessed).
func (a Adjustment) ReasonWords() string { return CARC(a.Reason) }

// Remark is a remittance advice remark code (RARC).
type Remark struct{ Code string }

// Words is the RARC's description ("" when not in the shipped list).
func (r Remark) Words() string { return RARC(r.Code) }

// PatientShare adds up the patient responsibility (group PR) of adjs.
func PatientShare(adjs []Adjustment) int64 {
	var sum int64
	for _, a := range adjs {
		if a.Group == "PR" {
			sum += a.AmountCents
		}
	}
	return sum
}

// Bounds of ReadRemittances' answer.
const (
	maxRemittanceSets     = 100
	maxRemittanceLines    = 999 // a claim's lines (the 837's own limit)
	maxRemittanceReasons  = 99
	maxRemittanceRemarks  = 99
	defaultKeptClaimCount = 500
)

// ReadRemittances reads the 835 sets of src. keep (nil: every claim)
// chooses the claims whose payments are kept; at most maxClaims
// (default 500) are, the others counted in MoreClaims. Memory is bounded by
// what is kept. A read error after some sets were read returns them with
// the error (a file cut short still shows its first payments).
func ReadRemittances(src io.Reader, keep func(pcn string) bool, maxClaims int) ([]Remittance, error) {
	if maxClaims <= 0 {
		maxClaims = defaultKeptClaimCount
	}
	r := x12.NewReader(src)
	var out []Remittance
	var cur *Remittance
	var claim *ClaimPayment
	var line *LinePayment
	kept := 0
	for {
		s, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if len(out) == 0 {
				return nil, err
			}
			return out, err
		}
		id := string(s.IDBytes())
		if id == "ST" {
			cur, claim, line = nil, nil, nil
			if s.Element(1) == "835" && len(out) < maxRemittanceSets {
				out = append(out, Remittance{ControlNumber: s.Element(2)})
				cur = &out[len(out)-1]
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch id {
		case "SE":
			cur, claim, line = nil, nil, nil
		case "BPR":
			cur.TotalCents, _ = amountCents(s.Element(2))
			if s.Element(3) == "D" {
				cur.TotalCents = -cur.TotalCents
			}
			cur.Method, cur.Date = s.Element(4), s.Element(16)
		case "TRN":
			if cur.Trace == "" {
				cur.Trace = s.Element(2)
			}
		case "N1":
			switch s.Element(1) {
			case "PR":
				cur.PayerName = s.Element(2)
				if cur.PayerID == "" {
					cur.PayerID = s.Element(4)
				}
			case "PE":
				cur.PayeeName, cur.PayeeIDType, cur.PayeeID = s.Element(2), s.Element(3), s.Element(4)
			}
		case "REF":
			if s.Element(1) == "2U" && claim == nil {
				cur.PayerID = s.Element(2)
			}
			if s.Element(1) == "6R" && line != nil {
				line.ControlNumber = s.Element(2)
			}
		case "CLP":
			claim, line = nil, nil
			if keep != nil && !keep(s.Element(1)) {
				continue
			}
			if kept >= maxClaims {
				cur.MoreClaims++
				continue
			}
			kept++
			c := ClaimPayment{PCN: s.Element(1), StatusCode: s.Element(2), PayerClaimNumber: s.Element(7)}
			c.ChargeCents, _ = amountCents(s.Element(3))
			c.PaidCents, _ = amountCents(s.Element(4))
			c.PatientCents, _ = amountCents(s.Element(5))
			cur.Claims = append(cur.Claims, c)
			claim = &cur.Claims[len(cur.Claims)-1]
		case "MOA":
			if claim != nil {
				for i := 3; i <= 7; i++ {
					if code := s.Element(i); code != "" && len(claim.Remarks) < maxRemittanceRemarks {
						claim.Remarks = append(claim.Remarks, Remark{Code: code})
					}
				}
			}
		case "SVC":
			line = nil
			if claim == nil || len(claim.Lines) >= maxRemittanceLines {
				continue
			}
			l := LinePayment{Revenue: s.Element(4), Units: s.Element(5)}
			l.Qualifier, l.Code, l.Modifiers = Procedure(s, 1)
			l.ChargeCents, _ = amountCents(s.Element(2))
			l.PaidCents, _ = amountCents(s.Element(3))
			claim.Lines = append(claim.Lines, l)
			line = &claim.Lines[len(claim.Lines)-1]
		case "DTM":
			if line != nil && (s.Element(1) == "472" || s.Element(1) == "150") {
				line.Date = s.Element(2)
			}
		case "CAS":
			adjs := casReasons(s)
			switch {
			case line != nil:
				line.Adjustments = appendBounded(line.Adjustments, adjs)
			case claim != nil:
				claim.Adjustments = appendBounded(claim.Adjustments, adjs)
			}
		case "AMT":
			if line != nil && s.Element(1) == "B6" {
				line.AllowedCents, line.HasAllowed = amountCents(s.Element(2))
			}
		case "LQ":
			if line != nil && s.Element(1) == "HE" && len(line.Remarks) < maxRemittanceRemarks {
				line.Remarks = append(line.Remarks, Remark{Code: s.Element(2)})
			}
		case "PLB":
			claim, line = nil, nil
			for i := 3; i+1 <= s.Len(); i += 2 {
				if a, ok := amountCents(s.Element(i + 1)); ok {
					cur.ProviderAdjustmentCents += a
				}
			}
		}
	}
	return out, nil
}

func appendBounded(to, adjs []Adjustment) []Adjustment {
	for _, a := range adjs {
		if len(to) >= maxRemittanceReasons {
			break
		}
		to = append(to, a)
	}
	return to
}

// casReasons reads a CAS segment's up to six reason triplets.
func casReasons(s *x12.Segment) []Adjustment {
	var out []Adjustment
	for i := 1; i <= 6; i++ {
		base := 3*i - 1
		code := s.Element(base)
		if code == "" {
			continue
		}
		amount, _ := amountCents(s.Element(base + 1))
		out = append(out, Adjustment{Group: s.Element(1), Reason: code, AmountCents: amount, Quantity: s.Element(base + 2)})
	}
	return out
}

// amountCents reads an X12 decimal amount ("180", "-65.5", "12.345") as
// cents, rounded; false when it is not a number.
func amountCents(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e13 {
		return 0, false
	}
	return int64(math.Round(f * 100)), true
}
