package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

// Benefits lays a 271's benefits out the way commercial portals show
// them: the plan's deductible, out-of-pocket and maximums with their total
// and what is left, then one compact grid with a row per service and a
// column per network; Medicare by part; dental by class, with frequency
// limits, waiting periods and procedure history.
type Benefits struct {
	Columns     []string     // networks: "In network", "Out of network" (or "Any network")
	PlanColumns []string     // the networks the plan-wide amounts are given for
	Plan        []planRow    // plan-wide amounts
	Services    []serviceRow // the grid
	Medicare    []medicarePart
	Dental      *dentalView
	Other       []Labeled // what fits nowhere else, with the payer's words
}

// planRow is one plan-wide amount, such as the individual deductible, in
// every network.
type planRow struct {
	Label string // "Deductible", "Out-of-pocket maximum", "Annual maximum"
	Level string // "Individual", "Family", ""
	Cells []planCell
	Notes []string
}

// planCell is a total and what is left of it: "$1,000 per calendar year",
// "$722.50 left".
type planCell struct {
	Total, Period, Remaining string
}

// Empty reports whether the payer gave nothing for this cell.
func (c planCell) Empty() bool { return c.Total == "" && c.Remaining == "" }

// serviceRow is one row of the grid: a service (or several that read the
// same) and what the patient pays for it in each network.
type serviceRow struct {
	Name  string
	Cells [][]costLine
	Notes []string
	sig   string
}

// costLine is one fact in a grid cell: "$20 copay", "Patient pays 20%",
// "Not covered", with the payer's note.
type costLine struct {
	Text string
	Note string
	Bad  bool // not covered
}

type medicarePart struct {
	Name  string // "Part A (hospital)"
	Lines []Labeled
	Notes []string
}

type dentalView struct {
	Maximums   []Labeled
	Classes    []serviceRow // coinsurance by class, columns as Columns
	Frequency  []dentalLimit
	Waiting    []string
	History    []Labeled // procedure code → last done
	NoWaitings bool
}

type dentalLimit struct {
	Service string // "D1110" or a service name
	Limit   string // "2 visits per calendar year"
	Age     string // "under age 19"
	Note    string
}

// Plan-level service types: amounts listed for these apply to the plan as
// a whole.
func planLevel(b eligibility.BenefitsInformation) bool {
	if b.CompositeMedicalProcedureIdentifier != nil && b.CompositeMedicalProcedureIdentifier.ProcedureCode != "" {
		return false
	}
	if len(b.ServiceTypeCodes) == 0 {
		return true
	}
	for _, c := range b.ServiceTypeCodes {
		if c == "30" || c == "35" {
			return true
		}
	}
	return false
}

// Dental classes, as dental offices group CDT service types.
var dentalClasses = []struct {
	Name  string
	Codes []string
}{
	{"Preventive and diagnostic", []string{"23", "41", "4"}},
	{"Basic (fillings, periodontics, endodontics, oral surgery)", []string{"24", "25", "26", "40"}},
	{"Major (crowns, bridges, dentures)", []string{"27", "36", "39"}},
	{"Orthodontics", []string{"38"}},
}

func dentalClassOf(codes []string) int {
	for i, c := range dentalClasses {
		for _, code := range codes {
			if slices.Contains(c.Codes, code) {
				return i
			}
		}
	}
	return -1
}

func isDental(bs []eligibility.BenefitsInformation) bool {
	for _, b := range bs {
		// A dental plan's coverage lists Dental Care; a medical plan that
		// also covers dental lists Health Benefit Plan Coverage too.
		if isCoverageCode(b.Code) && slices.Contains(b.ServiceTypeCodes, "35") && !slices.Contains(b.ServiceTypeCodes, "30") {
			return true
		}
	}
	return false
}

func isMedicare(b eligibility.BenefitsInformation) bool {
	return b.InsuranceTypeCode == "MA" || b.InsuranceTypeCode == "MB"
}

// network is the grid column of an entry.
func network(code string) string {
	switch code {
	case "Y":
		return "In network"
	case "N":
		return "Out of network"
	}
	return anyNetwork
}

// anyNetwork marks an entry without a network indicator: it holds in
// every network column.
const anyNetwork = "*"

var columnOrder = map[string]int{"In network": 0, "Out of network": 1}

