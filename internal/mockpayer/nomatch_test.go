package mockpayer_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

func TestRequestsOutsideTheMockSet(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		edit     func(*mockpayer.MockRequest)
		post     func([]byte) []byte // edits the built 270 (for what validation refuses)
		fields   []string            // NoMatchError.Fields; nil: check only the sentinel
		service  bool                // ErrUnsupportedServiceType
		noMocks  bool                // the payer has no mock requests
		mustHide []string            // values the message must not echo
	}{
		{name: "wrong birth date", base: "cigna-subscriber-jones",
			edit:   func(m *mockpayer.MockRequest) { m.Subscriber.DateOfBirth = "19910203" },
			fields: []string{"subscriber date of birth"}, mustHide: []string{"19910203", "Jones", "23456789100"}},
		{name: "unknown member", base: "aetna-subscriber",
			edit:   func(m *mockpayer.MockRequest) { m.Subscriber.MemberID = "W123456789" },
			fields: []string{"subscriber member id"}, mustHide: []string{"W123456789"}},
		{name: "other person", base: "humana-subscriber",
			edit: func(m *mockpayer.MockRequest) {
				m.Subscriber = mockpayer.Person{FirstName: "Ada", LastName: "Lovelace", MemberID: "HX1", DateOfBirth: "19151210"}
			},
			fields:   []string{"subscriber member id", "subscriber last name", "subscriber first name", "subscriber date of birth"},
			mustHide: []string{"Ada", "Lovelace", "HX1", "19151210"}},
		{name: "dependent birth date", base: "uhc-dependent",
			edit:   func(m *mockpayer.MockRequest) { m.Dependents[0].DateOfBirth = "19521122" },
			fields: []string{"dependent date of birth"}},
		{name: "dependent left out", base: "uhc-dependent",
			edit:   func(m *mockpayer.MockRequest) { m.Dependents = nil },
			fields: []string{"dependent (this mock request sends one in dependents)"}},
		{name: "dependent added", base: "uhc-subscriber",
			edit: func(m *mockpayer.MockRequest) {
				m.Dependents = []mockpayer.Person{{FirstName: "Jim", LastName: "Doe", DateOfBirth: "20100101"}}
			},
			fields: []string{"dependent (this mock request has none)"}},
		{name: "dental member asked for medical", base: "metlife-dental",
			edit:   func(m *mockpayer.MockRequest) { m.Encounter.ServiceTypeCodes = []string{"30"} },
			fields: []string{"service type (this mock request sends service type code 35)"}},
		{name: "procedure mock without its procedure", base: "cigna-dental-procedure",
			edit: func(m *mockpayer.MockRequest) {
				m.Encounter = mockpayer.Encounter{ServiceTypeCodes: []string{"35"}}
			},
			fields: []string{"encounter (this mock request sends procedure code D0120 with qualifier AD)"}},
		{name: "other procedure", base: "cigna-dental-procedure",
			edit:   func(m *mockpayer.MockRequest) { m.Encounter.ProcedureCode = "D1110" },
			fields: []string{"encounter (this mock request sends procedure code D0120 with qualifier AD)"}},
		{name: "MBI lookup with another first name", base: "mbi-lookup",
			edit:   func(m *mockpayer.MockRequest) { m.Subscriber.FirstName = "Joan" },
			fields: []string{"subscriber first name"}, mustHide: []string{"Joan"}},
		{name: "MBI lookup without SSN", base: "mbi-lookup", edit: func(*mockpayer.MockRequest) {},
			post:   func(b []byte) []byte { return bytes.Replace(b, []byte("REF*SY*123456789~"), nil, 1) },
			fields: []string{"subscriber SSN"}},
		{name: "service type outside the test set", base: "uhc-subscriber",
			edit:    func(m *mockpayer.MockRequest) { m.Encounter.ServiceTypeCodes = []string{"98"} },
			service: true},
		{name: "payer without mocks", base: "uhc-subscriber",
			edit:    func(m *mockpayer.MockRequest) { m.TradingPartnerServiceID = "00590" },
			noMocks: true},
	}
	m := newMock()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := findRequest(t, tt.base)
			tt.edit(&req)
			x270 := build270(t, req.RequestJSON())
			if tt.post != nil {
				edited := tt.post(x270)
				if bytes.Equal(edited, x270) {
					t.Fatal("post edit changed nothing")
				}
				x270 = fixSegmentCount(edited)
			}
			_, err := m.Exchange(context.Background(), x270)
			if !errors.Is(err, mockpayer.ErrNoMockMatch) {
				t.Fatalf("err = %v, want ErrNoMockMatch", err)
			}
			if errors.Is(err, mockpayer.ErrUnsupportedServiceType) != tt.service {
				t.Errorf("ErrUnsupportedServiceType = %v, want %v", !tt.service, tt.service)
			}
			var nm *mockpayer.NoMatchError
			if !errors.As(err, &nm) {
				t.Fatalf("%T is not a *NoMatchError", err)
			}
			if tt.fields != nil && !slices.Equal(nm.Fields, tt.fields) {
				t.Errorf("Fields = %q, want %q", nm.Fields, tt.fields)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "test mode accepts only the published mock requests: ") ||
				!strings.Contains(msg, mockpayer.MockListReference) {
				t.Errorf("message = %q", msg)
			}
			if tt.noMocks && (!strings.Contains(msg, "payer 00590 has no mock requests") || !strings.Contains(msg, "87726")) {
				t.Errorf("message = %q, want the payer and the list of mock payers", msg)
			}
			if tt.service && !strings.Contains(msg, "service type code 98 is not supported; test mode supports 30") {
				t.Errorf("message = %q", msg)
			}
			for _, v := range tt.mustHide {
				if strings.Contains(msg, v) {
					t.Errorf("message echoes %q: %s", v, msg)
				}
			}
		})
	}
}

