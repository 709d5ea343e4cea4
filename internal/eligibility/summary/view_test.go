package summary

import (
	"encoding/json"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

func TestFormatPhone(t *testing.T) {
	for in, want := range map[string]string{"9725550188": "(972) 555-0188", "1-972-555-0188": "(972) 555-0188", "555-0188": "555-0188"} {
		if got := formatPhone(in); got != want {
			t.Errorf("formatPhone(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStoredProblemIsShown(t *testing.T) {
	body, _ := json.Marshal(eligibility.Problem{Code: "FORBIDDEN", Message: "This is a test API key: no mock request matches"})
	v := New(store.EligibilityCheck{ID: "ec_1", Status: "error", HTTPStatus: 403, ResponseJSON: body,
		RequestJSON: []byte(`{"tradingPartnerServiceId":"87726"}`)}, payers.Default())
	if v.Problem == nil || v.Problem.Code != "FORBIDDEN" || v.Response != nil || v.PayerName != "UnitedHealthcare" ||
		v.Coverage.Class != "bad" || v.Summary != "The check failed: This is a test API key: no mock request matches" {
		t.Errorf("view of a stored problem: %+v", v)
	}
}

func TestReadableX12(t *testing.T) {
	isa := "ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *260302*0900*^*00501*000000001*0*T*:~"
	got := ReadableX12([]byte(isa + "GS*HB*A*B~ST*271*0001~"))
	want := isa + "\nGS*HB*A*B~\nST*271*0001~\n"
	if got != want {
		t.Errorf("ReadableX12:\n%s\nwant:\n%s", got, want)
	}
	if got := ReadableX12([]byte("not x12")); got != "not x12" {
		t.Errorf("non-X12 input changed: %q", got)
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		f        func(string) string
		in, want string
	}{
		{FormatMoney, "2000", "$2,000"},
		{FormatMoney, "1475.82", "$1,475.82"},
		{FormatMoney, "3210.4", "$3,210.40"},
		{FormatMoney, "0", "$0"},
		{FormatMoney, "1234567.5", "$1,234,567.50"},
		{FormatMoney, "-20", "-$20"},
		{FormatMoney, "abc", "abc"},
		{FormatPercent, "0.2", "20%"},
		{FormatPercent, ".125", "12.5%"},
		{FormatPercent, "1", "100%"},
		{FormatDate, "20260131", "Jan 31, 2026"},
		{FormatDate, "20260101-20261231", "Jan 1, 2026 – Dec 31, 2026"},
		{FormatDate, "2026", "2026"},
		{humanize, "dateOfLastUpdate", "Date of last update"},
	} {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, got, tc.want)
		}
	}
}