// periodWords says a time qualifier as part of a sentence.
func periodWords(b eligibility.BenefitsInformation) string {
	switch b.TimeQualifierCode {
	case "":
		return ""
	case "23":
		return "per calendar year"
	case "22":
		return "per service year"
	case "25":
		return "per contract"
	case "26":
		return "per benefit period"
	case "27":
		return "per visit"
	case "32":
		return "lifetime"
	case "34":
		return "per month"
	case "21":
		return "per year"
	case "24":
		return "year to date"
	}
	return strings.ToLower(b.TimeQualifier)
}

func remainingEntry(b eligibility.BenefitsInformation) bool {
	return b.TimeQualifierCode == "29" || b.TimeQualifierCode == "33"
}

func notes(b eligibility.BenefitsInformation) []string {
	var out []string
	for _, d := range b.AdditionalInformation {
		if d.Description != "" {
			out = append(out, d.Description)
		}
	}
	return out
}

// buildBenefits sorts the entries into the view.
func buildBenefits(bs []eligibility.BenefitsInformation) Benefits {
	var v Benefits
	dental := isDental(bs)
	if dental {
		v.Dental = &dentalView{}
	}
	columns := map[string]bool{}
	type planKey struct{ label, level string }
	var planOrder []planKey
	plan := map[planKey]*planRow{}
	planCells := map[planKey]map[string]*planCell{}
	var serviceOrder []string
	services := map[string]map[string][]costLine{} // service → column → lines
	serviceNotes := map[string][]string{}
	classCells := map[int]map[string][]costLine{}
	parts := map[string]*medicarePart{}

	addPlan := func(label, level, col string, b eligibility.BenefitsInformation) {
		k := planKey{label, level}
		if plan[k] == nil {
			plan[k] = &planRow{Label: label, Level: level}
			planCells[k] = map[string]*planCell{}
			planOrder = append(planOrder, k)
		}
		cell := planCells[k][col]
		if cell == nil {
			cell = &planCell{}
			planCells[k][col] = cell
		}
		if remainingEntry(b) {
			cell.Remaining = FormatMoney(b.BenefitAmount)
		} else {
			cell.Total, cell.Period = FormatMoney(b.BenefitAmount), periodWords(b)
		}
		for _, n := range notes(b) {
			if !slices.Contains(plan[k].Notes, n) {
				plan[k].Notes = append(plan[k].Notes, n)
			}
		}
		columns[col] = true
	}
	addService := func(names []string, col string, line costLine) {
		for _, name := range names {
			if services[name] == nil {
				services[name] = map[string][]costLine{}
				serviceOrder = append(serviceOrder, name)
			}
			services[name][col] = append(services[name][col], line)
		}
		columns[col] = true
	}

	for _, b := range bs {
		if isCoverageCode(b.Code) && !isMedicare(b) {
			continue // the coverage box says it
		}
		if isMedicare(b) {
			addMedicare(parts, b)
			continue
		}
		col := network(b.InPlanNetworkIndicatorCode)
		level := b.CoverageLevel
		names := b.ServiceTypes
		if len(names) == 0 {
			names = []string{"All services"}
		}
		ns := notes(b)
		note := strings.Join(ns, "; ")
		switch {
		case dental && b.Code == "F" && b.BenefitAmount != "" && slices.Contains(b.ServiceTypeCodes, "38"):
			label, text := "Orthodontic maximum", FormatMoney(b.BenefitAmount)
			if p := periodWords(b); p == "lifetime" {
				label = "Orthodontic lifetime maximum"
			} else if p != "" {
				text += " " + p
			}
			if age := ageLimit(b); age != "" {
				text += ", " + age
			}
			v.Dental.Maximums = append(v.Dental.Maximums, Labeled{label, text})
		case (b.Code == "C" || b.Code == "G" || b.Code == "F") && b.BenefitAmount != "" && planLevel(b):
			label := map[string]string{"C": "Deductible", "G": "Out-of-pocket maximum", "F": "Benefit maximum"}[b.Code]
			if b.Code == "F" && dental {
				label = "Annual maximum"
				if b.TimeQualifierCode == "32" || b.TimeQualifierCode == "33" {
					label = "Lifetime maximum"
				}
			}
			addPlan(label, level, col, b)
		case dental && dentalClassOf(b.ServiceTypeCodes) >= 0 && (b.Code == "A" || b.Code == "B" || b.Code == "C") && procedureOf(b) == "":
			i := dentalClassOf(b.ServiceTypeCodes)
			if classCells[i] == nil {
				classCells[i] = map[string][]costLine{}
			}
			classCells[i][col] = append(classCells[i][col], costLineOf(b, note))
			columns[col] = true
		case dental && (b.Code == "F" || b.Code == "A") && (len(b.BenefitsServiceDelivery) > 0 || procedureOf(b) != "") && b.BenefitAmount == "":
			v.Dental.Frequency = append(v.Dental.Frequency, dentalLimitOf(b, note))
			if d := historyDate(b); d != "" {
				v.Dental.History = append(v.Dental.History, Labeled{serviceOrProcedure(b), d})
			}
		case dental && waiting(ns):
			v.Dental.Waiting = append(v.Dental.Waiting, waitingText(b, ns))
		case b.Code == "L" || b.Code == "R" || b.Code == "U" || len(b.BenefitsRelatedEntities) > 0:
			for _, e := range relatedEntities(b, b.Name) {
				v.Other = append(v.Other, Labeled{b.Name, e})
			}
			if len(b.BenefitsRelatedEntities) == 0 {
				v.Other = append(v.Other, Labeled{b.Name, note})
			}
		case b.Code == "A" || b.Code == "B" || b.Code == "C" || b.Code == "I" || b.Code == "F" || b.Code == "G":
			addService(names, col, costLineOf(b, note))
		case note != "":
			if dental && strings.Contains(strings.ToUpper(note), "NO WAITING PERIOD") {
				v.Dental.NoWaitings = true
				continue
			}
			for _, name := range names {
				if !slices.Contains(serviceNotes[name], note) {
					serviceNotes[name] = append(serviceNotes[name], note)
				}
			}
			if services[names[0]] == nil {
				v.Other = append(v.Other, Labeled{strings.Join(names, ", "), note})
			}
		}
		if d := historyDate(b); d != "" && !(dental && b.Code == "F") {
			v.Dental = orNew(v.Dental)
			v.Dental.History = append(v.Dental.History, Labeled{serviceOrProcedure(b), d})
		}
	}

	for c := range columns {
		if c != anyNetwork {
			v.Columns = append(v.Columns, c)
		}
	}
	slices.SortFunc(v.Columns, func(a, b string) int { return columnOrder[a] - columnOrder[b] })
	if len(v.Columns) == 0 {
		v.Columns = []string{"Any network"}
	}
	// Cells of entries without a network join every column.
	lines := func(m map[string][]costLine, c string) []costLine {
		if c == "Any network" {
			c = anyNetwork
		}
		out := slices.Clone(m[c])
		if c != anyNetwork {
			out = append(out, m[anyNetwork]...)
		}
		return out
	}
	for _, c := range v.Columns {
		for _, k := range planOrder {
			if planCells[k][c] != nil || planCells[k][anyNetwork] != nil || c == "Any network" {
				v.PlanColumns = append(v.PlanColumns, c)
				break
			}
		}
	}
	for _, k := range planOrder {
		row := plan[k]
		for _, c := range v.PlanColumns {
			cell := planCells[k][c]
			if cell == nil {
				cell = planCells[k][anyNetwork]
			}
			if cell != nil {
				row.Cells = append(row.Cells, *cell)
			} else {
				row.Cells = append(row.Cells, planCell{})
			}
		}
		v.Plan = append(v.Plan, *row)
	}
	slices.SortStableFunc(v.Plan, func(a, b planRow) int { return planRank(a) - planRank(b) })
	for _, name := range serviceOrder {
		row := serviceRow{Name: name, Notes: serviceNotes[name]}
		for _, c := range v.Columns {
			row.Cells = append(row.Cells, lines(services[name], c))
		}
		row.sig = fmt.Sprintf("%+v|%q", row.Cells, row.Notes)
		v.Services = append(v.Services, row)
	}
	v.Services = mergeRows(v.Services)
	if v.Dental != nil {
		for i, class := range dentalClasses {
			if classCells[i] == nil {
				continue
			}
			row := serviceRow{Name: class.Name}
			for _, c := range v.Columns {
				row.Cells = append(row.Cells, lines(classCells[i], c))
			}
			v.Dental.Classes = append(v.Dental.Classes, row)
		}
	}
	for _, name := range []string{"Part A (hospital)", "Part B (medical)"} {
		if p := parts[name]; p != nil {
			v.Medicare = append(v.Medicare, *p)
		}
	}
	return v
}

