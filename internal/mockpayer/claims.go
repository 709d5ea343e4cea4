package mockpayer

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/claims"
	sim "github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// The published mock rules of the claim side (README "Mock claims"); the
// rejections are data (claimrules/rejections.json). Every other claim from
// a test key is accepted by the payer it names.
const (
	// ClaimRejectMemberID is the member id whose claims (of every type)
	// the payer rejects: the 277CA answers STC A7:164:IL (rejected for
	// invalid information: the subscriber's contract/member number). It is
	// the first rule of claimrules/rejections.json.
	ClaimRejectMemberID = "REJECT0001"
	// UnreachablePayerID is the payer whose connection always fails: a
	// claim to it is never delivered, so the delivery is tried again and
	// fails for good after the last attempt.
	UnreachablePayerID = "MOCKDOWN"
)

// ErrUnreachable is the MOCK connection failing, as it always does for
// UnreachablePayerID.
var ErrUnreachable = errors.New("mockpayer: the payer's connection is down (mock rule: payer MOCKDOWN never answers)")

// ErrNotAClaim is returned for input that is not an X12 interchange.
var ErrNotAClaim = errors.New("mockpayer: not an X12 interchange")

// ClaimAnswer is the payer's answer to an 837D file: a 999 for the file
// and, when the 999 accepts it, a 277CA acknowledging each claim.
type ClaimAnswer struct {
	Ack999   []byte
	Ack277CA []byte // nil when the 999 rejects the file, or a scenario keeps the payer silent about every claim
	// Rejected counts the claims the 277CA rejects.
	Rejected int
}

// maxClaimFile bounds what the mock reads: an 837D of 100 claims of 50
// lines is far below it.
const maxClaimFile = 16 << 20

// AnswerClaims reads an 837D interchange as the payer would: it validates
// it against the 005010X224A2 guide, answers a 999 (005010X231A1), and for
// an accepted file a 277CA (005010X214) accepting each claim (STC A2:20
// with a payer claim control number) or rejecting it when a mock rule says
// so. A file naming UnreachablePayerID gets ErrUnreachable: that payer's
// connection never answers.
func (p *Payer) AnswerClaims(ctx context.Context, file []byte) (*ClaimAnswer, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(file) > maxClaimFile {
		return nil, fmt.Errorf("mockpayer: claim file of %d bytes is over the mock's %d", len(file), maxClaimFile)
	}
	batch, err := readClaims(file)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(batch.payerID, UnreachablePayerID) || strings.EqualFold(batch.isaReceiver, UnreachablePayerID) {
		return nil, ErrUnreachable
	}
	rep, err := guide.Validate(bytes.NewReader(file), guide.Options{})
	if err != nil {
		return nil, fmt.Errorf("mockpayer: read the 837D: %w", err)
	}
	set, err := p.scenarioSet(ctx)
	if err != nil {
		return nil, err
	}
	scs := make([]*sim.Scenario, len(batch.claims))
	for i := range batch.claims {
		scs[i] = set.Claim(batch.simRequest(i, p.canonical), p.canonical)
		if sc := scs[i]; sc != nil && sc.Claim.FunctionalAck != nil {
			p.logScenario(ctx, "999", batch.claims[i].PatientControlNumber, sc)
			injectRejection(rep, batch, i, sc.Claim.FunctionalAck)
		}
	}
	now := p.now().UTC()
	var ack bytes.Buffer
	if err := x12.WriteAcks(&ack, rep, x12.AckOptions{Delimiters: claims.Delimiters, Numbers: p.controlNumbers(),
		Date: now, TA1: x12.TA1Never}); err != nil {
		return nil, fmt.Errorf("mockpayer: write the 999: %w", err)
	}
	ans := &ClaimAnswer{Ack999: ack.Bytes()}
	if rejectsAny(rep) || len(batch.claims) == 0 {
		return ans, nil
	}
	a := &claims.Ack277{
		SourceEntity: "PR", SourceName: batch.payerName, SourceIDQualifier: "PI", SourceID: batch.payerID,
		ReceiverName: batch.submitterName, ReceiverID: batch.submitterID,
		ReceiverStatus: claims.Status{Category: "A1", Code: "19", Entity: "PR"},
		TraceID:        "MOCK" + batch.control, BatchTrace: batch.bht03, Received: now,
		ProviderOrganization: batch.providerOrg, ProviderLast: batch.providerLast, ProviderFirst: batch.providerFirst,
		ProviderNPI: batch.providerNPI,
	}
	for i, c := range batch.claims {
		st := claims.Status{Category: "A2", Code: "20"}
		sc := scs[i]
		if sc != nil {
			p.logScenario(ctx, "277CA", c.PatientControlNumber, sc)
		}
		if unacknowledged(sc) {
			continue // the payer stays silent about this claim
		}
		if rej, ok := scenarioRejection(sc); ok {
			st = rej
			ans.Rejected++
		} else if rej, ok := rejectionFor(batch.claimType, c.MemberID); ok && sc == nil {
			st = rej
			ans.Rejected++
		} else {
			c.PayerClaimControlNumber = fmt.Sprintf("%s%s%03d", strings.ToUpper(batch.payerID), batch.control, i+1)
		}
		c.Status = st
		a.Claims = append(a.Claims, c)
	}
	if len(a.Claims) == 0 {
		return ans, nil // silence: no 277CA at all
	}
	env := claims.Envelope{SenderQualifier: batch.isaReceiverQual, SenderID: batch.isaReceiver,
		ReceiverQualifier: batch.isaSenderQual, ReceiverID: batch.isaSender, SenderCode: batch.gsReceiver, ReceiverCode: batch.gsSender}
	ans.Ack277CA, err = claims.Write277CA(a, claims.Ack277Options{Envelope: env, Numbers: p.controlNumbers(), Now: now, Usage: batch.usage})
	if err != nil {
		return nil, fmt.Errorf("mockpayer: write the 277CA: %w", err)
	}
	return ans, nil
}

