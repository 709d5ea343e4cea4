package summary

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

// TestDentalDetails: frequency limits in a dental office's words, age
// limits, and the procedure history a payer may send (DTP 304 latest
// visit), which no mock payer answers with.
func TestDentalDetails(t *testing.T) {
	proc := func(code string) *eligibility.CompositeMedicalProcedureIdentifier {
		return &eligibility.CompositeMedicalProcedureIdentifier{ProductOrServiceIDQualifierCode: "AD", ProcedureCode: code}
	}
	v := buildBenefits([]eligibility.BenefitsInformation{
		{Code: "1", Name: "Active Coverage", ServiceTypeCodes: []string{"35"}, ServiceTypes: []string{"Dental Care"}},
		{Code: "F", Name: "Limitations", ServiceTypeCodes: []string{"41"}, ServiceTypes: []string{"Routine (Preventive) Dental"},
			InPlanNetworkIndicatorCode: "Y", CompositeMedicalProcedureIdentifier: proc("D1120"),
			QuantityQualifierCode: "S7", BenefitQuantity: "14",
			BenefitsServiceDelivery: []eligibility.BenefitsServiceDelivery{{QuantityQualifierCode: "VS", Quantity: "1", TimePeriodQualifierCode: "34", NumOfPeriods: "6"}},
			BenefitsDateInformation: &eligibility.BenefitsDateInformation{Dates: map[string]string{"latestVisitOrConsultation": "20260115"}}},
		{Code: "F", Name: "Limitations", ServiceTypeCodes: []string{"23"}, ServiceTypes: []string{"Diagnostic Dental"},
			InPlanNetworkIndicatorCode: "Y", CompositeMedicalProcedureIdentifier: proc("D0330"),
			BenefitsServiceDelivery: []eligibility.BenefitsServiceDelivery{{QuantityQualifierCode: "VS", Quantity: "1", TimePeriodQualifierCode: "21", NumOfPeriods: "5"}}},
		{Code: "D", Name: "Benefit Description", ServiceTypeCodes: []string{"35"}, AdditionalInformation: []eligibility.AdditionalInformation{{Description: "NO WAITING PERIODS"}}},
	})
	if v.Dental == nil {
		t.Fatal("a dental plan without the dental view")
	}
	want := []dentalLimit{
		{Service: "D1120", Limit: "1 visit per 6 months", Age: "up to age 14"},
		{Service: "D0330", Limit: "1 visit per 5 years"},
	}
	if d := cmp.Diff(want, v.Dental.Frequency); d != "" {
		t.Errorf("frequency limits (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Labeled{{"D1120", "Jan 15, 2026"}}, v.Dental.History); d != "" {
		t.Errorf("procedure history (-want +got):\n%s", d)
	}
	if !v.Dental.NoWaitings || len(v.Dental.Waiting) != 0 {
		t.Errorf("waiting periods: %+v", v.Dental)
	}
}
