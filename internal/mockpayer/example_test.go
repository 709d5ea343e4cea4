package mockpayer_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

func ExampleRequests() {
	for _, r := range mockpayer.Requests()[:3] {
		fmt.Printf("%d %s %s → %s\n", r.Row, r.Name, r.PayerName, r.Outcome)
	}
	fmt.Println(string(mockpayer.Requests()[5].RequestJSON()))
	// Output:
	// 1 aetna-dependent Aetna → active coverage
	// 2 anthem-ca-dependent Anthem Blue Cross California → active coverage
	// 3 bcbstx-dependent Blue Cross Blue Shield of Texas → active coverage
	// {"tradingPartnerServiceId":"87726","controlNumber":"123456789","provider":{"organizationName":"Provider Name","npi":"1999999984"},"subscriber":{"firstName":"John","lastName":"Doe","memberId":"UHC202649"},"dependents":[{"firstName":"Jane","lastName":"Doe","dateOfBirth":"19521121"}],"encounter":{"serviceTypeCodes":["30"]}}
}

func ExamplePayer_Exchange() {
	const x270 = "ISA*00*          *00*          *ZZ*SUBMITTER01    *ZZ*87726          *260301*1200*^*00501*000000001*0*T*:~" +
		"GS*HS*SUBMITTER01*87726*20260301*1200*1*X*005010X279A1~ST*270*0001*005010X279A1~BHT*0022*13*TRACE1*20260301*1200~" +
		"HL*1**20*1~NM1*PR*2*UHC*****PI*87726~HL*2*1*21*1~NM1*1P*2*CLINIC*****XX*1999999984~" +
		"HL*3*2*22*0~TRN*1*TRACE1*9SUBMITTER~NM1*IL*1*DOE*JANE****MI*UHCAAA75~DMG*D8*19900101~EQ*30~" +
		"SE*12*0001~GE*1*1~IEA*1*000000001~"
	m := mockpayer.New()
	x271, _ := m.Exchange(context.Background(), []byte(x270))
	for _, seg := range strings.Split(string(x271), "~") {
		if strings.HasPrefix(seg, "AAA") || strings.HasPrefix(seg, "TRN*2") {
			fmt.Println(seg)
		}
	}
	_, err := m.Exchange(context.Background(), []byte(strings.Replace(x270, "UHCAAA75", "XYZ123", 1)))
	fmt.Println(errors.Is(err, mockpayer.ErrNoMockMatch))
	// Output:
	// TRN*2*TRACE1*9SUBMITTER
	// AAA*Y**75*C
	// true
}
