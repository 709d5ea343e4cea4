package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// resultView is a stored check laid out the way people read coverage:
// status and plan first, then the people, then benefits by service type,
// the payer's messages and rejections, and the raw X12 last.
type resultView struct {
	ID         string
	CreatedAt  time.Time
	Mode       string
	Status     string // history status
	HTTPStatus int
	PayerID    string
	PayerName  string
	Summary    string // one sentence for the live region

	Problem  *eligibility.Problem  // the check failed before a payer answer
	Request  *eligibility.Request  // what was sent
	Response *eligibility.Response // the mapped answer

	Coverage coverageView
	People   []personView
	Groups   []benefitGroup
	Messages []payerMessage
	Errors   []eligibility.AAAError
	Contacts []string

	X12Request, X12Response string
	RequestJSON             string
}

type coverageView struct {
	Status        string
	Class         string // ok, warn, bad
	Plan          string
	InsuranceType string
	Group         string
	Dates         []labeled
	Covered       []string // service types the coverage entries list
}

type labeled struct{ Label, Value string }

type personView struct {
	Role   string
	Name   string
	Fields []labeled
}

// benefitGroup is one service type's benefits: a table of cost sharing
// (rows are kinds, columns network × coverage level) and other lines.
type benefitGroup struct {
	ID       string
	Name     string
	Networks []string // top header row, each spanning len(Levels) columns
	Levels   []string
	Rows     []benefitRow
	Other    []otherLine
}

type benefitRow struct {
	Kind  string
	Cells []benefitCell
}

type benefitCell struct {
	Label   string // "In network, Individual": for the phone layout
	Amounts []amount
}

// amount is one value in a cell: "$2,000 Calendar Year" or "$1,475.82
// remaining", with the payer's notes for it.
type amount struct {
	Value     string
	Qualifier string
	Remaining bool
	Note      string
}

type otherLine struct {
	Kind string
	Text string
}

type payerMessage struct {
	Context string
	Text    string
}