func orNew(d *dentalView) *dentalView {
	if d == nil {
		return &dentalView{}
	}
	return d
}

func planRank(r planRow) int {
	rank := map[string]int{"Deductible": 0, "Out-of-pocket maximum": 2, "Annual maximum": 4, "Benefit maximum": 4, "Lifetime maximum": 6}[r.Label]
	if r.Level == "Family" {
		rank++
	}
	return rank
}

// mergeRows joins services whose rows read the same ("Medical Care,
// Hospital" once instead of two identical rows).
func mergeRows(rows []serviceRow) []serviceRow {
	var out []serviceRow
	index := map[string]int{}
	for _, r := range rows {
		if i, ok := index[r.sig]; ok {
			out[i].Name += ", " + r.Name
			continue
		}
		index[r.sig] = len(out)
		out = append(out, r)
	}
	return out
}

// costLineOf says one entry in a grid cell.
func costLineOf(b eligibility.BenefitsInformation, note string) costLine {
	level := ""
	if b.CoverageLevelCode == "FAM" {
		level = " (family)"
	}
	l := costLine{Note: note}
	switch b.Code {
	case "B":
		l.Text = FormatMoney(b.BenefitAmount) + " copay"
	case "A":
		l.Text = "Patient pays " + FormatPercent(b.BenefitPercent)
		if p := percentOf(b.BenefitPercent); p >= 0 {
			l.Text += fmt.Sprintf(" (plan pays %s%%)", trimFloat(100-p))
		}
	case "C":
		l.Text = "Deductible " + FormatMoney(b.BenefitAmount)
		if remainingEntry(b) {
			l.Text = "Deductible: " + FormatMoney(b.BenefitAmount) + " left"
		}
	case "G":
		l.Text = "Out-of-pocket maximum " + FormatMoney(b.BenefitAmount)
	case "I":
		l.Text, l.Bad = "Not covered", true
	case "F":
		l.Text = "Limit"
		if v := benefitValue(b); v != "" {
			l.Text = "Limit: " + v
		}
		for _, d := range b.BenefitsServiceDelivery {
			if s := frequency(d); s != "" {
				l.Text = "Limit: " + s
			}
		}
	default:
		l.Text = b.Name
	}
	if b.Code != "I" && b.Code != "F" && b.BenefitAmount == "" && b.BenefitPercent == "" {
		l.Text = b.Name
	}
	if p := periodWords(b); p != "" && b.Code != "B" && b.Code != "A" && !remainingEntry(b) && b.Code != "F" {
		l.Text += " " + p
	}
	if b.AuthOrCertIndicator == "Y" {
		l.Note = strings.TrimPrefix(l.Note+"; prior authorization required", "; ")
	}
	l.Text += level
	return l
}

