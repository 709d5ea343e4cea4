package mockpayer

import (
	"cmp"
	"strings"

	sim "github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

// benefitLines writes a scenario's benefits description as the 271's
// 2100C (the member as the request named them, the group, the plan
// dates) and 2110C lines (an EB per benefit, in the order the guide
// lists them: coverage, then the amounts).
func benefitLines(inq *inquiry, b *sim.Benefits) (subscriber, benefits []string) {
	s := &inq.subscriber
	nm1 := []string{"NM1", "IL", "1", strings.ToUpper(s.last), strings.ToUpper(s.first), "", "", ""}
	if s.memberID != "" {
		nm1 = append(nm1, "MI", strings.ToUpper(s.memberID))
	}
	subscriber = append(subscriber, line(nm1...))
	if b.GroupNumber != "" {
		subscriber = append(subscriber, line("REF", "6P", b.GroupNumber))
	}
	if s.dob != "" {
		subscriber = append(subscriber, line("DMG", "D8", s.dob))
	}
	switch {
	case b.CoverageBegin != "" && b.CoverageEnd != "":
		subscriber = append(subscriber, line("DTP", "291", "RD8", b.CoverageBegin+"-"+b.CoverageEnd))
	case b.CoverageBegin != "":
		subscriber = append(subscriber, line("DTP", "346", "D8", b.CoverageBegin))
	case b.CoverageEnd != "":
		subscriber = append(subscriber, line("DTP", "347", "D8", b.CoverageEnd))
	}

	plan := b.PlanName
	status := "1"
	if b.Status == "inactive" {
		status = "6"
	}
	types := b.ServiceTypeCodes
	if len(types) == 0 {
		types = []string{"30"}
	}
	benefits = append(benefits, line("EB", status, "IND", strings.Join(types, "^"), "", plan))
	for _, d := range b.Deductibles {
		benefits = append(benefits, accumulatorLines("C", plan, d)...)
	}
	for _, o := range b.OutOfPocket {
		benefits = append(benefits, accumulatorLines("G", plan, o)...)
	}
	for _, c := range b.Copays {
		benefits = append(benefits, line("EB", "B", "IND", c.ServiceTypeCode, "", plan, "27", c.Amount, "", "", "", "", network(c.InNetwork)))
		benefits = appendMessage(benefits, c.Message)
	}
	for _, c := range b.Coinsurance {
		benefits = append(benefits, line("EB", "A", "IND", c.ServiceTypeCode, "", plan, "27", "", c.Percent, "", "", "", network(c.InNetwork)))
		benefits = appendMessage(benefits, c.Message)
	}
	for _, l := range b.Limitations {
		eb := []string{"EB", "F", "IND", l.ServiceTypeCode, "", plan, periodCode(l.Period)}
		if l.Quantity != "" {
			eb = append(eb, "", "", cmp.Or(l.QuantityQualifier, "VS"), l.Quantity)
		}
		benefits = append(benefits, line(eb...))
		benefits = appendMessage(benefits, l.Message)
	}
	return subscriber, benefits
}

// accumulatorLines are a deductible's or out-of-pocket maximum's EBs: the
// amount for its period and, when given, what remains (EB06 29).
func accumulatorLines(code, plan string, a sim.Accumulator) []string {
	level := "IND"
	if a.Level == "family" {
		level = "FAM"
	}
	stc := cmp.Or(a.ServiceTypeCode, "30")
	out := []string{line("EB", code, level, stc, "", plan, periodCode(cmp.Or(a.Period, "calendarYear")), a.Amount, "", "", "", "", network(a.InNetwork))}
	if a.Remaining != "" {
		out = append(out, line("EB", code, level, stc, "", plan, "29", a.Remaining, "", "", "", "", network(a.InNetwork)))
	}
	return out
}

// periodCode is EB06, the time period qualifier.
func periodCode(period string) string {
	return map[string]string{"calendarYear": "23", "serviceYear": "22", "lifetime": "32", "visit": "27", "day": "7"}[period]
}

func network(in *bool) string {
	switch {
	case in == nil:
		return ""
	case *in:
		return "Y"
	}
	return "N"
}

func appendMessage(lines []string, msg string) []string {
	if msg == "" {
		return lines
	}
	return append(lines, line("MSG", strings.ToUpper(msg)))
}

// line joins a segment's elements, dropping trailing empty ones.
func line(elems ...string) string {
	return strings.Join(trimEmpty(elems), "*")
}