func TestMatchingRules(t *testing.T) {
	tests := []struct {
		name string
		base string
		edit func(*mockpayer.MockRequest)
	}{
		{"names ignore case", "cigna-subscriber-jones", func(m *mockpayer.MockRequest) {
			m.Subscriber.FirstName, m.Subscriber.LastName = "JAMES", "jones"
		}},
		{"MBI lookup without first name (published)", "mbi-lookup", func(*mockpayer.MockRequest) {}},
		{"MBI lookup with first name Jane", "mbi-lookup", func(m *mockpayer.MockRequest) { m.Subscriber.FirstName = "jane" }},
		{"provider is free", "uhc-subscriber", func(m *mockpayer.MockRequest) {
			m.Provider = mockpayer.Provider{FirstName: "Ann", LastName: "Lee", NPI: "1234567893"}
		}},
		{"procedure mock with STC 35 too", "cigna-dental-procedure", func(m *mockpayer.MockRequest) {
			m.Encounter.ServiceTypeCodes = []string{"35"}
		}},
		{"extra subscriber birth date on a dependent mock is ignored", "aetna-dependent", func(m *mockpayer.MockRequest) {
			m.Subscriber.DateOfBirth = "19730518"
		}},
	}
	m := newMock()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := findRequest(t, tt.base)
			tt.edit(&req)
			parse271(t, exchange(t, m, build270(t, req.RequestJSON())))
		})
	}
	// Member ids compare exactly.
	req := findRequest(t, "aetna-dependent")
	req.Subscriber.MemberID = strings.ToUpper(req.Subscriber.MemberID)
	if _, err := m.Exchange(context.Background(), build270(t, req.RequestJSON())); !errors.Is(err, mockpayer.ErrNoMockMatch) {
		t.Errorf("member id in another case matched: %v", err)
	}
}

func TestInvalidInquiries(t *testing.T) {
	m := newMock()
	good := build270(t, findRequest(t, "uhc-subscriber").RequestJSON())
	twoSubscribers := bytes.Replace(good, []byte("EQ*30~"), []byte("EQ*30~HL*4*2*22*0~NM1*IL*1*ROE*JAN****MI*X2~EQ*30~"), 1)
	tests := map[string][]byte{
		"not X12":          []byte(`{"tradingPartnerServiceId": "87726"}`),
		"empty":            nil,
		"a 271":            exchange(t, m, good),
		"two subscribers":  twoSubscribers,
		"no subscriber":    cut(good, "HL*3*"),
		"no service type":  bytes.Replace(good, []byte("EQ*30~"), nil, 1),
		"no payer id":      bytes.Replace(good, []byte("*PI*87726~"), []byte("~"), 1),
		"truncated header": good[:40],
	}
	for name, in := range tests {
		if _, err := m.Exchange(context.Background(), in); !errors.Is(err, mockpayer.ErrInvalidInquiry) {
			t.Errorf("%s: err = %v, want ErrInvalidInquiry", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Exchange(ctx, good); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

// fixSegmentCount rewrites SE01 after a test removed segments, so the
// edited 270 stays a valid interchange.
func fixSegmentCount(b []byte) []byte {
	st := bytes.Index(b, []byte("~ST*"))
	se := bytes.Index(b, []byte("~SE*"))
	n := bytes.Count(b[st:se], []byte("~")) + 1
	rest := b[se+4:]
	rest = rest[bytes.IndexByte(rest, '*'):]
	return append(append(append([]byte(nil), b[:se]...), "~SE*"+strconv.Itoa(n)...), rest...)
}

// cut drops everything from the first occurrence of marker up to SE.
func cut(b []byte, marker string) []byte {
	i := bytes.Index(b, []byte(marker))
	j := bytes.Index(b, []byte("~SE*")) + 1
	return append(append([]byte(nil), b[:i]...), b[j:]...)
}