func percentOf(s string) float64 {
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		return -1
	}
	return f * 100
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}

// frequency says an HSD: "2 visits per calendar year", "1 per 6 months".
func frequency(d eligibility.BenefitsServiceDelivery) string {
	qty := d.Quantity
	if qty == "" {
		return ""
	}
	unit := ""
	switch d.QuantityQualifierCode {
	case "VS":
		unit = " visits"
		if qty == "1" {
			unit = " visit"
		}
	case "DY":
		unit = " days"
	case "":
	default:
		unit = " " + strings.ToLower(d.QuantityQualifier)
	}
	period := ""
	n := d.NumOfPeriods
	switch d.TimePeriodQualifierCode {
	case "23":
		period = "calendar year"
	case "22":
		period = "service year"
	case "21":
		period = "year"
	case "34":
		period = "month"
	case "35":
		period = "week"
	case "7":
		period = "day"
	case "27":
		period = "visit"
	case "32":
		return qty + unit + " per lifetime"
	default:
		period = strings.ToLower(d.TimePeriodQualifier)
	}
	if period == "" {
		return qty + unit
	}
	if n == "" || n == "1" {
		return qty + unit + " per " + period
	}
	return qty + unit + " per " + n + " " + period + "s"
}

// ageLimit reads an age from the quantity: S7 is the highest age covered,
// S8 the lowest.
func ageLimit(b eligibility.BenefitsInformation) string {
	switch b.QuantityQualifierCode {
	case "S7":
		return "up to age " + b.BenefitQuantity
	case "S8":
		return "from age " + b.BenefitQuantity
	}
	return ""
}

