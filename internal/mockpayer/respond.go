package mockpayer

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// Implementation guide of the 270/271 pair.
const guide279 = "005010X279A1"

// respond writes the 271 interchange for a matched inquiry.
func (p *Payer) respond(inq *inquiry, s *scenario) ([]byte, error) {
	now := p.now().UTC()
	n := p.nextControl()
	isa13 := strconv.FormatInt(n, 10)
	isa13 = "000000000"[len(isa13):] + isa13
	dates := p.datesFor(now)

	var buf bytes.Buffer
	buf.Grow(4096)
	w := x12.NewInterchangeWriter(&buf, x12.DefaultDelimiters, oneTransaction{})
	rw := responseWriter{w: w, dates: dates}
	rw.do(func() error {
		return w.BeginInterchange(x12.InterchangeHeader{
			SenderQualifier: "ZZ", SenderID: s.payer.ID,
			ReceiverQualifier: inq.isaSenderQualifier, ReceiverID: inq.isaSenderID,
			Date: now, Usage: "T", ControlNumber: n,
		})
	})
	rw.do(func() error {
		return w.BeginGroup(x12.GroupHeader{FunctionalID: "HB", SenderCode: s.payer.ID, ReceiverCode: inq.gsSender,
			Date: now, Version: guide279, ControlNumber: n})
	})
	rw.do(func() error { return w.BeginTransaction("271", guide279) })
	reference := inq.reference
	if reference == "" {
		reference = isa13
	}
	// The date and the time formatted as one string, not one each.
	var dt [12]byte
	bhtDate := string(x12.AppendDateTime(dt[:0], now))
	rw.segment("BHT", "0022", "11", reference, bhtDate[:8], bhtDate[8:])

	loop := ""
	if s.reject != nil {
		loop = s.reject.Loop
	}
	patientAsDependent := inq.hasDependent && len(s.dependent) > 0

	// 2000A/2100A: the payer.
	rw.segment("HL", "1", "", "20", flag(loop != "2100A"))
	rw.segment("NM1", "PR", "2", s.payer.Name, "", "", "", "", "PI", s.payer.ID)
	rw.templates(s.payer.contacts())
	if loop == "2100A" {
		rw.template(s.rejectAAA)
		return rw.finish(&buf)
	}

	// 2000B/2100B: the information receiver, as the request named it.
	rw.segment("HL", "2", "1", "21", flag(loop != "2100B"))
	rw.echo(inq.provider)
	if loop == "2100B" {
		rw.template(s.rejectAAA)
		return rw.finish(&buf)
	}

	// 2000C/2100C/2110C: the subscriber.
	rw.segment("HL", "3", "2", "22", flag(patientAsDependent))
	traces := inq.subscriber.traces
	if inq.hasDependent && !patientAsDependent {
		// The payer answers for the dependent in the subscriber loop, so
		// the dependent's trace comes back there too.
		traces = append(append([]trace(nil), traces...), inq.dependent.traces...)
	}
	rw.traces(traces, !patientAsDependent, isa13, s.payer.TraceOriginator, s.simulated)
	if loop == "2100C" {
		rw.echo(inq.subscriber.nm1)
		rw.template(s.rejectAAA)
		if inq.subscriber.dmg.present() {
			rw.echo(inq.subscriber.dmg)
		}
		return rw.finish(&buf)
	}
	rw.templates(s.subscriber)
	rw.templates(s.subscriberBenefits)

	// 2000D/2100D/2110D: the dependent, for payers that answer there.
	if patientAsDependent {
		rw.segment("HL", "4", "3", "23", "0")
		rw.traces(inq.dependent.traces, true, isa13, s.payer.TraceOriginator, s.simulated)
		rw.templates(s.dependent)
		rw.templates(s.dependentBenefits)
	}
	return rw.finish(&buf)
}

// nextControl hands out ISA13 values 1..999999999, wrapping.
func (p *Payer) nextControl() int64 {
	for {
		old := p.control.Load()
		next := old%999999999 + 1
		if p.control.CompareAndSwap(old, next) {
			return next
		}
	}
}

func flag(children bool) string {
	if children {
		return "1"
	}
	return "0"
}