// newResultView decodes a stored check.
func newResultView(c store.EligibilityCheck, dir *payers.Directory) *resultView {
	v := &resultView{
		ID: c.ID, CreatedAt: c.CreatedAt, Mode: c.Mode, Status: c.Status, HTTPStatus: c.HTTPStatus,
		PayerID: c.TradingPartnerServiceID, PayerName: c.PayerName,
		X12Request: readableX12(c.X12Request), X12Response: readableX12(c.X12Response),
		RequestJSON: indentJSON(c.RequestJSON),
	}
	var req eligibility.Request
	if json.Unmarshal(c.RequestJSON, &req) == nil {
		v.Request = &req
		if v.PayerID == "" {
			v.PayerID = req.TradingPartnerServiceID
		}
	}
	if v.PayerName == "" {
		if p, ok := dir.Lookup(v.PayerID); ok {
			v.PayerName = p.Name
		}
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(c.ResponseJSON, &keys)
	_, isResponse := keys["errors"]
	if _, ok := keys["benefitsInformation"]; ok {
		isResponse = true
	}
	if isResponse {
		var resp eligibility.Response
		if err := json.Unmarshal(c.ResponseJSON, &resp); err == nil {
			v.Response = &resp
			v.fromResponse()
		}
	}
	if v.Response == nil {
		p := eligibility.Problem{Code: "UNKNOWN", Message: "The stored answer of this check could not be read."}
		_ = json.Unmarshal(c.ResponseJSON, &p)
		v.Problem = &p
		v.Coverage = coverageView{Status: "Check failed", Class: "bad"}
		v.Summary = "The check failed: " + p.Message
	}
	return v
}

func (v *resultView) fromResponse() {
	r := v.Response
	if v.PayerName == "" && r.Payer != nil {
		v.PayerName = r.Payer.Name
	}
	v.Errors = r.Errors
	v.Coverage = coverageOf(r)
	v.People = peopleOf(r)
	if v.Request != nil && len(v.Request.Dependents) > 0 && len(r.Dependents) == 0 && len(v.People) > 0 {
		// Some payers answer for a dependent in the subscriber loop.
		v.People[0].Role = "Patient (answered as the subscriber)"
	}
	v.Groups, v.Messages = groupBenefits(r.BenefitsInformation)
	if r.Payer != nil && r.Payer.ContactInformation != nil {
		for _, ct := range r.Payer.ContactInformation.Contacts {
			v.Contacts = append(v.Contacts, ct.CommunicationMode+": "+ct.CommunicationNumber)
		}
	}
	patient := ""
	if len(v.People) > 0 {
		patient = v.People[len(v.People)-1].Name
	}
	switch {
	case len(r.Errors) > 0 && v.Coverage.Class == "bad":
		e := r.Errors[0]
		v.Summary = fmt.Sprintf("Rejected by the payer: AAA %s %s.", e.Code, e.Description)
	case patient != "":
		v.Summary = fmt.Sprintf("%s for %s.", v.Coverage.Status, patient)
	default:
		v.Summary = v.Coverage.Status + "."
	}
}

// coverageOf finds the coverage status (EB01 1–8) and the plan.
func coverageOf(r *eligibility.Response) coverageView {
	cv := coverageView{Status: "No coverage status in the payer's answer", Class: "warn"}
	found := false
	seen := map[string]bool{}
	for _, b := range r.BenefitsInformation {
		if !isCoverageCode(b.Code) {
			continue
		}
		if !found {
			found = true
			cv.Status, cv.Plan, cv.InsuranceType = b.Name, b.PlanCoverage, b.InsuranceType
			if b.Name == "Inactive" { // EB01 6; say what is inactive
				cv.Status = "Inactive Coverage"
			}
			cv.Class = "ok"
			if b.Code >= "6" {
				cv.Class = "warn"
			}
		}
		for _, st := range b.ServiceTypes {
			if !seen[st] {
				seen[st] = true
				cv.Covered = append(cv.Covered, st)
			}
		}
	}
	if !found && len(r.Errors) > 0 {
		cv.Status, cv.Class = "Rejected by the payer", "bad"
	}
	if r.Status == "ERROR" && !found {
		cv.Status, cv.Class = "Check failed", "bad"
	}
	pi := r.PlanInformation
	if cv.Plan == "" {
		cv.Plan = pi["planDescription"]
	}
	group := pi["groupNumber"]
	if d := pi["groupDescription"]; d != "" {
		group = strings.TrimSpace(group + " · " + d)
	}
	if group == "" && r.Subscriber != nil {
		group = strings.Trim(r.Subscriber.GroupNumber+" · "+r.Subscriber.GroupDescription, " ·")
	}
	cv.Group = group
	cv.Dates = planDates(r.PlanDateInformation)
	return cv
}

func isCoverageCode(code string) bool { return len(code) == 1 && code >= "1" && code <= "8" }

// planDateLabels name the plan dates, in the order they are shown.
var planDateLabels = []labeled{
	{"plan", "Plan dates"}, {"planBegin", "Plan begins"}, {"planEnd", "Plan ends"},
	{"eligibility", "Eligibility dates"}, {"eligibilityBegin", "Eligible from"}, {"eligibilityEnd", "Eligible until"},
	{"policyEffective", "Policy effective"}, {"policyExpiration", "Policy expires"},
	{"benefit", "Benefit dates"}, {"benefitBegin", "Benefits begin"}, {"benefitEnd", "Benefits end"},
	{"added", "Added"}, {"cobraBegin", "COBRA begins"}, {"cobraEnd", "COBRA ends"},
}

func planDates(m map[string]string) []labeled {
	var out []labeled
	done := map[string]bool{}
	for _, l := range planDateLabels {
		if d := m[l.Label]; d != "" {
			out = append(out, labeled{l.Value, formatDate(d)})
			done[l.Label] = true
		}
	}
	var rest []string
	for k := range m {
		if !done[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, labeled{humanize(k), formatDate(m[k])})
	}
	return out
}

// humanize turns a camelCase key into words: "dateOfLastUpdate" → "Date of last update".
func humanize(key string) string {
	var b strings.Builder
	for i, r := range key {
		if i == 0 {
			b.WriteRune(unicode.ToUpper(r))
			continue
		}
		if unicode.IsUpper(r) {
			b.WriteByte(' ')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func peopleOf(r *eligibility.Response) []personView {
	var out []personView
	if r.Subscriber != nil {
		out = append(out, personOf("Subscriber", r.Subscriber))
	}
	for i := range r.Dependents {
		out = append(out, personOf("Dependent", &r.Dependents[i]))
	}
	return out
}

func personOf(role string, p *eligibility.ResponsePerson) personView {
	name := strings.Join(strings.Fields(strings.Join([]string{p.FirstName, p.MiddleName, p.LastName, p.Suffix}, " ")), " ")
	pv := personView{Role: role, Name: name}
	add := func(label, value string) {
		if value != "" {
			pv.Fields = append(pv.Fields, labeled{label, value})
		}
	}
	add("Member ID", p.MemberID)
	add("Date of birth", formatDate(p.DateOfBirth))
	add("Gender", map[string]string{"M": "Male", "F": "Female", "U": "Unknown"}[p.Gender])
	if role == "Dependent" || p.RelationToSubscriberCode != "18" {
		add("Relationship", p.RelationToSubscriber)
	}
	add("Group", p.GroupNumber)
	add("Plan number", p.PlanNumber)
	return pv
}

// Cost-sharing kinds come first, in the order people look for them.
var kindOrder = map[string]int{"B": 0, "A": 1, "C": 2, "G": 3}

var kindLabels = map[string]string{"B": "Copay", "A": "Coinsurance", "C": "Deductible", "G": "Out-of-pocket maximum"}

// networkLabel names EB12.
func networkLabel(code string) string {
	switch code {
	case "Y":
		return "In network"
	case "N":
		return "Out of network"
	case "U":
		return "Network unknown"
	}
	return "Any network"
}

var networkOrder = map[string]int{"In network": 0, "Out of network": 1, "Any network": 2, "Network unknown": 3}

// groupBenefits sorts the EB entries into one group per service type (an
// entry listing several service types appears in each), and collects the
// payer's MSG lines with where they appeared.
func groupBenefits(bs []eligibility.BenefitsInformation) ([]benefitGroup, []payerMessage) {
	type cellKey struct{ kind, network, level string }
	type building struct {
		group     benefitGroup
		kinds     []string // row order
		kindNames map[string]string
		networks  map[string]bool
		levels    []string
		cells     map[cellKey][]amount
	}
	var order []string
	groups := map[string]*building{}
	var messages []payerMessage
	for _, b := range bs {
		if isCoverageCode(b.Code) {
			continue // summarised in the coverage box
		}
		names := b.ServiceTypes
		if len(names) == 0 {
			names = []string{"Plan-wide"}
		}
		kind := kindLabels[b.Code]
		if kind == "" {
			kind = b.Name
		}
		network, level := networkLabel(b.InPlanNetworkIndicatorCode), b.CoverageLevel
		if level == "" {
			level = "Any coverage level"
		}
		notes := benefitNotes(b)
		for _, d := range b.AdditionalInformation {
			if d.Description != "" {
				messages = append(messages, payerMessage{Context: strings.Join(names, ", ") + " · " + kind, Text: d.Description})
			}
		}
		for _, name := range names {
			g := groups[name]
			if g == nil {
				g = &building{group: benefitGroup{ID: fmt.Sprintf("benefits-%d", len(order)+1), Name: name},
					kindNames: map[string]string{}, networks: map[string]bool{}, cells: map[cellKey][]amount{}}
				groups[name] = g
				order = append(order, name)
			}
			value := benefitValue(b)
			if value == "" {
				text := strings.Join(append(relatedEntities(b, kind), notes...), "; ")
				g.group.Other = append(g.group.Other, otherLine{Kind: kind, Text: text})
				continue
			}
			if _, ok := g.kindNames[b.Code]; !ok {
				g.kindNames[b.Code] = kind
				g.kinds = append(g.kinds, b.Code)
			}
			g.networks[network] = true
			if !slices.Contains(g.levels, level) {
				g.levels = append(g.levels, level)
			}
			a := amount{Value: value, Qualifier: b.TimeQualifier, Note: strings.Join(notes, "; ")}
			if b.TimeQualifierCode == "29" || b.TimeQualifierCode == "33" {
				a.Remaining = true
				a.Qualifier = strings.ToLower(b.TimeQualifier)
			}
			k := cellKey{b.Code, network, level}
			g.cells[k] = append(g.cells[k], a)
		}
	}
	out := make([]benefitGroup, 0, len(order))
	for _, name := range order {
		g := groups[name]
		for n := range g.networks {
			g.group.Networks = append(g.group.Networks, n)
		}
		sort.Slice(g.group.Networks, func(i, j int) bool {
			return networkOrder[g.group.Networks[i]] < networkOrder[g.group.Networks[j]]
		})
		g.group.Levels = sortLevels(g.levels)
		sort.SliceStable(g.kinds, func(i, j int) bool { return rank(g.kinds[i]) < rank(g.kinds[j]) })
		for _, kind := range g.kinds {
			row := benefitRow{Kind: g.kindNames[kind]}
			for _, n := range g.group.Networks {
				for _, l := range g.group.Levels {
					amounts := g.cells[cellKey{kind, n, l}]
					// Totals first, remaining beside them.
					sort.SliceStable(amounts, func(i, j int) bool { return !amounts[i].Remaining && amounts[j].Remaining })
					row.Cells = append(row.Cells, benefitCell{Label: n + ", " + l, Amounts: amounts})
				}
			}
			g.group.Rows = append(g.group.Rows, row)
		}
		out = append(out, g.group)
	}
	return mergeSameGroups(out), messages
}

// mergeSameGroups joins service types whose benefits read the same (one
// coinsurance entry often lists six service types): "Medical Care,
// Hospital" once instead of two identical tables.
func mergeSameGroups(groups []benefitGroup) []benefitGroup {
	var out []benefitGroup
	index := map[string]int{}
	for _, g := range groups {
		sig := fmt.Sprintf("%q|%q|%+v|%+v", g.Networks, g.Levels, g.Rows, g.Other)
		if i, ok := index[sig]; ok {
			out[i].Name += ", " + g.Name
			continue
		}
		index[sig] = len(out)
		out = append(out, g)
	}
	return out
}

func rank(kind string) int {
	if r, ok := kindOrder[kind]; ok {
		return r
	}
	return len(kindOrder)
}

// sortLevels puts Individual before Family and keeps the others in the
// order the payer sent them.
func sortLevels(levels []string) []string {
	pos := func(l string) int {
		switch l {
		case "Individual":
			return 0
		case "Family":
			return 1
		}
		return 2
	}
	sort.SliceStable(levels, func(i, j int) bool { return pos(levels[i]) < pos(levels[j]) })
	return levels
}

// benefitValue is the amount, percentage or quantity of an entry, "" when
// it has none.
func benefitValue(b eligibility.BenefitsInformation) string {
	var parts []string
	if b.BenefitAmount != "" {
		parts = append(parts, formatMoney(b.BenefitAmount))
	}
	if b.BenefitPercent != "" {
		parts = append(parts, formatPercent(b.BenefitPercent))
	}
	if b.BenefitQuantity != "" {
		parts = append(parts, strings.TrimSpace(b.BenefitQuantity+" "+b.QuantityQualifier))
	}
	return strings.Join(parts, ", ")
}

// benefitNotes are the qualifications of an entry: the payer's messages,
// place of service, procedure, frequency, authorization, its plan dates.
func benefitNotes(b eligibility.BenefitsInformation) []string {
	var notes []string
	for _, d := range b.AdditionalInformation {
		if d.Description != "" {
			notes = append(notes, d.Description)
		}
	}
	for _, e := range b.EligibilityAdditionalInformationList {
		if e.Industry != "" {
			notes = append(notes, "at "+e.Industry)
		}
	}
	if p := b.CompositeMedicalProcedureIdentifier; p != nil && p.ProcedureCode != "" {
		notes = append(notes, "procedure "+p.ProcedureCode)
	}
	for _, d := range b.BenefitsServiceDelivery {
		if s := deliveryText(d); s != "" {
			notes = append(notes, s)
		}
	}
	switch b.AuthOrCertIndicator {
	case "Y":
		notes = append(notes, "prior authorization required")
	}
	if b.BenefitsDateInformation != nil {
		for _, l := range planDates(b.BenefitsDateInformation.Dates) {
			notes = append(notes, strings.ToLower(l.Label[:1])+l.Label[1:]+" "+l.Value)
		}
	}
	return notes
}

// deliveryText renders an HSD: "2 Visits per 12 Months".
func deliveryText(d eligibility.BenefitsServiceDelivery) string {
	s := strings.TrimSpace(d.Quantity + " " + d.QuantityQualifier)
	if d.NumOfPeriods != "" || d.TimePeriodQualifier != "" {
		s = strings.TrimSpace(s + " per " + strings.TrimSpace(d.NumOfPeriods+" "+d.TimePeriodQualifier))
	}
	return s
}

// relatedEntities describes a 2120 loop: "Primary Care Provider: LINDA
// NGUYEN (XX 1682037191)", without the entity's role when the benefit
// already says it.
func relatedEntities(b eligibility.BenefitsInformation, kind string) []string {
	var out []string
	for _, e := range b.BenefitsRelatedEntities {
		s := strings.Join(strings.Fields(e.EntityFirstname+" "+e.EntityMiddlename+" "+e.EntityName+" "+e.EntitySuffix), " ")
		if e.EntityIdentifier != "" && e.EntityIdentifier != kind {
			s = e.EntityIdentifier + ": " + s
		}
		if e.EntityIdentificationValue != "" {
			s += " (" + strings.TrimSpace(e.EntityIdentification+" "+e.EntityIdentificationValue) + ")"
		}
		if e.ContactInformation != nil {
			for _, ct := range e.ContactInformation.Contacts {
				s += ", " + ct.CommunicationMode + " " + ct.CommunicationNumber
			}
		}
		out = append(out, s)
	}
	return out
}

// readableX12 puts each segment of an interchange on its own line. The
// segment terminator is the byte after ISA16 (offset 105).
func readableX12(b []byte) string {
	if len(b) < 106 || !bytes.HasPrefix(b, []byte("ISA")) {
		return string(b)
	}
	term := b[105]
	var out strings.Builder
	for _, seg := range bytes.Split(b, []byte{term}) {
		seg = bytes.TrimSpace(seg)
		if len(seg) > 0 {
			out.Write(seg)
			out.WriteByte(term)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

func indentJSON(b []byte) string {
	var buf bytes.Buffer
	if json.Indent(&buf, b, "", "  ") != nil {
		return string(b)
	}
	return buf.String()
}