// controlNumbers hands out the mock's ISA13/GS06 from its counter.
func (p *Payer) controlNumbers() x12.ControlNumbers { return mockNumbers{p} }

type mockNumbers struct{ p *Payer }

func (m mockNumbers) Next(k x12.ControlKind) (int64, error) {
	if k == x12.TransactionControl {
		return 1, nil
	}
	return m.p.control.Add(1)%999999999 + 1, nil
}

func rejectsAny(rep *x12.Report) bool {
	for _, ic := range rep.Interchanges {
		for _, f := range ic.Findings {
			if f.Rejects() {
				return true
			}
		}
		for _, g := range ic.Groups {
			for _, s := range g.Sets {
				if st, _ := x12.IK5Status(s); st == "R" {
					return true
				}
			}
		}
	}
	return false
}

// claimBatch is what the 277CA needs from an 837D.
type claimBatch struct {
	isaSenderQual, isaSender, isaReceiverQual, isaReceiver string
	gsSender, gsReceiver, usage, control                   string
	claimType                                              string // 837D, 837P or 837I, from GS08
	bht03, submitterName, submitterID                      string
	providerOrg, providerLast, providerFirst, providerNPI  string
	payerName, payerID                                     string
	claims                                                 []claims.ClaimAck
	facts                                                  []claimFacts // per claim, for simulator scenarios
}

// claimFacts are what a simulator scenario may match of a claim beyond
// its acknowledgment fields.
type claimFacts struct {
	dob        string // the subscriber's (2010BA DMG02)
	procedures []string
	set        int      // the transaction set holding the claim, 0-based in the file
	position   int      // the CLM's position in its set (ST = 1)
	clm        []string // the CLM's elements, for a 999 that names one
}

