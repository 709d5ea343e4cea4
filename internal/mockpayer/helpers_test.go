package mockpayer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// fixedNow is the clock of the tests: plan years in the fixtures follow it.
var fixedNow = time.Date(2026, 3, 14, 9, 26, 0, 0, time.UTC)

func newMock() *mockpayer.Payer {
	return mockpayer.New(mockpayer.WithClock(func() time.Time { return fixedNow }), mockpayer.WithControlNumberStart(41))
}

// build270 turns an eligibility request JSON into a 270 with the
// eligibility package's builder: the path production takes.
func build270(t testing.TB, body []byte) []byte {
	t.Helper()
	req := &eligibility.Request{}
	if err := json.Unmarshal(body, req); err != nil {
		t.Fatal(err)
	}
	payer, ok := payers.Default().Lookup(req.TradingPartnerServiceID)
	if !ok {
		t.Fatalf("payer %s unknown", req.TradingPartnerServiceID)
	}
	if err := eligibility.Validate(req, &payer); err != nil {
		t.Fatalf("request %s fails validation: %v", body, err)
	}
	built, err := eligibility.Build270(req, payer, eligibility.Build270Options{
		Numbers: &x12.SequentialControlNumbers{}, TraceID: "01JTESTTRACE0000000000000A", Now: fixedNow, Test: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return built.X12
}

// seg is one segment of a parsed 271 with the HL level (HL03) it sits in.
type seg struct {
	level string
	elems []string // id first
}

func (s seg) el(n int) string {
	if n < len(s.elems) {
		return s.elems[n]
	}
	return ""
}

type parsed271 struct {
	segs []seg
}

// parse271 reads a 270 or 271 with the x12 Reader after checking it with
// the guide validator (envelopes by package x12, the transaction set by its
// 005010X279A1 guide): no findings allowed.
func parse271(t testing.TB, b []byte) parsed271 {
	t.Helper()
	rep, err := guide.Validate(bytes.NewReader(b), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if all := rep.All(); len(all) > 0 {
		t.Fatalf("findings: %v\n%s", all, bytes.ReplaceAll(b, []byte("~"), []byte("~\n")))
	}
	r := x12.NewReader(bytes.NewReader(b))
	var p parsed271
	level := ""
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s.ID() == "HL" {
			level = s.Element(3)
		}
		p.segs = append(p.segs, seg{level: level, elems: append([]string{s.ID()}, s.Elements()...)})
	}
	return p
}

// find returns the segments with id at level ("" = any level) whose
// elements start with the given values.
func (p parsed271) find(level, id string, prefix ...string) []seg {
	var out []seg
	for _, s := range p.segs {
		if s.elems[0] != id || (level != "" && s.level != level) {
			continue
		}
		ok := true
		for i, v := range prefix {
			if s.el(i+1) != v {
				ok = false
			}
		}
		if ok {
			out = append(out, s)
		}
	}
	return out
}

func (p parsed271) levels() string {
	var l []string
	for _, s := range p.find("", "HL") {
		l = append(l, s.el(3))
	}
	return strings.Join(l, ",")
}

func exchange(t testing.TB, m *mockpayer.Payer, x270 []byte) []byte {
	t.Helper()
	out, err := m.Exchange(context.Background(), x270)
	if err != nil {
		t.Fatalf("Exchange: %v\n%s", err, x270)
	}
	return out
}
