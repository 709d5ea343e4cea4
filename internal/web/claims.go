package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/practice"
	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
)

// The claims pages: a dental claim sent from a form (through the same
// claims.Service as POST /2024-04-01/dental-claims/submission, so the same
// rules and messages), and the claims list and page, whose status follows
// the claim: submitted, delivered (or retrying, or not delivered), then
// accepted or rejected by the payer's 277CA, then paid by an 835.

// ClaimSubmitter submits claims; *claims.Service is one.
type ClaimSubmitter interface {
	Submit(ctx context.Context, sub claims.Submission) (*claims.Result, error)
}

// MedicalClaimSubmitter submits professional and institutional claims;
// *claims.Service is one. The forms of those kinds open when the claims
// service is one.
type MedicalClaimSubmitter interface {
	SubmitProfessional(ctx context.Context, sub claims.Submission, req *claims.ProfessionalRequest) (*claims.Result, error)
	SubmitInstitutional(ctx context.Context, sub claims.Submission, req *claims.InstitutionalRequest) (*claims.Result, error)
}

// claimsService is the service behind the claim form; nil closes it.
func (c *Console) claimsService() ClaimSubmitter {
	if c.cfg.Claims == nil {
		return nil
	}
	return c.cfg.Claims
}

type claimNewData struct {
	Form *claimForm
	// Kinds are the kinds of claim form this server offers, to switch.
	Kinds   []option
	Samples []claimSample
	Payers  []payers.Payer
	// Billing and Rendering are the practice's saved providers to pick.
	Billing, Rendering []practice.Provider
}

// claimPayers are the payers that take a kind of claim, for the list
// under the payer box.
func (c *Console) claimPayers(kind string) []payers.Payer {
	return c.payersTaking(map[string]string{kindDental: payers.DentalClaim, kindProfessional: payers.ProfessionalClaim,
		kindInstitutional: payers.InstitutionalClaim}[kind])
}

// payersTaking are the directory's payers that take a transaction code,
// as the Payers API shows them SUPPORTED or ENROLLMENT_REQUIRED: the
// shipped list, the --payer-directory file and the --payers routes
// joined (payers.Directory).
func (c *Console) payersTaking(tx string) []payers.Payer {
	var out []payers.Payer
	for _, p := range c.cfg.Payers.List() {
		if p.Supports(tx) {
			out = append(out, p)
		}
	}
	return out
}

// claimKinds are the claim forms the server offers.
func (c *Console) claimKinds() []option {
	out := []option{{kindDental, "Dental (ADA)"}}
	if _, ok := c.cfg.Claims.(MedicalClaimSubmitter); ok {
		out = append(out, option{kindProfessional, "Professional (CMS-1500)"}, option{kindInstitutional, "Institutional (UB-04)"})
	}
	return out
}

func newKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return "console-" + hex.EncodeToString(b)
}

// newClaimPage shows the claim form, empty or filled with a sample.
func (c *Console) newClaimPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	kind := kindOf(r.URL.Query().Get("kind"))
	if !validOption(c.claimKinds(), kind) {
		kind = kindDental
	}
	f := emptyClaimFormOf(kind)
	if name := r.URL.Query().Get("sample"); name != "" && v.IsTest() {
		if sf, ok := sampleForm(c.samplesOf(kind), name, time.Now()); ok {
			f = sf
		}
	}
	if from := r.URL.Query().Get("from"); from != "" {
		cf, ok := c.correctionForm(w, r, from, r.URL.Query().Get("frequency"))
		if !ok {
			return
		}
		c.showClaimForm(w, r, http.StatusOK, cf)
		return
	}
	// The practice's defaults are picked.
	for role, input := range map[string]string{practice.Billing: "bill_id", practice.Rendering: "rend_id"} {
		p, ok, err := c.practiceService().Default(r.Context(), scopeOf(v), role)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		if ok {
			f.Values[input] = p.ID
		}
	}
	c.showClaimForm(w, r, http.StatusOK, f)
}

