package mockpayer

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
)

// ClaimQuery is what a 276 says of the claim it asks about.
type ClaimQuery struct {
	Caller               payers.Caller
	PatientAccountNumber string // REF*EJ (the claim's patient control number)
	PayerClaimNumber     string // REF*1K
	ClearinghouseClaimID string // REF*D9 (the claim id the submission answered)
	MemberID             string
}

// ClaimState is the claim's state as the payer knows it, in 277 terms.
type ClaimState struct {
	Category, Code, Entity string // STC01
	Charge, Paid           string // STC04, STC05
	PaidDate               string // STC06 (CCYYMMDD)
	CheckNumber            string // STC09
	PayerClaimNumber       string // REF*1K
	PatientAccountNumber   string // REF*EJ
	ServiceDate            string // DTP*472 (D8 or RD8 value)
}

// ClaimStates finds the state of the claim a 276 asks about; false when
// the payer has no such claim.
type ClaimStates func(ctx context.Context, q ClaimQuery) (ClaimState, bool)

// WithClaimStates lets the mock answer claim status requests with the real
// state of the caller's test claims (the in-process mock of a server; the
// standalone `mockpayer serve` has none and answers "not found").
func WithClaimStates(f ClaimStates) Option { return func(p *Payer) { p.states = f } }

// ErrInvalidStatusRequest is returned for a 276 the mock cannot read.
var ErrInvalidStatusRequest = errors.New("mockpayer: not a readable 276 claim status request")

// statusRequest is what the mock reads of a 276.
type statusRequest struct {
	isaSenderQual, isaSender, isaReceiverQual, isaReceiver, usage, gsSender string
	bht03, payerName, payerID, receiverName, receiverID                     string
	providerName, providerQual, providerID                                  string
	subscriberLast, subscriberFirst, memberID                               string
	dependentLast, dependentFirst                                           string
	trace, ej, k1, d9, amount, date                                         string
}

// is276 reports whether an interchange's first set is a 276.
func is276(b []byte) bool {
	r := messageReader(b)
	for range 4 {
		s, err := r.Next()
		if err != nil {
			return false
		}
		if s.Is("ST") {
			return s.Element(1) == "276"
		}
	}
	return false
}