// readClaims walks the 837D once, keeping names, ids and each claim's
// charge, dates and lines. It trusts nothing: validation comes after.
func readClaims(file []byte) (*claimBatch, error) {
	r := x12.NewReader(bytes.NewReader(file))
	b := &claimBatch{}
	var member, patientLast, patientFirst, dob, lastName string
	var cur *claims.ClaimAck
	inPatient := false
	setIndex, position := -1, 0
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if b.isaSender == "" {
				return nil, fmt.Errorf("%w: %v", ErrNotAClaim, err)
			}
			break // the 999 reports it
		}
		position++
		if seg.ID() == "ST" {
			setIndex, position = setIndex+1, 1
		}
		switch seg.ID() {
		case "ISA":
			b.isaSenderQual, b.isaSender = seg.Element(5), strings.TrimSpace(seg.Element(6))
			b.isaReceiverQual, b.isaReceiver = seg.Element(7), strings.TrimSpace(seg.Element(8))
			b.control, b.usage = seg.Element(13), seg.Element(15)
		case "GS":
			b.gsSender, b.gsReceiver = seg.Element(2), seg.Element(3)
			b.claimType = claimTypeOf(seg.Element(8))
		case "BHT":
			b.bht03 = seg.Element(3)
		case "HL":
			cur = nil // a new level: its claims follow its names
			inPatient = seg.Element(3) == "23"
			if seg.Element(3) == "22" {
				member, patientLast, patientFirst, dob = "", "", "", ""
			}
		case "DMG":
			if cur == nil && lastName == "IL" && seg.Element(1) == "D8" {
				dob = seg.Element(2)
			}
		case "SV1", "SV3":
			if cur != nil {
				f := &b.facts[len(b.facts)-1]
				f.procedures = append(f.procedures, seg.Component(1, 2))
			}
		case "SV2":
			if cur != nil {
				f := &b.facts[len(b.facts)-1]
				f.procedures = append(f.procedures, cmp.Or(seg.Component(2, 2), seg.Element(1)))
			}
		case "NM1":
			lastName = seg.Element(1)
			switch seg.Element(1) {
			case "41":
				b.submitterName, b.submitterID = seg.Element(3), seg.Element(9)
			case "85":
				if cur != nil {
					break // 2330G/2330I: the other payer's billing provider ids, not 2010AA
				}
				if seg.Element(2) == "2" {
					b.providerOrg = seg.Element(3)
				} else {
					b.providerLast, b.providerFirst = seg.Element(3), seg.Element(4)
				}
				b.providerNPI = seg.Element(9)
			case "IL": // 2010BA; 2330A (other subscriber) comes after a CLM
				if cur == nil {
					member, patientLast, patientFirst = seg.Element(9), seg.Element(3), seg.Element(4)
				}
			case "QC":
				if cur == nil && inPatient {
					patientLast, patientFirst = seg.Element(3), seg.Element(4)
				}
			case "PR":
				if cur == nil && b.payerID == "" {
					b.payerName, b.payerID = seg.Element(3), seg.Element(9)
				}
			}
		case "CLM":
			b.claims = append(b.claims, claims.ClaimAck{PatientLast: patientLast, PatientFirst: patientFirst, MemberID: member,
				PatientControlNumber: seg.Element(1), Charge: seg.Element(2)})
			b.facts = append(b.facts, claimFacts{dob: dob, set: setIndex, position: position, clm: seg.Elements()})
			cur = &b.claims[len(b.claims)-1]
		case "DTP":
			if cur != nil && seg.Element(1) == "472" {
				from, to, _ := strings.Cut(seg.Element(3), "-")
				if to == "" {
					to = from
				}
				if cur.ServiceFrom == "" || from < cur.ServiceFrom {
					cur.ServiceFrom = from
				}
				if to > cur.ServiceTo {
					cur.ServiceTo = to
				}
			}
		case "REF":
			if cur != nil && seg.Element(1) == "D9" {
				cur.ClearinghouseTrace = seg.Element(2)
			}
		}
	}
	if b.isaSender == "" {
		return nil, ErrNotAClaim
	}
	if b.bht03 == "" {
		b.bht03 = "0"
	}
	if b.providerNPI == "" {
		b.providerNPI = "0"
	}
	return b, nil
}

// CheckReachable says whether the mock payer an 837D names can be reached:
// ErrUnreachable for UnreachablePayerID, ErrNotAClaim for input that is not
// an interchange. It reads only names, so it is cheap.
func CheckReachable(file []byte) error {
	batch, err := readClaims(file)
	if err != nil {
		return err
	}
	if strings.EqualFold(batch.payerID, UnreachablePayerID) || strings.EqualFold(batch.isaReceiver, UnreachablePayerID) {
		return ErrUnreachable
	}
	return nil
}
