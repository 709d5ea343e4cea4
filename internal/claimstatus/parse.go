package claimstatus

import (
	"errors"
	"io"

	"github.com/clearhouse/clearhouse/x12"
)

// MaxClaimsPerSet bounds the claims one inbound set is read for: memory
// stays bounded whatever the set's size; the claims past it are not linked.
const MaxClaimsPerSet = 10000

// claimFact is what one inbound set says about one claim.
type claimFact struct {
	PCN, ClaimID string // TRN-02 / CLP01, and REF*D9 when echoed
	Statuses     []Status
	PayerClaim   string // REF*1K, CLP07
	// 277CA: who reported the status (the information source, HL 20):
	// its NM101 entity code and its name.
	SourceEntity, SourceName string
	// 835
	ClaimStatus  string // CLP02
	ChargeAmount string // CLP03
	PaidAmount   string // CLP04
	PatientShare string // CLP05
	CheckOrEFT   string // TRN02 of the payment
}

// ack999 is what a 999 says about one acknowledged set.
type ack999 struct {
	GroupControl, SetID, SetControl, Status string // AK1-02, AK2-01, AK2-02, IK5-01
}

func next(r *x12.Reader) (*x12.Segment, bool, error) {
	seg, err := r.Next()
	if errors.Is(err, io.EOF) {
		return nil, false, nil
	}
	return seg, err == nil, err
}

// read277 reads the claim levels (HL03 PT) of a 277CA or 277.
func read277(src io.Reader) ([]claimFact, error) {
	r := x12.NewReader(src)
	var out []claimFact
	var cur *claimFact
	inLine, inSource := false, false
	var entity, name string // the information source
	for {
		seg, ok, err := next(r)
		if !ok {
			return out, err
		}
		switch {
		case seg.Is("HL"):
			cur, inLine, inSource = nil, false, seg.Element(3) == "20"
			if seg.Element(3) == "PT" && len(out) < MaxClaimsPerSet {
				out = append(out, claimFact{SourceEntity: entity, SourceName: name})
				cur = &out[len(out)-1]
			}
		case inSource && seg.Is("NM1"):
			entity, name = seg.Element(1), seg.Element(3)
		case cur == nil:
		case seg.Is("SVC"):
			inLine = true // line statuses follow; the claim's are read
		case inLine:
		case seg.Is("TRN") && seg.Element(1) == "2":
			cur.PCN = seg.Element(2)
		case seg.Is("STC"):
			for _, el := range []int{1, 10, 11} {
				if st := (Status{seg.Component(el, 1), seg.Component(el, 2), seg.Component(el, 3)}); st.Category != "" {
					cur.Statuses = append(cur.Statuses, st)
				}
			}
		case seg.Is("REF") && seg.Element(1) == "1K":
			cur.PayerClaim = seg.Element(2)
		case seg.Is("REF") && seg.Element(1) == "D9":
			cur.ClaimID = seg.Element(2)
		}
	}
}

// read835 reads the CLP segments of an 835.
func read835(src io.Reader) ([]claimFact, error) {
	r := x12.NewReader(src)
	var out []claimFact
	trace := ""
	for {
		seg, ok, err := next(r)
		if !ok {
			return out, err
		}
		switch {
		case seg.Is("ST"):
			trace = ""
		case seg.Is("TRN") && trace == "":
			trace = seg.Element(2) // the check or EFT trace number (header TRN)
		case seg.Is("CLP") && len(out) < MaxClaimsPerSet:
			out = append(out, claimFact{PCN: seg.Element(1), ClaimStatus: seg.Element(2), ChargeAmount: seg.Element(3),
				PaidAmount: seg.Element(4), PatientShare: seg.Element(5), PayerClaim: seg.Element(7), CheckOrEFT: trace})
		}
	}
}

// read999 reads each AK2 of a 999 with its IK5 status.
func read999(src io.Reader) ([]ack999, error) {
	r := x12.NewReader(src)
	var out []ack999
	group := ""
	for {
		seg, ok, err := next(r)
		if !ok {
			return out, err
		}
		switch {
		case seg.Is("AK1"):
			group = seg.Element(2)
			if seg.Element(1) != "HC" {
				group = "" // not a group of claims
			}
		case seg.Is("AK2") && group != "" && len(out) < MaxClaimsPerSet:
			out = append(out, ack999{GroupControl: group, SetID: seg.Element(1), SetControl: seg.Element(2)})
		case seg.Is("IK5") && len(out) > 0 && out[len(out)-1].Status == "":
			out[len(out)-1].Status = seg.Element(1)
		}
	}
}
