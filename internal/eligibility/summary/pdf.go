package summary

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/signintech/gopdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/clearhouse/clearhouse/internal/store"
)

// The printable summary is one US Letter page for the patient's chart:
// who, which payer and plan, the coverage status, the plan's amounts and
// the benefits grid, as the result page lays them out. It is always one
// page: what does not fit is cut with a line that says so, and the result
// page has the rest. Fonts are the Go fonts (embedded, subset into the
// file), so the PDF looks the same on every host.

// pdfPage writes top to bottom on one page.
type pdfPage struct {
	pdf       gopdf.GoPdf
	y         float64
	err       error
	truncated bool
}

const (
	pageW, pageH = 612.0, 792.0
	margin       = 40.0
	bottom       = pageH - 56 // the footer lives below
	contentW     = pageW - 2*margin
)

func (p *pdfPage) font(style string, size float64) {
	if p.err == nil {
		p.err = p.pdf.SetFont(style, "", size)
	}
}

func (p *pdfPage) color(rgb [3]uint8) { p.pdf.SetTextColor(rgb[0], rgb[1], rgb[2]) }

var (
	black = [3]uint8{27, 31, 36}
	muted = [3]uint8{79, 90, 102}
	green = [3]uint8{23, 100, 58}
	amber = [3]uint8{122, 75, 0}
	red   = [3]uint8{164, 22, 26}
)

// wrap splits text to a width in the current font.
func (p *pdfPage) wrap(text string, width float64) []string {
	if text == "" {
		return []string{""}
	}
	lines, err := p.pdf.SplitTextWithWordWrap(text, width)
	if err != nil || len(lines) == 0 {
		return []string{text}
	}
	return lines
}

// fits reports whether h more points fit; the first time they do not, it
// says where the rest is and stops the page.
func (p *pdfPage) fits(h float64) bool {
	if p.truncated {
		return false
	}
	if p.y+h <= bottom {
		return true
	}
	p.truncated = true
	p.font("bold", 8)
	p.color(muted)
	p.at(margin, bottom+4, "More on the result page in the console: this summary shows what fits on one page.")
	return false
}

func (p *pdfPage) at(x, y float64, text string) {
	if p.err != nil {
		return
	}
	p.pdf.SetXY(x, y)
	p.err = p.pdf.Cell(nil, text)
}

// para writes wrapped text and moves down.
func (p *pdfPage) para(style string, size float64, rgb [3]uint8, text string) {
	p.font(style, size)
	p.color(rgb)
	lh := size * 1.3
	for _, l := range p.wrap(text, contentW) {
		if !p.fits(lh) {
			return
		}
		p.at(margin, p.y, l)
		p.y += lh
	}
}

func (p *pdfPage) heading(text string) {
	if !p.fits(30) { // a heading needs room for a line under it
		return
	}
	p.y += 6
	p.font("bold", 10.5)
	p.color(black)
	p.at(margin, p.y, text)
	p.y += 14
	p.pdf.SetStrokeColor(201, 209, 217)
	p.pdf.SetLineWidth(0.6)
	p.pdf.Line(margin, p.y-2, pageW-margin, p.y-2)
}

// table writes rows of cells; widths are fractions of the page's width.
// The first row is the header.
func (p *pdfPage) table(widths []float64, rows [][]string) {
	const size, lh = 8.0, 10.0
	for i, row := range rows {
		style := "regular"
		if i == 0 {
			style = "bold"
		}
		p.font(style, size)
		cells := make([][]string, len(row))
		height := 1
		for j, text := range row {
			cells[j] = p.wrap(text, widths[j]*contentW-6)
			height = max(height, len(cells[j]))
		}
		h := float64(height)*lh + 4
		if !p.fits(h) {
			return
		}
		x := margin
		for j := range row {
			if j == 0 && i > 0 {
				p.font("bold", size)
			} else {
				p.font(style, size)
			}
			p.color(black)
			if i == 0 {
				p.color(muted)
			}
			for k, l := range cells[j] {
				p.at(x, p.y+float64(k)*lh, l)
			}
			x += widths[j] * contentW
		}
		p.y += h
		p.pdf.SetStrokeColor(225, 230, 235)
		p.pdf.SetLineWidth(0.4)
		p.pdf.Line(margin, p.y-2, pageW-margin, p.y-2)
	}
}

