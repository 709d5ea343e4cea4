package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// MaxPDFClaims bounds an ERA PDF: a remittance of more claim payments is
// refused (ErrTooLargeForPDF) rather than rendered into thousands of pages;
// its report JSON has no such limit.
const MaxPDFClaims = 5000

// ErrTooLargeForPDF is returned for a remittance over MaxPDFClaims.
var ErrTooLargeForPDF = errors.New("reports: the remittance has too many claims for a PDF")

// The ERA PDF follows the layout of the CMS Standard Paper Remittance
// Advice: the payer and payee with the payment (check or EFT number, date,
// amount), then each claim — patient, member id, patient account number,
// payer claim number, status — with its service lines (date, procedure and
// modifiers, units, billed, allowed, deductible, coinsurance, group and
// reason code adjustments, paid) and the claim's totals, then the provider
// adjustments, the totals of the remittance and a glossary of every
// adjustment and remark code it uses, in words.

type eraDoc struct {
	Meta         Meta       `json:"meta"`
	Transactions []eraTrans `json:"transactions"`
}

type eraTrans struct {
	txHeader
	DetailInfo []struct {
		PaymentInfo []paymentInfo `json:"paymentInfo"`
	} `json:"detailInfo"`
	ProviderAdjustments []providerAdjustment `json:"providerAdjustments"`
}

// maxPDFReport bounds the report JSON a PDF is laid out from (5,000 claim
// payments are far below it), so a huge remittance is refused while it is
// read, not after it is held whole.
const maxPDFReport = 64 << 20

// ERAPDF renders the 835 read from src as a PDF.
func ERAPDF(src io.Reader, meta Meta) ([]byte, error) {
	var js bytes.Buffer
	if err := Convert835(src, &capped{w: &js, left: maxPDFReport}, meta); err != nil {
		return nil, err
	}
	if n := bytes.Count(js.Bytes(), []byte(`"claimPaymentInfo":`)); n > MaxPDFClaims {
		return nil, fmt.Errorf("%w (%d claims; at most %d)", ErrTooLargeForPDF, n, MaxPDFClaims)
	}
	var doc eraDoc
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		return nil, err
	}
	return renderERA(doc)
}

const (
	eraW, eraH   = 792.0, 612.0 // letter, landscape: the remittance's columns need the width
	eraMargin    = 32.0
	eraBottom    = eraH - 40
	eraLineH     = 11.0
	eraFontSize  = 7.5
	eraTitleSize = 13.0
)

// columns of a service line, left edges in points.
var eraColumns = []struct {
	title string
	x     float64
	right bool // right-aligned amount, x is its right edge
}{
	{"SERV DATE", eraMargin, false},
	{"PROC", eraMargin + 92, false},
	{"MODS", eraMargin + 140, false},
	{"UNITS", eraMargin + 215, true},
	{"BILLED", eraMargin + 275, true},
	{"ALLOWED", eraMargin + 335, true},
	{"DEDUCT", eraMargin + 390, true},
	{"COINS", eraMargin + 445, true},
	{"GRP/RC-AMT", eraMargin + 455, false},
	{"PROV PD", eraW - eraMargin, true},
}

type eraPDF struct {
	pdf   gopdf.GoPdf
	y     float64
	page  int
	err   error
	title string
	codes map[string]string // "CO-45" → words, for the glossary
}

