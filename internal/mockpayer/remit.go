package mockpayer

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/x12"
)

// How the mock payer pays a claim it accepted, by the claim's member id
// (remitdata/remit.json, data like the eligibility mocks). Every other
// accepted claim is paid in full.
const (
	RemitPaid    = "paid"    // every line paid at its charge
	RemitPartial = "partial" // each line cut by CO-45 (20 %), a PR-1 deductible of 10 % left to the patient
	RemitDenied  = "denied"  // CLP02 4, each line CO-16 with remark N290, nothing paid
	RemitReverse = "reverse" // paid in full, then reversed (CLP02 22) and paid again as corrected (CO-45 20 %)
)

//go:embed remitdata/remit.json
var remitFixtures []byte

type remitRules struct {
	Members map[string]string `json:"members"` // member id (any case) → outcome
}

var remitByMember = func() map[string]string {
	var r remitRules
	if err := json.Unmarshal(remitFixtures, &r); err != nil {
		panic("mockpayer: remitdata/remit.json: " + err.Error())
	}
	out := map[string]string{}
	for k, v := range r.Members {
		switch v {
		case RemitPaid, RemitPartial, RemitDenied, RemitReverse:
		default:
			panic("mockpayer: remitdata/remit.json: member " + k + ": unknown outcome " + v)
		}
		out[strings.ToUpper(k)] = v
	}
	return out
}()

// RemitMember is a member whose claims the mock pays with outcome (one of
// RemitPartial, RemitDenied, RemitReverse, RemitPaid), "" when none: the
// console's test samples name them.
func RemitMember(outcome string) string {
	best := ""
	for member, o := range remitByMember {
		if o == outcome && (best == "" || member < best) {
			best = member
		}
	}
	return best
}

// RemitOutcome is the outcome the mock gives a claim of this member.
func RemitOutcome(memberID string) string {
	if o, ok := remitByMember[strings.ToUpper(memberID)]; ok {
		return o
	}
	return RemitPaid
}

// remitClaim is what an 835 needs of one claim of an 837 (D, P or I).
type remitClaim struct {
	pcn, charge, member, last, first, frequency, facility string
	dob                                                   string // the subscriber's, for simulator scenarios
	date                                                  string // the claim's date of service, for lines without one
	lines                                                 []remitLine
}

type remitLine struct {
	qualifier, code, charge, units, date, control, revenue string
	modifiers                                              []string
}

// remitBatch is an 837's parties and claims.
type remitBatch struct {
	isaSenderQual, isaSender, isaReceiverQual, isaReceiver, usage string
	gsSender, gsReceiver                                          string
	payerName, payerID, providerName, providerNPI                 string
	claims                                                        []*remitClaim
}

