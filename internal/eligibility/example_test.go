package eligibility_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
)

// A request is validated, built into a 270 and the payer's 271 mapped back.
func Example() {
	req := &eligibility.Request{
		TradingPartnerServiceID: "87726",
		Provider:                &eligibility.Provider{OrganizationName: "Provider Name", NPI: "1999999984"},
		Subscriber: &eligibility.Subscriber{MemberID: "UHC123456",
			Patient: eligibility.Patient{FirstName: "Jane", LastName: "Doe", DateOfBirth: "19710101"}},
	}
	payer, _ := payers.Default().Lookup(req.TradingPartnerServiceID)
	if err := eligibility.Validate(req, &payer); err != nil {
		fmt.Println(err)
		return
	}
	built, err := eligibility.Build270(req, payer, eligibility.Build270Options{
		Numbers: &x12.SequentialControlNumbers{}, TraceID: "TRACE1",
		Now: time.Date(2024, 8, 1, 9, 30, 0, 0, time.UTC), Test: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(built.X12) > 0, built.Controls.Interchange)

	answer := "ST*271*0001*005010X279A1~BHT*0022*11*TRACE1*20240801*0930~HL*1**20*1~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~" +
		"HL*2*1*21*1~NM1*1P*2*PROVIDER NAME*****XX*1999999984~HL*3*2*22*0~NM1*IL*1*DOE*JANE****MI*UHC123456~" +
		"EB*C*IND*30***23*500*****Y~SE*10*0001~"
	resp, err := eligibility.Map271([]byte(answer))
	if err != nil {
		fmt.Println(err)
		return
	}
	b := resp.BenefitsInformation[0]
	fmt.Println(b.Name, b.CoverageLevel, b.ServiceTypes[0], b.TimeQualifier, b.BenefitAmount, b.InPlanNetworkIndicator)
	// Output:
	// true 000000001
	// Deductible Individual Health Benefit Plan Coverage Calendar Year 500 Yes
}

// Validation errors name the field by JSON pointer and say how to fix it.
func ExampleValidate() {
	req := &eligibility.Request{
		TradingPartnerServiceID: "CMS",
		Provider:                &eligibility.Provider{OrganizationName: "ACME", NPI: "1999999985"},
		Subscriber:              &eligibility.Subscriber{MemberID: "123-45-6789A"},
	}
	payer, _ := payers.Default().Lookup("CMS")
	var ve *eligibility.ValidationError
	if errors.As(eligibility.Validate(req, &payer), &ve) {
		for _, f := range ve.Fields {
			fmt.Println(f.Path)
		}
	}
	// Output:
	// /provider/npi
	// /subscriber/memberId
}