func renderERA(doc eraDoc) ([]byte, error) {
	p := &eraPDF{codes: map[string]string{}}
	p.pdf.Start(gopdf.Config{PageSize: gopdf.Rect{W: eraW, H: eraH}})
	p.pdf.SetInfo(gopdf.PdfInfo{Title: "Electronic remittance advice " + doc.Meta.TransactionID, Creator: "Clearhouse"})
	for name, ttf := range map[string][]byte{"regular": goregular.TTF, "bold": gobold.TTF, "mono": gomono.TTF} {
		if err := p.pdf.AddTTFFontData(name, ttf); err != nil {
			return nil, err
		}
	}
	if len(doc.Transactions) == 0 {
		return nil, ErrNotRemittance
	}
	for i, t := range doc.Transactions {
		p.remittance(doc.Meta, t, i == 0)
	}
	p.glossary()
	if p.err != nil {
		return nil, p.err
	}
	var out bytes.Buffer
	if _, err := p.pdf.WriteTo(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func (p *eraPDF) newPage() {
	p.pdf.AddPage()
	p.page++
	p.y = eraMargin
	p.font("regular", 7)
	p.text(eraMargin, eraH-24, fmt.Sprintf("%s · page %d", p.title, p.page))
}

// need starts a new page when h more points do not fit.
func (p *eraPDF) need(h float64) {
	if p.y+h > eraBottom {
		p.newPage()
	}
}

func (p *eraPDF) font(style string, size float64) {
	if p.err == nil {
		p.err = p.pdf.SetFont(style, "", size)
	}
}

func (p *eraPDF) text(x, y float64, s string) {
	if p.err != nil || s == "" {
		return
	}
	p.pdf.SetXY(x, y)
	p.err = p.pdf.Cell(nil, s)
}

func (p *eraPDF) right(x, y float64, s string) {
	if p.err != nil || s == "" {
		return
	}
	w, err := p.pdf.MeasureTextWidth(s)
	if err != nil {
		p.err = err
		return
	}
	p.text(x-w, y, s)
}

func (p *eraPDF) line() {
	p.pdf.SetLineWidth(0.5)
	p.pdf.Line(eraMargin, p.y, eraW-eraMargin, p.y)
}

func (p *eraPDF) remittance(meta Meta, t eraTrans, first bool) {
	p.title = "Remittance advice"
	if r := t.PaymentAndRemitReassociationDetails; r != nil && r.CheckOrEFTTraceNumber != "" {
		p.title += " " + r.CheckOrEFTTraceNumber
	}
	if meta.ApplicationMode == "test" {
		p.title += " · TEST MODE"
	}
	p.newPage()
	p.font("bold", eraTitleSize)
	p.text(eraMargin, p.y, "ELECTRONIC REMITTANCE ADVICE")
	p.y += 20

	p.font("regular", 8)
	left, rightCol := eraMargin, eraW/2
	y := p.y
	if py := t.Payer; py != nil {
		p.font("bold", 8)
		p.text(left, y, "PAYER: "+py.Name)
		p.font("regular", 8)
		for _, l := range addressLines(py.Address) {
			y += eraLineH
			p.text(left, y, l)
		}
		for _, c := range py.TechnicalContactInformation {
			for _, m := range c.ContactMethods {
				if m.Phone != "" {
					y += eraLineH
					p.text(left, y, "Contact: "+strings.TrimSpace(c.ContactName+" "+m.Phone))
				}
			}
		}
	}
	ry := p.y
	if pe := t.Payee; pe != nil {
		p.font("bold", 8)
		p.text(rightCol, ry, "PAYEE: "+pe.Name)
		p.font("regular", 8)
		if pe.NPI != "" {
			ry += eraLineH
			p.text(rightCol, ry, "NPI: "+pe.NPI)
		}
		if tin := cmp.Or(pe.FederalTaxPayersIdentificationNumber, pe.TaxID); tin != "" {
			ry += eraLineH
			p.text(rightCol, ry, "TAX ID: "+tin)
		}
	}
	if f := t.FinancialInformation; f != nil {
		ry += eraLineH
		method := map[string]string{"CHK": "Check", "ACH": "EFT (ACH)", "BOP": "Financial institution option", "FWT": "Wire transfer", "NON": "No payment"}[f.PaymentMethodCode]
		p.text(rightCol, ry, fmt.Sprintf("PAYMENT: %s %s  DATE: %s", money(f.TotalActualProviderPaymentAmount), method, date(f.CheckIssueOrEFTEffectiveDate)))
	}
	if r := t.PaymentAndRemitReassociationDetails; r != nil {
		ry += eraLineH
		p.text(rightCol, ry, "CHECK/EFT #: "+r.CheckOrEFTTraceNumber)
	}
	if t.ProductionDate != "" {
		ry += eraLineH
		p.text(rightCol, ry, "PRODUCTION DATE: "+date(t.ProductionDate))
	}
	p.y = max(y, ry) + 2*eraLineH

	var totals eraTotals
	for _, d := range t.DetailInfo {
		for _, c := range d.PaymentInfo {
			p.claim(c, &totals)
		}
	}
	p.providerAdjustments(t.ProviderAdjustments, &totals)
	p.summary(t, totals)
}

type eraTotals struct {
	claims                                         int
	billed, allowed, deduct, coins, adj, paid, plb float64
}

func (p *eraPDF) header() {
	p.font("bold", eraFontSize)
	for _, c := range eraColumns {
		if c.right {
			p.right(c.x, p.y, c.title)
		} else {
			p.text(c.x, p.y, c.title)
		}
	}
	p.y += eraLineH
}

func (p *eraPDF) claim(c paymentInfo, tot *eraTotals) {
	p.need(5 * eraLineH)
	p.line()
	p.y += 4
	ci := c.ClaimPaymentInfo
	if ci == nil {
		ci = &claimPaymentInfo{}
	}
	name := strings.TrimSpace(c.PatientName["lastName"] + ", " + c.PatientName["firstName"])
	if name == "," {
		name = c.PatientName["organizationName"]
	}
	p.font("bold", eraFontSize)
	p.text(eraMargin, p.y, "NAME: "+strings.TrimSuffix(name, ","))
	p.font("regular", eraFontSize)
	p.text(eraMargin+170, p.y, "MEMBER ID: "+cmp.Or(c.PatientName["memberId"], c.Subscriber["memberId"], c.PatientName["healthInsuranceClaimNumber"]))
	p.text(eraMargin+310, p.y, "ACNT: "+ci.PatientControlNumber)
	p.text(eraMargin+450, p.y, "ICN: "+ci.PayerClaimControlNumber)
	p.text(eraMargin+600, p.y, "STATUS: "+claimStatusWords(ci.ClaimStatusCode))
	p.y += eraLineH + 2
	p.header()
	p.font("mono", eraFontSize)
	var allowed, deduct, coins, adjTotal float64
	for _, l := range c.ServiceLines {
		p.need(eraLineH)
		sp := l.ServicePaymentInformation
		if sp == nil {
			sp = &servicePayment{}
		}
		d, co, other := splitAdjustments(l.ServiceAdjustments, p.codes)
		units := cmp.Or(sp.UnitsOfServicePaidCount, "1")
		var allow string
		if l.ServiceSupplementalAmounts != nil {
			allow = l.ServiceSupplementalAmounts.AllowedActual
		}
		vals := []string{serviceDates(l), cmp.Or(sp.AdjudicatedProcedureCode, sp.NationalUniformBillingCommitteeRevenueCode),
			strings.Join(sp.AdjudicatedProcedureModifierCodes, " "), units, money(sp.LineItemChargeAmount), money(allow),
			moneyOf(d), moneyOf(co), other, money(sp.LineItemProviderPaymentAmount)}
		p.row(vals)
		allowed += num(allow)
		deduct += d
		coins += co
		adjTotal += adjustmentsTotal(l.ServiceAdjustments)
		for _, r := range l.HealthCareCheckRemarkCodes {
			p.codes["Remark "+r.RemarkCode] = r.Remark
		}
	}
	cd, cc, cother := splitAdjustments(c.ClaimAdjustments, p.codes)
	deduct += cd
	coins += cc
	adjTotal += adjustmentsTotal(c.ClaimAdjustments)
	if cother != "" {
		p.need(eraLineH)
		p.text(eraColumns[8].x, p.y, cother)
		p.y += eraLineH
	}
	p.need(eraLineH)
	p.font("bold", eraFontSize)
	p.text(eraMargin, p.y, "PT RESP "+money(ci.PatientResponsibilityAmount))
	p.text(eraColumns[1].x, p.y, "CLAIM TOTALS")
	p.right(eraColumns[4].x, p.y, money(ci.TotalClaimChargeAmount))
	p.right(eraColumns[5].x, p.y, moneyOf(allowed))
	p.right(eraColumns[6].x, p.y, moneyOf(deduct))
	p.right(eraColumns[7].x, p.y, moneyOf(coins))
	p.text(eraColumns[8].x, p.y, moneyOf(adjTotal))
	p.right(eraColumns[9].x, p.y, "NET "+money(ci.ClaimPaymentAmount))
	p.y += eraLineH + 4
	tot.claims++
	tot.billed += num(ci.TotalClaimChargeAmount)
	tot.allowed += allowed
	tot.deduct += deduct
	tot.coins += coins
	tot.adj += adjTotal
	tot.paid += num(ci.ClaimPaymentAmount)
}

func (p *eraPDF) row(vals []string) {
	for i, c := range eraColumns {
		if c.right {
			p.right(c.x, p.y, vals[i])
		} else {
			p.text(c.x, p.y, vals[i])
		}
	}
	p.y += eraLineH
}

func (p *eraPDF) providerAdjustments(plbs []providerAdjustment, tot *eraTotals) {
	if len(plbs) == 0 {
		return
	}
	p.need(3 * eraLineH)
	p.line()
	p.y += 4
	p.font("bold", eraFontSize)
	p.text(eraMargin, p.y, "PROVIDER ADJUSTMENTS")
	p.y += eraLineH
	p.font("regular", eraFontSize)
	for _, a := range plbs {
		for _, it := range a.Adjustments {
			p.need(eraLineH)
			p.text(eraMargin, p.y, fmt.Sprintf("%s  %s  %s %s", a.ProviderIdentifier, date(a.FiscalPeriodDate), it.AdjustmentReasonCode, it.AdjustmentReasonCodeValue))
			p.text(eraMargin+360, p.y, it.ProviderAdjustmentIdentifier)
			p.right(eraW-eraMargin, p.y, money(it.ProviderAdjustmentAmount))
			p.y += eraLineH
			tot.plb += num(it.ProviderAdjustmentAmount)
		}
	}
}

func (p *eraPDF) summary(t eraTrans, tot eraTotals) {
	p.need(4 * eraLineH)
	p.line()
	p.y += 4
	p.font("bold", eraFontSize)
	p.text(eraMargin, p.y, "TOTALS")
	p.y += eraLineH
	p.font("regular", eraFontSize)
	check := ""
	if t.FinancialInformation != nil {
		check = money(t.FinancialInformation.TotalActualProviderPaymentAmount)
	}
	p.text(eraMargin, p.y, fmt.Sprintf("# OF CLAIMS %d   BILLED AMT %s   ALLOWED AMT %s   DEDUCT AMT %s   COINS AMT %s   TOTAL RC-AMT %s   PROV PD AMT %s   PROV ADJ AMT %s   CHECK AMT %s",
		tot.claims, moneyOf(tot.billed), moneyOf(tot.allowed), moneyOf(tot.deduct), moneyOf(tot.coins), moneyOf(tot.adj), moneyOf(tot.paid), moneyOf(tot.plb), check))
	p.y += 2 * eraLineH
}

func (p *eraPDF) glossary() {
	if len(p.codes) == 0 {
		return
	}
	keys := make([]string, 0, len(p.codes))
	for k := range p.codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p.need(3 * eraLineH)
	p.font("bold", eraFontSize)
	p.text(eraMargin, p.y, "GLOSSARY: GROUP, REASON AND REMARK CODES")
	p.y += eraLineH
	p.font("regular", eraFontSize)
	for _, k := range keys {
		words := p.codes[k]
		if words == "" {
			words = "(no description shipped for this code)"
		}
		for i, l := range wrapText(k+"  "+words, 180) {
			p.need(eraLineH)
			x := eraMargin
			if i > 0 {
				x += 24
			}
			p.text(x, p.y, l)
			p.y += eraLineH
		}
	}
}

// splitAdjustments sums the deductible (PR-1) and coinsurance (PR-2)
// adjustments, which have columns of their own, and lists the others as
// GRP-RC amounts; every code goes into the glossary.
func splitAdjustments(adjs []adjustment, glossary map[string]string) (deduct, coins float64, other string) {
	var parts []string
	for _, a := range adjs {
		g := a.ClaimAdjustmentGroupCode
		glossary[g] = adjustmentGroups[g]
		for i := 1; i <= 6; i++ {
			codeP, _, amountP, _ := a.reason(i)
			code := *codeP
			if code == "" {
				continue
			}
			glossary[g+"-"+code] = CARC(code)
			amt := num(*amountP)
			switch {
			case g == "PR" && code == "1":
				deduct += amt
			case g == "PR" && code == "2":
				coins += amt
			default:
				parts = append(parts, g+"-"+code+" "+moneyOf(amt))
			}
		}
	}
	return deduct, coins, strings.Join(parts, " ")
}

func adjustmentsTotal(adjs []adjustment) float64 {
	var t float64
	for _, a := range adjs {
		for i := 1; i <= 6; i++ {
			_, _, amount, _ := a.reason(i)
			t += num(*amount)
		}
	}
	return t
}

func claimStatusWords(code string) string {
	w := map[string]string{"1": "Processed as primary", "2": "Processed as secondary", "3": "Processed as tertiary",
		"4": "Denied", "19": "Processed as primary, forwarded", "20": "Processed as secondary, forwarded",
		"21": "Processed as tertiary, forwarded", "22": "Reversal of previous payment", "23": "Not our claim, forwarded",
		"25": "Predetermination pricing only"}[code]
	if w == "" {
		return code
	}
	return w
}

func serviceDates(l *serviceLine) string {
	if l.ServiceDate != "" {
		return date(l.ServiceDate)
	}
	if l.ServiceStartDate != "" {
		return date(l.ServiceStartDate) + "-" + date(l.ServiceEndDate)
	}
	return ""
}

func addressLines(a *address) []string {
	if a == nil {
		return nil
	}
	var out []string
	for _, l := range []string{a.Address1, a.Address2} {
		if l != "" {
			out = append(out, l)
		}
	}
	if city := strings.TrimSpace(a.City + " " + a.State + " " + a.PostalCode); city != "" {
		out = append(out, city)
	}
	return out
}

// date shows CCYYMMDD as MM/DD/CCYY; anything else as sent.
func date(s string) string {
	if len(s) != 8 {
		return s
	}
	return s[4:6] + "/" + s[6:8] + "/" + s[0:4]
}

func num(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// money shows an amount as sent with two decimals; "" stays "".
func money(s string) string {
	if s == "" {
		return ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return moneyOf(f)
}

func moneyOf(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func wrapText(s string, width int) []string {
	var out []string
	for len(s) > width {
		cut := strings.LastIndexByte(s[:width], ' ')
		if cut <= 0 {
			cut = width
		}
		out = append(out, s[:cut])
		s = strings.TrimLeft(s[cut:], " ")
	}
	return append(out, s)
}

// capped passes writes through until left bytes have gone, then fails them
// with ErrTooLargeForPDF.
type capped struct {
	w    io.Writer
	left int
}

func (c *capped) Write(p []byte) (int, error) {
	if len(p) > c.left {
		return 0, fmt.Errorf("%w (its report is over %d MB)", ErrTooLargeForPDF, maxPDFReport>>20)
	}
	c.left -= len(p)
	return c.w.Write(p)
}