// Remit writes the 835 the mock payer sends some time after it accepted
// the claims of an 837 (dental, professional or institutional): one claim
// payment per accepted claim, paid by the rule of its member id, balanced
// (BPR02 is the sum of CLP04). Claims the 277CA rejected (member
// ClaimRejectMemberID) get no payment. nil when nothing is paid or denied.
func (p *Payer) Remit(ctx context.Context, file []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(file) > maxClaimFile {
		return nil, fmt.Errorf("mockpayer: claim file of %d bytes is over the mock's %d", len(file), maxClaimFile)
	}
	b, err := readRemitBatch(file)
	if err != nil {
		return nil, err
	}
	set, err := p.scenarioSet(ctx)
	if err != nil {
		return nil, err
	}
	var claimsPaid []*remitClaim
	var plans []remitPlan
	for _, c := range b.claims {
		sc := set.Claim(c.simRequest(p.canonical(b.payerID)), p.canonical)
		plan, pays := planFor(sc, c.member)
		if pays && len(c.lines) > 0 {
			if sc != nil {
				p.logScenario(ctx, "835", c.pcn, sc)
			}
			claimsPaid = append(claimsPaid, c)
			plans = append(plans, plan)
		}
	}
	if len(claimsPaid) == 0 {
		return nil, nil
	}
	now := p.now().UTC()
	var out bytes.Buffer
	iw := x12.NewInterchangeWriter(&out, x12.DefaultDelimiters, p.controlNumbers(), x12.WithLineBreaks())
	iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: b.isaReceiverQual, SenderID: b.isaReceiver,
		ReceiverQualifier: b.isaSenderQual, ReceiverID: b.isaSender, Date: now, Usage: b.usage})
	iw.BeginGroup(x12.GroupHeader{FunctionalID: "HP", SenderCode: b.gsReceiver, ReceiverCode: b.gsSender, Date: now, Version: "005010X221A1"})
	iw.BeginTransaction("835", "")
	w := &answerWriter{iw: iw}
	var body [][]string
	var total int64
	for i, c := range claimsPaid {
		segs, paid := remitSegments(c, now.Format("20060102"), fmt.Sprintf("%s%s%03d", strings.ToUpper(b.payerID), strings.TrimLeft(b.isaReceiver, " "), i+1), plans[i])
		body = append(body, segs...)
		total += paid
	}
	day := now.Format("20060102")
	// The EFT trace number is the interchange's control number: unique per
	// 835 the mock sends.
	trace := "MOCKEFT" + iw.Controls().Interchange
	if total > 0 {
		w.seg("BPR", "I", cents(total), "C", "ACH", "CCP", "01", "999999992", "DA", "123456", "1999999999", "", "01", "999988880", "DA", "98765", day)
	} else {
		w.seg("BPR", "H", "0", "C", "NON", "", "", "", "", "", "", "", "", "", "", "", day)
	}
	w.seg("TRN", "1", trace, "1999999999")
	w.seg("DTM", "405", day)
	w.seg("N1", "PR", cmp.Or(b.payerName, "MOCK PAYER"))
	w.seg("N3", "1 MOCK PAYER WAY")
	w.seg("N4", "NASHVILLE", "TN", "372030001")
	if b.payerID != "" {
		w.seg("REF", "2U", b.payerID)
	}
	w.seg("PER", "BL", "MOCK PAYER EDI", "TE", "8005550100")
	w.seg("N1", "PE", cmp.Or(b.providerName, "PROVIDER"), "XX", cmp.Or(b.providerNPI, "1999999984"))
	w.seg("LX", "1")
	for _, s := range body {
		w.seg(s[0], s[1:]...)
	}
	iw.EndTransaction()
	iw.EndGroup()
	if err := iw.EndInterchange(); err != nil {
		return nil, fmt.Errorf("mockpayer: write the 835: %w", err)
	}
	if w.err != nil {
		return nil, fmt.Errorf("mockpayer: write the 835: %w", w.err)
	}
	return out.Bytes(), nil
}

// answerWriter writes the mock's answers (835, 277), keeping the first error.
type answerWriter struct {
	iw  *x12.InterchangeWriter
	err error
}

// seg writes a segment; an element holding ':' is a composite (SVC01).
func (w *answerWriter) seg(id string, elems ...string) {
	if w.err != nil {
		return
	}
	fields := make([]x12.Field, len(elems))
	for i, e := range elems {
		if strings.Contains(e, ":") {
			fields[i] = x12.Composite(strings.Split(e, ":")...)
		} else {
			fields[i] = x12.Simple(e)
		}
	}
	w.err = w.iw.WriteSegmentFields(id, fields...)
}

// remitSegments writes one claim's payment (2100 and its 2110 lines) by
// plan and returns the amount it pays, in cents.
func remitSegments(c *remitClaim, received, icn string, plan remitPlan) ([][]string, int64) {
	charge := money(c.charge)
	switch plan.outcome {
	case RemitReverse:
		full := remitPlan{outcome: RemitPaid, allowed: 100}
		orig, paid1 := claimPayment(c, received, icn, "1", charge, full)
		rev, paid2 := claimPayment(c, received, icn, "22", charge, full)
		neg(rev)
		corr, paid3 := claimPayment(c, received, icn+"R", "1", charge, plan)
		return append(append(orig, rev...), corr...), paid1 - paid2 + paid3
	case RemitDenied:
		return claimPayment(c, received, icn, "4", charge, plan)
	default:
		return claimPayment(c, received, icn, "1", charge, plan)
	}
}

