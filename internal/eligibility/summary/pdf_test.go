package summary

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestSummaryPDFStaysOnePage: a plan with sixty services is cut, says so,
// and is still one page.
func TestSummaryPDFStaysOnePage(t *testing.T) {
	v := &View{ID: "ec_long", PayerName: "Big Plan", PayerID: "99999", Coverage: Coverage{Status: "Active Coverage", Class: "ok"}}
	var bs []eligibility.BenefitsInformation
	for i := range 60 {
		bs = append(bs, eligibility.BenefitsInformation{Code: "B", Name: "Co-Payment", ServiceTypeCodes: []string{fmt.Sprint(i)},
			ServiceTypes: []string{fmt.Sprintf("Service number %d with a long name that wraps", i)}, InPlanNetworkIndicatorCode: "Y",
			BenefitAmount: fmt.Sprint(10 + i), AdditionalInformation: []eligibility.AdditionalInformation{{Description: "A NOTE THAT MAKES THE ROW TALLER THAN ONE LINE"}}})
	}
	v.Benefits = buildBenefits(bs)
	b, err := PDF(v)
	if err != nil {
		t.Fatal(err)
	}
	text := testenv.PDFText(t, b)
	for _, want := range []string{"Service number 0 ", "More on the result page", "ec_long"} {
		if !strings.Contains(text, want) {
			t.Errorf("long PDF: no %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "Service number 59 ") {
		t.Error("all sixty services fit on one page? the test should overflow it")
	}
}