// answerStatus answers a 276 with a 277 (005010X212): the claim's state
// from ClaimStates, or D0:35 (claim not found) when it has none.
func (p *Payer) answerStatus(ctx context.Context, request []byte) ([]byte, error) {
	q, err := read276(request)
	if err != nil {
		return nil, err
	}
	st := ClaimState{Category: "D0", Code: "35"}
	if sc, err := p.simulatedStatus(ctx, q); err != nil {
		return nil, err
	} else if sc != nil {
		cs := sc.Claim.Status
		st = ClaimState{Category: cs.Category, Code: cs.Code, Entity: cs.Entity, Paid: cs.Paid, PaidDate: cs.PaidDate,
			PatientAccountNumber: q.ej}
	} else if p.states != nil {
		caller, _ := payers.CallerFrom(ctx)
		if found, ok := p.states(ctx, ClaimQuery{Caller: caller, PatientAccountNumber: q.ej, PayerClaimNumber: q.k1,
			ClearinghouseClaimID: q.d9, MemberID: q.memberID}); ok {
			st = found
		}
	}
	now := p.now().UTC()
	var out bytes.Buffer
	iw := x12.NewInterchangeWriter(&out, x12.DefaultDelimiters, p.controlNumbers())
	w := &answerWriter{iw: iw}
	do := func(err error) {
		if w.err == nil {
			w.err = err
		}
	}
	do(iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: q.isaReceiverQual, SenderID: q.isaReceiver,
		ReceiverQualifier: q.isaSenderQual, ReceiverID: q.isaSender, Date: now, Usage: q.usage}))
	do(iw.BeginGroup(x12.GroupHeader{FunctionalID: "HN", SenderCode: q.isaReceiver, ReceiverCode: q.gsSender, Date: now, Version: "005010X212"}))
	do(iw.BeginTransaction("277", "005010X212"))
	w.seg("BHT", "0010", "08", cmp.Or(q.bht03, "0"), now.Format("20060102"), now.Format("1504"), "DG")
	w.seg("HL", "1", "", "20", "1")
	w.seg("NM1", "PR", "2", cmp.Or(q.payerName, "MOCK PAYER"), "", "", "", "", "PI", cmp.Or(q.payerID, "MOCK"))
	w.seg("HL", "2", "1", "21", "1")
	w.seg("NM1", "41", "2", cmp.Or(q.receiverName, "SUBMITTER"), "", "", "", "", "46", cmp.Or(q.receiverID, "0"))
	w.seg("HL", "3", "2", "19", "1")
	w.seg("NM1", "1P", "2", cmp.Or(q.providerName, "PROVIDER"), "", "", "", "", cmp.Or(q.providerQual, "XX"), cmp.Or(q.providerID, "0"))
	child := "0"
	if q.dependentLast != "" {
		child = "1"
	}
	w.seg("HL", "4", "3", "22", child)
	w.seg("NM1", "IL", "1", cmp.Or(q.subscriberLast, "UNKNOWN"), q.subscriberFirst, "", "", "", "MI", cmp.Or(q.memberID, "UNKNOWN"))
	if q.dependentLast != "" {
		w.seg("HL", "5", "4", "23")
		w.seg("NM1", "QC", "1", q.dependentLast, q.dependentFirst)
	}
	w.seg("TRN", "2", cmp.Or(q.trace, "0"))
	stc := []string{"STC", strings.TrimRight(st.Category+":"+st.Code+":"+st.Entity, ":"), now.Format("20060102"), "", cmp.Or(st.Charge, q.amount)}
	if st.Paid != "" || st.PaidDate != "" || st.CheckNumber != "" {
		stc = append(stc, st.Paid, st.PaidDate, "", st.PaidDate, st.CheckNumber)
	}
	w.seg(stc[0], trimEmpty(stc[1:])...)
	if k1 := cmp.Or(st.PayerClaimNumber, q.k1); k1 != "" {
		w.seg("REF", "1K", k1)
	}
	if ej := cmp.Or(st.PatientAccountNumber, q.ej); ej != "" {
		w.seg("REF", "EJ", ej)
	}
	if q.d9 != "" {
		w.seg("REF", "D9", q.d9)
	}
	if d := cmp.Or(st.ServiceDate, q.date); d != "" {
		format := "D8"
		if strings.Contains(d, "-") {
			format = "RD8"
		}
		w.seg("DTP", "472", format, d)
	}
	do(iw.EndTransaction())
	do(iw.EndGroup())
	do(iw.EndInterchange())
	if w.err != nil {
		return nil, fmt.Errorf("mockpayer: write the 277: %w", w.err)
	}
	return out.Bytes(), nil
}

// read276 reads the parties and the (first) claim of a 276.
func read276(b []byte) (*statusRequest, error) {
	if len(b) > maxClaimFile {
		return nil, ErrInvalidStatusRequest
	}
	r := messageReader(b)
	q := &statusRequest{}
	level := ""
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidStatusRequest, err)
		}
		switch s.ID() {
		case "ISA":
			q.isaSenderQual, q.isaSender = s.Element(5), strings.TrimSpace(s.Element(6))
			q.isaReceiverQual, q.isaReceiver, q.usage = s.Element(7), strings.TrimSpace(s.Element(8)), s.Element(15)
		case "GS":
			q.gsSender = s.Element(2)
		case "BHT":
			q.bht03 = s.Element(3)
		case "HL":
			level = s.Element(3)
		case "NM1":
			switch s.Element(1) {
			case "PR":
				q.payerName, q.payerID = s.Element(3), s.Element(9)
			case "41":
				q.receiverName, q.receiverID = strings.TrimSpace(s.Element(3)+" "+s.Element(4)), s.Element(9)
			case "1P":
				q.providerName, q.providerQual, q.providerID = strings.TrimSpace(s.Element(3)+" "+s.Element(4)), s.Element(8), s.Element(9)
			case "IL":
				q.subscriberLast, q.subscriberFirst, q.memberID = s.Element(3), s.Element(4), s.Element(9)
			case "QC":
				q.dependentLast, q.dependentFirst = s.Element(3), s.Element(4)
			}
		case "TRN":
			if q.trace == "" && (level == "22" || level == "23") {
				q.trace = s.Element(2)
			}
		case "REF":
			switch s.Element(1) {
			case "EJ":
				q.ej = s.Element(2)
			case "1K":
				q.k1 = s.Element(2)
			case "D9":
				q.d9 = s.Element(2)
			}
		case "AMT":
			if s.Element(1) == "T3" {
				q.amount = s.Element(2)
			}
		case "DTP":
			if s.Element(1) == "472" && q.date == "" {
				q.date = s.Element(3)
			}
		}
	}
	if q.isaSender == "" || q.trace == "" {
		return nil, ErrInvalidStatusRequest
	}
	return q, nil
}