// oneTransaction numbers the single transaction set of a 271 "0001"; the
// interchange and group numbers are set explicitly.
type oneTransaction struct{}

func (oneTransaction) Next(kind x12.ControlKind) (int64, error) {
	if kind == x12.TransactionControl {
		return 1, nil
	}
	return 0, fmt.Errorf("mockpayer: %s control number must be set explicitly", kind)
}

// responseWriter keeps the first error so the 271 reads as a straight
// sequence of segments.
type responseWriter struct {
	w     *x12.InterchangeWriter
	dates *dateContext
	err   error
}

func (rw *responseWriter) do(f func() error) {
	if rw.err == nil {
		rw.err = f()
	}
}

func (rw *responseWriter) segment(id string, elems ...string) {
	rw.do(func() error { return rw.w.WriteSegment(id, elems...) })
}

// echo writes a segment of the request with the 271's delimiters: as is
// when the request used the same ones, else element by element (a value
// holding one of our delimiters cannot be echoed).
func (rw *responseWriter) echo(seg rawSegment) {
	if rw.err != nil {
		return
	}
	if seg.d == rw.w.Delimiters() {
		rw.err = rw.w.WriteRaw(seg.raw)
		return
	}
	elems := seg.elements()
	if err := rw.w.WriteSegment(elems[0], elems[1:]...); err != nil {
		rw.err = fmt.Errorf("%w: cannot echo the request's %s: %v", ErrInvalidInquiry, elems[0], err)
	}
}

func (rw *responseWriter) template(t segmentTemplate) {
	rw.do(func() error {
		if t.dynamic {
			return rw.w.WriteRaw(rw.dates.expand(t.line))
		}
		return rw.w.WriteRaw(t.raw)
	})
}

func (rw *responseWriter) templates(ts []segmentTemplate) {
	for _, t := range ts {
		rw.template(t)
	}
}

// traces writes the request's traces back as TRN*2 (at most two, so the
// payer's own TRN*1 still fits the three the guide allows), and the payer's
// trace when payerTrace is set (with the simulator scenario's name as
// TRN04 when one answered).
func (rw *responseWriter) traces(ts []trace, payerTrace bool, number, originator, scenarioName string) {
	for i, t := range ts {
		if i == 2 {
			break
		}
		rw.segment("TRN", "2", t.number, t.originator, t.supplemental)
	}
	if payerTrace && scenarioName != "" {
		rw.segment("TRN", "1", number, originator, scenarioName)
	} else if payerTrace {
		rw.segment("TRN", "1", number, originator)
	}
}

func (rw *responseWriter) finish(buf *bytes.Buffer) ([]byte, error) {
	rw.do(rw.w.EndTransaction)
	rw.do(rw.w.EndGroup)
	rw.do(rw.w.EndInterchange)
	if rw.err != nil {
		return nil, rw.err
	}
	return buf.Bytes(), nil
}

// dateContext holds the fixtures' dated lines expanded for one day, so an
// exchange only looks them up.
type dateContext struct {
	year, yearDay int
	lines         map[string][]byte
}

// datesFor returns the expanded lines for now's day, building them on the
// first exchange of a day.
func (p *Payer) datesFor(now time.Time) *dateContext {
	if dc := p.dates.Load(); dc != nil && dc.year == now.Year() && dc.yearDay == now.YearDay() {
		return dc
	}
	y := now.Year()
	r := strings.NewReplacer(
		"{YEAR}", strconv.Itoa(y),
		"{PREVYEAR}", strconv.Itoa(y-1),
		"{NEXTYEAR}", strconv.Itoa(y+1),
		"{TODAY}", now.Format("20060102"),
	)
	dc := &dateContext{year: y, yearDay: now.YearDay(), lines: make(map[string][]byte, len(p.datedLines))}
	for _, line := range p.datedLines {
		dc.lines[line] = []byte(r.Replace(line))
	}
	p.dates.Store(dc)
	return dc
}

func (d *dateContext) expand(line string) []byte { return d.lines[line] }

// contacts returns the payer's PER lines as templates (checked at load).
func (pp *payerProfile) contacts() []segmentTemplate {
	return pp.compiled
}