// facts writes label: value pairs in two columns.
func (p *pdfPage) facts(pairs []Labeled) {
	const size, lh = 8.5, 11.0
	colW := contentW / 2
	labelW := 100.0
	p.font("bold", size)
	for _, f := range pairs {
		if w, err := p.pdf.MeasureTextWidth(f.Label); err == nil {
			labelW = max(labelW, min(w+8, colW/2))
		}
	}
	for i := 0; i < len(pairs); i += 2 {
		if !p.fits(lh) {
			return
		}
		for j := 0; j < 2 && i+j < len(pairs); j++ {
			x := margin + float64(j)*colW
			p.font("bold", size)
			p.color(muted)
			p.at(x, p.y, pairs[i+j].Label)
			p.font("regular", size)
			p.color(black)
			value := p.wrap(pairs[i+j].Value, colW-labelW-8)[0]
			p.at(x+labelW, p.y, value)
		}
		p.y += lh
	}
}

func costText(lines []costLine) string {
	var parts []string
	for _, l := range lines {
		s := l.Text
		if l.Note != "" {
			s += " (" + l.Note + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

func PDF(v *View) ([]byte, error) {
	p := &pdfPage{y: margin}
	p.pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeLetter})
	p.pdf.SetInfo(gopdf.PdfInfo{Title: "Eligibility summary " + v.ID, Creator: "Clearhouse", CreationDate: v.CreatedAt})
	p.pdf.AddPage()
	if err := p.pdf.AddTTFFontData("regular", goregular.TTF); err != nil {
		return nil, err
	}
	if err := p.pdf.AddTTFFontData("bold", gobold.TTF); err != nil {
		return nil, err
	}

	p.font("bold", 16)
	p.color(black)
	p.at(margin, p.y, "Eligibility summary")
	p.font("regular", 8.5)
	p.color(muted)
	when := "Checked " + FormatTime(v.CreatedAt)
	if v.Mode == store.ModeTest {
		when += " · TEST MODE (mock payer)"
	}
	if w, err := p.pdf.MeasureTextWidth(when); err == nil {
		p.at(pageW-margin-w, p.y+4, when)
	}
	p.y += 26

	status := map[string][3]uint8{"ok": green, "warn": amber, "bad": red}[v.Coverage.Class]
	if status == ([3]uint8{}) {
		status = black
	}
	p.para("bold", 14, status, v.Coverage.Status)
	payer := v.PayerName
	if v.PayerID != "" {
		payer = strings.TrimSpace(payer + " (" + v.PayerID + ")")
	}
	p.para("regular", 10, black, payer)
	p.y += 4

	var facts []Labeled
	for _, person := range v.People {
		facts = append(facts, Labeled{person.Role, person.Name})
		for _, f := range person.Fields {
			if f.Label != "Gender" && f.Label != "Plan number" {
				facts = append(facts, f)
			}
		}
	}
	if v.Coverage.Plan != "" {
		facts = append(facts, Labeled{"Plan", v.Coverage.Plan})
	}
	if v.Coverage.InsuranceType != "" {
		facts = append(facts, Labeled{"Insurance type", v.Coverage.InsuranceType})
	}
	if v.Coverage.Group != "" {
		facts = append(facts, Labeled{"Group", v.Coverage.Group})
	}
	facts = append(facts, v.Coverage.Dates...)
	for _, c := range v.Contacts {
		facts = append(facts, Labeled{"Payer " + strings.ToLower(c.Label), c.Value})
	}
	p.facts(facts)

	if v.Problem != nil {
		p.heading("The check could not be completed")
		p.para("regular", 9, black, ProblemText(v.Problem))
	}
	if len(v.Errors) > 0 {
		p.heading("Why the payer turned it down")
		for _, e := range v.Errors {
			p.para("bold", 9, red, e.Title)
			p.para("regular", 9, black, "What to do: "+e.Advice)
		}
	}
	b := v.Benefits
	for _, part := range b.Medicare {
		p.heading("Medicare " + part.Name)
		p.facts(part.Lines)
		for _, n := range part.Notes {
			p.para("regular", 8, muted, n)
		}
	}
	if len(b.Plan) > 0 {
		p.heading("Deductible, out-of-pocket and maximums")
		rows := [][]string{append([]string{""}, b.PlanColumns...)}
		widths := []float64{0.3}
		for range b.PlanColumns {
			widths = append(widths, 0.7/float64(len(b.PlanColumns)))
		}
		for _, r := range b.Plan {
			row := []string{strings.TrimSpace(r.Label + " " + strings.ToLower(r.Level))}
			for _, c := range r.Cells {
				s := strings.TrimSpace(c.Total + " " + c.Period)
				if c.Remaining != "" {
					s = strings.TrimSpace(s + ", " + c.Remaining + " left")
				}
				if c.Empty() {
					s = "—"
				}
				row = append(row, strings.TrimPrefix(s, ", "))
			}
			rows = append(rows, row)
		}
		p.table(widths, rows)
	}
	if d := b.Dental; d != nil {
		p.heading("Dental")
		p.facts(d.Maximums)
		if len(d.Classes) > 0 {
			rows := [][]string{append([]string{"Coinsurance by class"}, b.Columns...)}
			for _, r := range d.Classes {
				row := []string{r.Name}
				for _, c := range r.Cells {
					row = append(row, costText(c))
				}
				rows = append(rows, row)
			}
			p.table(columnWidths(len(b.Columns)), rows)
		}
		if len(d.Frequency) > 0 {
			rows := [][]string{{"Procedure", "Frequency limit", "Age", "Payer's note"}}
			for _, f := range d.Frequency {
				rows = append(rows, []string{f.Service, f.Limit, f.Age, f.Note})
			}
			p.table([]float64{0.14, 0.26, 0.14, 0.46}, rows)
		}
		switch {
		case len(d.Waiting) > 0:
			p.para("regular", 8.5, black, "Waiting periods: "+strings.Join(d.Waiting, "; "))
		case d.NoWaitings:
			p.para("regular", 8.5, black, "No waiting periods.")
		}
		for _, h := range d.History {
			p.para("regular", 8.5, black, h.Label+": last done "+h.Value)
		}
	}
	if len(b.Services) > 0 {
		p.heading("Benefits by service")
		rows := [][]string{append([]string{"Service"}, b.Columns...)}
		for _, r := range b.Services {
			name := r.Name
			if len(r.Notes) > 0 {
				name += " (" + strings.Join(r.Notes, "; ") + ")"
			}
			row := []string{name}
			for _, c := range r.Cells {
				row = append(row, costText(c))
			}
			rows = append(rows, row)
		}
		p.table(columnWidths(len(b.Columns)), rows)
	}
	for _, o := range b.Other {
		p.para("regular", 8.5, black, o.Label+": "+o.Value)
	}

	p.font("regular", 7.5)
	p.color(muted)
	p.at(margin, pageH-36, fmt.Sprintf("Check %s · Clearhouse · Benefits as the payer reported them at the time of the check; not a guarantee of payment.", v.ID))
	if p.err != nil {
		return nil, p.err
	}
	var buf bytes.Buffer
	if _, err := p.pdf.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// columnWidths gives the first column a third and shares the rest.
func columnWidths(n int) []float64 {
	w := []float64{0.34}
	for range n {
		w = append(w, 0.66/float64(n))
	}
	return w
}