func procedureOf(b eligibility.BenefitsInformation) string {
	if p := b.CompositeMedicalProcedureIdentifier; p != nil {
		return p.ProcedureCode
	}
	return ""
}

func serviceOrProcedure(b eligibility.BenefitsInformation) string {
	if p := procedureOf(b); p != "" {
		return p
	}
	return strings.Join(b.ServiceTypes, ", ")
}

func dentalLimitOf(b eligibility.BenefitsInformation, note string) dentalLimit {
	l := dentalLimit{Service: serviceOrProcedure(b), Age: ageLimit(b), Note: note}
	for _, d := range b.BenefitsServiceDelivery {
		if s := frequency(d); s != "" {
			l.Limit = s
		}
	}
	if l.Limit == "" && b.Code == "A" {
		l.Limit = "Patient pays " + FormatPercent(b.BenefitPercent)
	}
	return l
}

// historyDate is when the procedure was last done, when the payer says it
// (DTP 304 latest visit, 472 service, 198 completion).
func historyDate(b eligibility.BenefitsInformation) string {
	if b.BenefitsDateInformation == nil {
		return ""
	}
	for _, k := range []string{"latestVisitOrConsultation", "service", "completion"} {
		if d := b.BenefitsDateInformation.Dates[k]; d != "" {
			return FormatDate(d)
		}
	}
	return ""
}

func waiting(ns []string) bool {
	for _, n := range ns {
		if strings.Contains(strings.ToUpper(n), "WAITING PERIOD") && !strings.Contains(strings.ToUpper(n), "NO WAITING") {
			return true
		}
	}
	return false
}

func waitingText(b eligibility.BenefitsInformation, ns []string) string {
	s := strings.Join(ns, "; ")
	if i := dentalClassOf(b.ServiceTypeCodes); i >= 0 {
		s = dentalClasses[i].Name + ": " + s
	}
	if b.BenefitsDateInformation != nil {
		if d := b.BenefitsDateInformation.Dates["benefitBegin"]; d != "" {
			s += " (covered from " + FormatDate(d) + ")"
		}
	}
	return s
}

// addMedicare files an entry under its part.
func addMedicare(parts map[string]*medicarePart, b eligibility.BenefitsInformation) {
	name := "Part A (hospital)"
	if b.InsuranceTypeCode == "MB" {
		name = "Part B (medical)"
	}
	p := parts[name]
	if p == nil {
		p = &medicarePart{Name: name}
		parts[name] = p
	}
	add := func(label, value string) { p.Lines = append(p.Lines, Labeled{label, value}) }
	switch {
	case isCoverageCode(b.Code):
		status := b.Name
		if b.BenefitsDateInformation != nil {
			if d := b.BenefitsDateInformation.Dates["eligibility"]; d != "" {
				status += " since " + FormatDate(d)
			}
		}
		add("Coverage", status)
	case b.Code == "C" && remainingEntry(b):
		add("Deductible remaining", FormatMoney(b.BenefitAmount))
	case b.Code == "C":
		add("Deductible", strings.TrimSpace(FormatMoney(b.BenefitAmount)+" "+periodWords(b)))
	case b.Code == "A":
		add("Coinsurance", "Patient pays "+FormatPercent(b.BenefitPercent))
	case b.Code == "B":
		add("Copay", FormatMoney(b.BenefitAmount))
	case b.Code == "K" || b.QuantityQualifierCode == "LA":
		add("Lifetime reserve days remaining", b.BenefitQuantity)
		return // its message says the same
	case b.BenefitQuantity != "" && b.QuantityQualifierCode == "DY":
		label := "Days"
		if len(b.ServiceTypes) > 0 {
			label = b.ServiceTypes[0] + " days"
		}
		add(label, strings.TrimSpace(b.BenefitQuantity+" "+periodWords(b)))
		return
	default:
		text := strings.Join(b.ServiceTypes, ", ")
		if d := historyDate(b); d != "" {
			text += ", " + d
		}
		if b.BenefitsDateInformation != nil {
			for _, l := range planDates(b.BenefitsDateInformation.Dates) {
				text += " · " + l.Label + " " + l.Value
			}
		}
		add(b.Name, text)
	}
	for _, n := range notes(b) {
		if !slices.Contains(p.Notes, n) {
			p.Notes = append(p.Notes, n)
		}
	}
}