// claimPayment pays each line plan.allowed percent of its charge (the rest
// adjusted with the plan's group and CARC; the whole charge when the claim
// is denied) and leaves plan.patient percent of it to the patient (PR
// group), which comes out of the payment. The plan's remark codes follow
// each line (LQ*HE).
func claimPayment(c *remitClaim, received, icn, status string, charge int64, plan remitPlan) ([][]string, int64) {
	var lines [][]string
	var paid, patient int64
	for _, l := range c.lines {
		lc := money(l.charge)
		allowed := int64(math.Round(float64(lc) * float64(plan.allowed) / 100))
		ded := int64(math.Round(float64(lc) * float64(plan.patient) / 100))
		if status == "4" {
			allowed, ded = 0, 0
		}
		pay := allowed - ded
		paid += pay
		patient += ded
		proc := strings.Join(append([]string{l.qualifier, l.code}, l.modifiers...), ":")
		svc := []string{"SVC", proc, cents(lc), cents(pay)}
		if l.revenue != "" || (l.units != "" && l.units != "1") {
			svc = append(svc, l.revenue)
			if l.units != "" && l.units != "1" {
				svc = append(svc, l.units)
			}
		}
		lines = append(lines, svc, []string{"DTM", "472", cmp.Or(l.date, c.date, "20240101")})
		if lc-allowed != 0 {
			lines = append(lines, []string{"CAS", plan.group, plan.carc, cents(lc - allowed)})
		}
		if ded != 0 {
			lines = append(lines, []string{"CAS", "PR", plan.patientCarc, cents(ded)})
		}
		if l.control != "" {
			lines = append(lines, []string{"REF", "6R", l.control})
		}
		if status != "4" {
			lines = append(lines, []string{"AMT", "B6", cents(allowed)})
		}
		for _, r := range plan.rarc {
			lines = append(lines, []string{"LQ", "HE", r})
		}
	}
	// The claim's charge is what the 837 billed; a claim whose lines do not
	// add up to it keeps the difference as a claim-level CO-45.
	var linesCharge int64
	for _, l := range c.lines {
		linesCharge += money(l.charge)
	}
	head := [][]string{{"CLP", c.pcn, status, cents(charge), cents(paid), patientAmount(patient), "12", icn, cmp.Or(c.facility, "11"), cmp.Or(c.frequency, "1")}}
	if diff := charge - linesCharge; diff != 0 && status != "4" {
		head = append(head, []string{"CAS", "CO", "45", cents(diff)})
	}
	name := []string{"NM1", "QC", "1", cmp.Or(c.last, "PATIENT"), c.first, "", "", "", "MI", cmp.Or(c.member, "UNKNOWN")}
	head = append(head, trimEmpty(name), []string{"DTM", "050", received})
	return append(head, lines...), paid
}

// neg turns a claim payment into its reversal: every amount negated.
func neg(segs [][]string) {
	for _, s := range segs {
		switch s[0] {
		case "CLP":
			for _, i := range []int{3, 4, 5} {
				s[i] = negate(s[i])
			}
		case "SVC":
			s[2], s[3] = negate(s[2]), negate(s[3])
		case "CAS":
			s[3] = negate(s[3])
		case "AMT":
			s[2] = negate(s[2])
		}
	}
}

func negate(v string) string {
	if v == "" || v == "0" {
		return v
	}
	if strings.HasPrefix(v, "-") {
		return v[1:]
	}
	return "-" + v
}

func patientAmount(c int64) string {
	if c == 0 {
		return ""
	}
	return cents(c)
}

func trimEmpty(s []string) []string {
	for len(s) > 1 && s[len(s)-1] == "" {
		s = s[:len(s)-1]
	}
	return s
}