func (c *Console) showClaimForm(w http.ResponseWriter, r *http.Request, status int, f *claimForm) {
	v := viewerFrom(r.Context())
	f.CSRF = v.CSRF
	if f.Key == "" {
		f.Key = newKey()
	}
	data := claimNewData{Form: f, Payers: c.claimPayers(f.Kind), Kinds: c.claimKinds()}
	var err error
	if data.Billing, err = c.practiceService().List(r.Context(), scopeOf(v), practice.Billing); err == nil {
		data.Rendering, err = c.practiceService().List(r.Context(), scopeOf(v), practice.Rendering)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if v.IsTest() {
		data.Samples = c.samplesOf(f.Kind)
	}
	if isHTMX(r) && r.Method == http.MethodGet {
		c.render(w, r, status, "claim_new", "claim_form", data)
		return
	}
	c.renderPage(w, r, status, "claim_new", page{Title: "New claim", Nav: "claims", Data: data})
}

// submitClaim sends the form's claim and opens its page.
func (c *Console) submitClaim(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	svc := c.claimsService()
	if svc == nil {
		c.showError(w, r, http.StatusServiceUnavailable, "Claims are not available", "This server does not send claims.")
		return
	}
	f := claimFormFrom(r.PostForm)
	if !validOption(c.claimKinds(), f.Kind) {
		c.showError(w, r, http.StatusBadRequest, "Not sent", "This server does not send "+kindTitle(f.Kind)+"s.")
		return
	}
	if f.Key == "" || len(f.Key) > 100 {
		f.Key = newKey()
	}
	// Every problem at once: the form's own (payer, amounts, the saved
	// providers), then the claim rules on what was typed.
	if p, msg, _ := resolvePayer(c.cfg.Payers, f.Values["payer"]); msg == "" {
		f.PayerID = p.ID
		f.Values["payer"] = payerLabel(p)
	} else if f.Values["payer"] != "" {
		f.Errors["payer"] = []string{msg}
	}
	if _, ok := f.totalCents(); !ok {
		f.Errors["lines"] = append(f.Errors["lines"], "A charge is not an amount: write dollars and cents like 180 or 180.50.")
	}
	if !c.pickProviders(w, r, f) {
		return
	}
	if f.Resends != "" {
		if _, err := c.tenant(v).DentalClaim(r.Context(), f.Resends); err != nil {
			c.storeError(w, r, "claim", err)
			return
		}
	}
	var invalid *claims.ValidationError
	if errors.As(f.validate(c.cfg.Payers), &invalid) {
		f.addErrors(invalid.Fields)
	}
	if len(f.Errors) > 0 || len(f.general) > 0 {
		f.summarize()
		c.showClaimForm(w, r, http.StatusBadRequest, f)
		return
	}
	res, err := c.sendClaim(r.Context(), v, f)
	var (
		ve  *claims.ValidationError
		fe  *claims.ForbiddenError
		ne  *claims.NotConfiguredError
		ife *claims.InFlightError
	)
	switch {
	case errors.As(err, &ve):
		f.addErrors(ve.Fields)
	case errors.As(err, &fe):
		f.Errors["payer"] = append(f.Errors["payer"], "This payer cannot take this claim: "+fe.Message+".")
	case errors.As(err, &ne):
		f.Errors["payer"] = append(f.Errors["payer"], ne.Message+".")
	case errors.As(err, &ife):
		f.general = append(f.general, summaryItem{Label: "Claim", Message: "This claim is being sent already. Wait a few seconds and open the claims list."})
	case store.IsUnavailable(err):
		c.showError(w, r, http.StatusServiceUnavailable, "Not sent", "The claim was not sent because storage is unavailable. Nothing was kept; try again in a minute.")
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	if err != nil {
		f.summarize()
		c.showClaimForm(w, r, http.StatusBadRequest, f)
		return
	}
	var sent struct {
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	if err := json.Unmarshal(res.Body, &sent); err != nil || sent.ClaimReference.CorrelationID == "" {
		c.fail(w, r, errors.New("web: the claim's answer has no correlationId"))
		return
	}
	http.Redirect(w, r, "/claims/"+url.PathEscape(sent.ClaimReference.CorrelationID), http.StatusSeeOther)
}

// sendClaim submits the form's claim through the service of its kind, as
// the API's endpoint of that kind would.
func (c *Console) sendClaim(ctx context.Context, v *viewer, f *claimForm) (*claims.Result, error) {
	sub := claims.Submission{Caller: claims.Caller{AccountID: v.AccountID, KeyID: v.KeyID, Mode: v.Mode}, IdempotencyKey: f.Key,
		Resends: f.Resends}
	var req any
	switch f.Kind {
	case kindProfessional:
		req, sub.Route = f.professionalRequest(c.cfg.Payers), claims.ProfessionalRoute
	case kindInstitutional:
		req, sub.Route = f.institutionalRequest(c.cfg.Payers), claims.InstitutionalRoute
	default:
		sub.Request, sub.Route = f.request(c.cfg.Payers), "dental-claims/submission"
		req = sub.Request
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	sub.Body = body
	medical, _ := c.cfg.Claims.(MedicalClaimSubmitter)
	switch r := req.(type) {
	case *claims.ProfessionalRequest:
		return medical.SubmitProfessional(ctx, sub, r)
	case *claims.InstitutionalRequest:
		return medical.SubmitInstitutional(ctx, sub, r)
	}
	return c.cfg.Claims.Submit(ctx, sub)
}

// claimsFilter is the claims list's search form, as typed.
type claimsFilter struct{ Status, PCN, From, To string }

func (f claimsFilter) Any() bool { return f.Status != "" || f.PCN != "" || f.From != "" || f.To != "" }

type claimRowView struct {
	store.ClaimRow
	Status claimStatusView
	Payer  string // the payer's name and id, as on the claim's page
}

type claimsData struct {
	Filter   claimsFilter
	Errors   map[string]string
	Rows     []claimRowView
	Next     string
	Statuses []option
	// Live: some claim is not final, and the list asks again every Poll
	// (2 s while a file moves, a minute while the payers decide).
	Live    bool
	Poll    string
	waiting bool // every claim not final waits for its payer
	URL     string
}

func claimStatusOptions() []option {
	return []option{{"", "Any status"}, {store.ClaimSubmitted, "Submitted, not delivered yet"}, {store.ClaimDelivered, "Delivered"},
		{store.ClaimDeliveryFailed, "Not delivered"}, {claimstatus.Accepted, "Accepted"}, {claimstatus.Rejected, "Rejected"},
		{claimstatus.Paid, "Paid"}, {claimstatus.Denied, "Denied"}}
}

// claimsPage lists the account's claims, newest first; with htmx it
// answers only the list, which the page polls while a claim moves.
func (c *Console) claimsPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	f := claimsFilter{Status: q.Get("status"), PCN: strings.TrimSpace(q.Get("pcn")), From: q.Get("from"), To: q.Get("to")}
	data := claimsData{Filter: f, Errors: map[string]string{}, Statuses: claimStatusOptions(), URL: r.URL.RequestURI()}
	sf := store.DentalClaimFilter{Mode: v.Mode, Status: f.Status, PatientControlNumber: f.PCN, Limit: 50, Cursor: q.Get("cursor")}
	if !validOption(claimStatusOptions(), f.Status) {
		data.Errors["status"] = "Pick a status from the list."
	}
	if len(f.PCN) > 20 {
		data.Errors["pcn"] = "A claim number has at most 20 characters."
	}
	sf.From, sf.To = dayRange(f.From, f.To, data.Errors)
	status := http.StatusOK
	if len(data.Errors) > 0 {
		status = http.StatusBadRequest
	} else {
		rows, next, err := c.tenant(v).DentalClaims(r.Context(), sf)
		if err != nil {
			c.listFailed(w, r, err)
			return
		}
		for _, row := range rows {
			st, err := c.claimStatus(r.Context(), v, row.DentalClaim, row.FileStatus)
			if err != nil {
				c.fail(w, r, err)
				return
			}
			if !st.Final && !(data.Live && !data.waiting) {
				data.Live, data.Poll, data.waiting = true, st.Poll, st.Waiting
			}
			payer := row.PayerID
			if p, ok := c.cfg.Payers.Lookup(row.PayerID); ok {
				payer = payerLabel(p)
			}
			data.Rows = append(data.Rows, claimRowView{ClaimRow: row, Status: st, Payer: payer})
		}
		if next != "" {
			nq := r.URL.Query()
			nq.Set("cursor", next)
			data.Next = "/claims?" + nq.Encode()
		}
	}
	if isHTMX(r) {
		c.render(w, r, status, "claims", "claims_list", page{Viewer: v, Data: data})
		return
	}
	c.renderPage(w, r, status, "claims", page{Title: "Claims", Nav: "claims", Data: data})
}

// claimData is a claim's page.
type claimData struct {
	C       store.DentalClaim
	Status  claimStatusView
	File    store.Execution
	Answers []answerView
	Payer   string
	URL     string
	// Form names the X12 claim the file carries (837D, 837P, 837I), from
	// the outbound file's name.
	Form string
	// Lines are the service lines as sent (nil when the file is gone).
	Lines []billedLine
	// Diagnoses are a medical claim's diagnoses as sent, by letter.
	Diagnoses []option
	// Correct: the claim can be corrected and sent again (rejected, not
	// delivered); Replace: it can be replaced or voided (accepted, paid).
	Correct, Replace bool
	// SimulatedBy names the payer simulator scenarios behind its answers.
	SimulatedBy string
	// Paid is what the payer's 835s paid (nil before any).
	Paid *paidView
	// Resent is the claim this one was sent in place of; ResentAs the
	// claims sent in its place (correct-and-resend, replace, void).
	Resent   *resendView
	ResentAs []resendView
	// Inquiries are the payers' real-time answers about the claim (a
	// claim status request sent from the API), oldest first.
	Inquiries []inquiryView
}

// inquiryView is a payer's real-time answer about the claim, in words.
type inquiryView struct {
	At    time.Time
	Words []string
}

// inquiryWords says what a payer answered when asked about the claim: its
// status in the words of the claim status code lists (codes beside them,
// for a call to the payer), and what it says of the payment.
func inquiryWords(q store.ClaimStatusInquiry) []string {
	var out []string
	status := reports.StatusCategory(q.CategoryCode)
	if detail := reports.StatusCode(q.StatusCode); detail != "" {
		status = strings.TrimSuffix(status, ".") + ": " + detail
	}
	if status == "" {
		status = "The payer answered with a status this service has no words for"
	}
	out = append(out, strings.TrimSuffix(status, ".")+" ("+strings.Trim(q.CategoryCode+":"+q.StatusCode, ":")+").")
	if q.AmountPaid != "" {
		s := "The payer says it paid $" + formatCents(claimstatus.Cents(q.AmountPaid))
		if q.PaidDate != "" {
			s += " on " + q.PaidDate
		}
		if q.CheckNumber != "" {
			s += ", check or payment number " + q.CheckNumber
		}
		out = append(out, s+".")
	}
	if q.PayerClaimNumber != "" {
		out = append(out, "The payer's claim number is "+q.PayerClaimNumber+".")
	}
	return out
}

// resendView is the other claim of a resend link, as the timeline says it.
type resendView struct {
	ID, PatientControlNumber string
	At                       time.Time
	Words                    string // "Corrected and sent again as", "Replaces", …
}

// claimFormOf is the claim type of an outbound claim file named
// "<form>-<claim id>.x12" (internal/claims), "837" when the name says none.
func claimFormOf(sourceName string) string {
	if form, _, ok := strings.Cut(sourceName, "-"); ok && len(form) == 4 && strings.HasPrefix(form, "837") {
		return form
	}
	return "837"
}

type answerView struct {
	store.ClaimAnswer
	Detail claimstatus.Detail
	Label  string
	Words  []string
	File   string // the inbound file's name
}

// OutcomeLabel names what the answer did with the claim: a payment says
// whether it paid all of the charge.
func (a answerView) OutcomeLabel() string {
	if a.Outcome == claimstatus.Paid {
		label, _ := paidStatus(a.Detail)
		return label
	}
	return outcomeLabel(a.Outcome)
}

// OutcomeClass is the outcome's badge colour.
func (a answerView) OutcomeClass() string {
	if a.Outcome == claimstatus.Paid {
		_, class := paidStatus(a.Detail)
		return class
	}
	return answerClass(a.Outcome)
}

// claimPage shows one claim and what happened to it; with htmx only its
// view, which polls until the claim settles.
func (c *Console) claimPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	ctx := r.Context()
	cl, err := c.tenant(v).DentalClaim(ctx, r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "claim", err)
		return
	}
	data := claimData{C: cl, URL: "/claims/" + url.PathEscape(cl.ID), Payer: cl.PayerID}
	if p, ok := c.cfg.Payers.Lookup(cl.PayerID); ok {
		data.Payer = payerLabel(p)
	}
	if data.File, err = c.tenant(v).Execution(ctx, cl.ExecutionID); err != nil && !errors.Is(err, store.ErrNotFound) {
		c.fail(w, r, err)
		return
	}
	data.Form = claimFormOf(data.File.SourceName)
	if data.Status, err = c.claimStatus(ctx, v, cl, data.File.Status); err != nil {
		c.fail(w, r, err)
		return
	}
	answers, err := c.tenant(v).ClaimAnswers(ctx, cl.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if sent, err := c.readSentClaim(ctx, cl, c.tenant(v)); err == nil {
		data.Lines = sent.Lines
		for i := 1; i <= professionalDiagnoses; i++ {
			if code := sent.Values.Get("dx" + strconv.Itoa(i)); code != "" {
				if len(code) > 3 { // ICD-10-CM is read with a dot after its category
					code = code[:3] + "." + code[3:]
				}
				data.Diagnoses = append(data.Diagnoses, option{dxLetter(i), code})
			}
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		c.fail(w, r, err)
		return
	}
	// The forms read back the claims they send (837D, 837P, 837I); a claim
	// whose file is gone, or sent as raw X12 of another shape, still is
	// offered, and its form says what could not be read.
	if data.Lines != nil {
		data.Correct = data.Status.Label == "Rejected" || data.Status.Label == "Not delivered"
		data.Replace = cl.Answer == claimstatus.Accepted || cl.Answer == claimstatus.Paid
	}
	if data.Paid, err = c.claimPaid(ctx, c.tenant(v), cl, answers, data.Lines); err != nil {
		c.fail(w, r, err)
		return
	}
	inquiries, err := c.tenant(v).ClaimStatusInquiries(ctx, cl.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	for _, q := range inquiries {
		data.Inquiries = append(data.Inquiries, inquiryView{At: q.CreatedAt, Words: inquiryWords(q)})
	}
	var ok bool
	if data.SimulatedBy, ok = c.simulatedBy(w, r, store.ClaimSubject(cl.ExecutionID, cl.PatientControlNumber)); !ok {
		return
	}
	if !c.resendLinks(w, r, &data) {
		return
	}
	// In the claim's order of life: 999, 277CA, 835 (their files may be
	// recorded in the same instant).
	sort.SliceStable(answers, func(i, j int) bool { return answers[i].Rank() < answers[j].Rank() })
	for _, a := range answers {
		av := answerView{ClaimAnswer: a, Detail: claimstatus.ParseDetail(a.Detail), Label: answerLabel(a.Kind)}
		av.Words = answerWords(a.Outcome, av.Detail)
		if e, err := c.tenant(v).Execution(ctx, a.ExecutionID); err == nil {
			av.File = e.SourceName
		}
		data.Answers = append(data.Answers, av)
	}
	if isHTMX(r) {
		c.render(w, r, http.StatusOK, "claim", "claim_view", page{Viewer: v, Data: data})
		return
	}
	c.renderPage(w, r, http.StatusOK, "claim", page{Title: "Claim " + cl.PatientControlNumber, Nav: "claims", Data: data})
}

// resendLinks fills the claim's links to the claim it was sent in place
// of and to those sent in its place; false when it answered already.
func (c *Console) resendLinks(w http.ResponseWriter, r *http.Request, data *claimData) bool {
	t := c.tenant(viewerFrom(r.Context()))
	links, err := t.ClaimResends(r.Context(), data.C.ID)
	if err != nil {
		c.fail(w, r, err)
		return false
	}
	for _, l := range links {
		other, before := l.ClaimID, false
		if l.ClaimID == data.C.ID {
			other, before = l.PreviousClaimID, true
		}
		view := resendView{ID: other, At: l.CreatedAt, Words: resendWords(l.Frequency, before)}
		if cl, err := t.DentalClaim(r.Context(), other); err == nil {
			view.PatientControlNumber = cl.PatientControlNumber
		}
		if before {
			data.Resent = &view
		} else {
			data.ResentAs = append(data.ResentAs, view)
		}
	}
	return true
}

// resendWords says how two claims of a resend link relate, from the side
// of the claim whose page shows it: before is true on the newer claim.
func resendWords(frequency string, before bool) string {
	switch {
	case frequency == "7" && before:
		return "Replaces claim"
	case frequency == "7":
		return "Replaced by claim"
	case frequency == "8" && before:
		return "Voids claim"
	case frequency == "8":
		return "Voided by claim"
	case before:
		return "Corrected copy of claim"
	default:
		return "Corrected and sent again as claim"
	}
}

// deliveryJob reads the delivery job of an outbound file (nil when there
// is none, as for files delivered before jobs had known ids).
func (c *Console) deliveryJob(ctx context.Context, executionID string) (*store.Job, error) {
	j, err := c.cfg.Store.GetJob(ctx, delivery.JobID(executionID))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &j, nil
}

// pickProviders loads the saved providers the form names (bill_id,
// rend_id); false when it answered already (a failure). A provider that
// is gone (deleted meanwhile) is a message on its picker.
func (c *Console) pickProviders(w http.ResponseWriter, r *http.Request, f *claimForm) bool {
	scope := scopeOf(viewerFrom(r.Context()))
	for _, pick := range []struct {
		role, input string
		into        **practice.Provider
	}{{practice.Billing, "bill_id", &f.billing}, {practice.Rendering, "rend_id", &f.rendering}} {
		id := f.Values[pick.input]
		if id == "" {
			continue
		}
		p, err := c.practiceService().Get(r.Context(), scope, pick.role, id)
		if errors.Is(err, store.ErrNotFound) {
			f.Errors[pick.input] = []string{"This saved provider is no longer there; pick another or type it by hand."}
			continue
		}
		if err != nil {
			c.fail(w, r, err)
			return false
		}
		*pick.into = &p
	}
	return true
}

// correctionForm is the claim form filled with a sent claim: to correct
// and resend it (frequency ""), or to replace (7) or void (8) it with the
// payer's claim number of the original. The payer's reason for a
// rejection is shown beside the input it concerns.
func (c *Console) correctionForm(w http.ResponseWriter, r *http.Request, id, frequency string) (*claimForm, bool) {
	v := viewerFrom(r.Context())
	t := c.tenant(v)
	cl, err := t.DentalClaim(r.Context(), id)
	if err != nil {
		c.storeError(w, r, "claim", err)
		return nil, false
	}
	sent, err := c.readSentClaim(r.Context(), cl, t)
	if err != nil {
		c.storeError(w, r, "claim", err)
		return nil, false
	}
	f := claimFormFrom(sent.Values)
	f.Values["frequency"], f.Values["original_ref"] = "", ""
	answers, err := t.ClaimAnswers(r.Context(), cl.ID)
	if err != nil {
		c.fail(w, r, err)
		return nil, false
	}
	switch frequency {
	case "7", "8":
		f.Values["frequency"] = frequency
		for _, a := range answers {
			if d := claimstatus.ParseDetail(a.Detail); d.PayerClaimNumber != "" {
				f.Values["original_ref"] = d.PayerClaimNumber
			}
		}
		if f.Values["original_ref"] == "" {
			f.general = append(f.general, summaryItem{Label: "Original claim", Message: "The payer has not given this claim a number yet; wait for its acknowledgment before replacing or voiding it."})
		}
	default:
		for _, a := range answers {
			if a.Outcome != claimstatus.Rejected {
				continue
			}
			reason := "The payer's reason: " + rejectionReason(claimstatus.ParseDetail(a.Detail)) + "."
			name := reasonField(reason)
			if name == "" {
				f.general = append(f.general, summaryItem{Label: "Payer", Message: reason})
			} else {
				f.Errors[name] = append(f.Errors[name], reason)
			}
		}
	}
	f.Corrects, f.Resends, f.fromPage = cl.PatientControlNumber, cl.ID, true
	f.summarize()
	return f, true
}

// reasonField is the input a payer's rejection reason concerns, by its
// words (the 277CA's STC status codes in claimstatus).
func reasonField(reason string) string {
	for _, m := range []struct{ words, field string }{
		{"member number", "sub_member_id"}, {"date of birth", "sub_dob"}, {"(NPI)", "bill_npi"}, {"procedure code", "line1_code"},
	} {
		if strings.Contains(reason, m.words) {
			return m.field
		}
	}
	return ""
}