// money reads an X12 amount as cents (bad amounts read as 0: the claim was
// validated when it was sent).
func money(s string) int64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return int64(math.Round(f * 100))
}

// cents writes an amount the way X12 wants: no trailing zeros past the
// point, no point for whole amounts.
func cents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	s := strconv.FormatInt(c/100, 10)
	if r := c % 100; r != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%02d", r), "0")
	}
	return sign + s
}

// readRemitBatch walks an 837 of any type for what an 835 needs.
func readRemitBatch(file []byte) (*remitBatch, error) {
	r := x12.NewReader(bytes.NewReader(file))
	b := &remitBatch{}
	var member, last, first, dob, lastName string
	var cur *remitClaim
	var line *remitLine
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if b.isaSender == "" {
				return nil, fmt.Errorf("%w: %v", ErrNotAClaim, err)
			}
			break
		}
		switch seg.ID() {
		case "ISA":
			b.isaSenderQual, b.isaSender = seg.Element(5), strings.TrimSpace(seg.Element(6))
			b.isaReceiverQual, b.isaReceiver = seg.Element(7), strings.TrimSpace(seg.Element(8))
			b.usage = seg.Element(15)
		case "GS":
			b.gsSender, b.gsReceiver = seg.Element(2), seg.Element(3)
		case "HL":
			cur, line = nil, nil
			if seg.Element(3) == "22" {
				member, last, first, dob = "", "", "", ""
			}
		case "DMG":
			if cur == nil && lastName == "IL" && seg.Element(1) == "D8" {
				dob = seg.Element(2)
			}
		case "NM1":
			lastName = seg.Element(1)
			switch seg.Element(1) {
			case "85":
				b.providerName, b.providerNPI = strings.TrimSpace(seg.Element(3)+" "+seg.Element(4)), seg.Element(9)
			case "IL":
				if cur == nil {
					member, last, first = seg.Element(9), seg.Element(3), seg.Element(4)
				}
			case "QC":
				if cur == nil {
					last, first = seg.Element(3), seg.Element(4)
				}
			case "PR":
				if cur == nil && b.payerID == "" {
					b.payerName, b.payerID = seg.Element(3), seg.Element(9)
				}
			}
		case "CLM":
			cur = &remitClaim{pcn: seg.Element(1), charge: seg.Element(2), member: member, last: last, first: first, dob: dob,
				facility: seg.Component(5, 1), frequency: seg.Component(5, 3)}
			b.claims = append(b.claims, cur)
			line = nil
		case "SV1", "SV3":
			if cur != nil {
				qual, code, mods := reports.Procedure(seg, 1)
				units := ""
				if seg.ID() == "SV1" {
					units = seg.Element(4)
				}
				cur.lines = append(cur.lines, remitLine{qualifier: qual, code: code, modifiers: mods, charge: seg.Element(2), units: units})
				line = &cur.lines[len(cur.lines)-1]
			}
		case "SV2":
			if cur != nil {
				// An institutional line is paid by its revenue code, with
				// its HCPCS when it has one.
				l := remitLine{qualifier: "NU", code: seg.Element(1), charge: seg.Element(3), units: seg.Element(5)}
				if q, code, mods := reports.Procedure(seg, 2); code != "" {
					l.qualifier, l.code, l.modifiers, l.revenue = q, code, mods, seg.Element(1)
				}
				cur.lines = append(cur.lines, l)
				line = &cur.lines[len(cur.lines)-1]
			}
		case "DTP":
			if cur != nil && (seg.Element(1) == "472" || seg.Element(1) == "434") {
				from, _, _ := strings.Cut(seg.Element(3), "-")
				if line != nil {
					line.date = from
				} else if cur.date == "" || seg.Element(1) == "472" {
					cur.date = from
				}
			}
		case "REF":
			if line != nil && seg.Element(1) == "6R" {
				line.control = seg.Element(2)
			}
		}
	}
	if b.isaSender == "" {
		return nil, ErrNotAClaim
	}
	return b, nil
}
