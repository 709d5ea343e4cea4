package claimstatus

import (
	"strings"
	"testing"
)

func TestSentence(t *testing.T) {
	for _, tc := range []struct {
		st   Status
		want string
	}{
		{Status{"A7", "164", "IL"}, "Rejected for invalid information: the subscriber's contract/member number (A7:164:IL)"},
		{Status{"A2", "20", ""}, "Accepted for adjudication: accepted for processing (A2:20)"},
		{Status{"A1", "19", "PR"}, "Received: the payer acknowledges receipt of the claim (A1:19:PR)"},
		{Status{"A6", "562", "85"}, "Rejected for missing information: the billing provider's National Provider Identifier (NPI) (A6:562:85)"},
		{Status{"A8", "999", "QC"}, "Rejected: fields that disagree with each other: status code 999 about the patient (A8:999:QC)"},
		{Status{"Z9", "1", ""}, "Status category Z9: status code 1 (Z9:1)"},
	} {
		if got := tc.st.Sentence(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.st.Codes(), got, tc.want)
		}
	}
}

// A 277CA as the mock payer writes it: two claims, the second with line
// statuses that must not count as the claim's.
const ack277 = "ISA*00*          *00*          *ZZ*52133          *ZZ*CLEARHOUSE     *261124*0024*^*00501*000000007*0*T*:~" +
	"GS*HN*52133*CLEARHOUSE*20261124*0024*7*X*005010X214~ST*277*0001*005010X214~BHT*0085*08*MOCK1*20261124*0024*TH~" +
	"HL*1**20*1~NM1*PR*2*PAYER*****PI*52133~TRN*1*MOCK1~DTP*050*D8*20261124~DTP*009*D8*20261124~" +
	"HL*2*1*21*1~NM1*41*2*SUNRISE*****46*1~TRN*2*B1~STC*A1:19:PR*20261124*WQ*245~" +
	"HL*3*2*19*1~NM1*85*2*SUNRISE*****XX*1999999992~TRN*1*B1~" +
	"HL*4*3*PT~NM1*QC*1*DOE*JOHN****MI*123~TRN*2*PCN-1~STC*A2:20*20261124*WQ*245~REF*1K*PAYER1~REF*D9*CLAIM1~" +
	"HL*5*3*PT~NM1*QC*1*DOE*JOHN****MI*REJECT0001~TRN*2*PCN-2~STC*A7:164:IL*20261124*U*245~" +
	"SVC*AD:D0120*65*****1~STC*A2:20*20261124~REF*FJ*L1~SE*20*0001~GE*1*7~IEA*1*000000007~"

func TestRead277(t *testing.T) {
	facts, err := read277(strings.NewReader(ack277))
	if err != nil {
		t.Fatal(err)
	}
	if len(facts) != 2 {
		t.Fatalf("claims: %+v", facts)
	}
	a, r := facts[0], facts[1]
	if a.PCN != "PCN-1" || a.ClaimID != "CLAIM1" || a.PayerClaim != "PAYER1" || len(a.Statuses) != 1 || a.Statuses[0].Codes() != "A2:20" {
		t.Errorf("accepted claim: %+v", a)
	}
	if out, _ := judge("277CA", []claimFact{a}); out != Accepted {
		t.Errorf("accepted claim judged %s", out)
	}
	if r.PCN != "PCN-2" || len(r.Statuses) != 1 || r.Statuses[0].Codes() != "A7:164:IL" {
		t.Errorf("rejected claim (its line's STC must not count): %+v", r)
	}
	if out, _ := judge("277CA", []claimFact{r}); out != Rejected {
		t.Errorf("rejected claim judged %s", out)
	}
}

// A 999 of the 837s of group 41: set 0001 accepted, 0002 rejected.
const file999 = "ISA*00*          *00*          *ZZ*52133          *ZZ*CLEARHOUSE     *261124*0024*^*00501*000000008*0*T*:~" +
	"GS*FA*52133*CLEARHOUSE*20261124*0024*8*X*005010X231A1~ST*999*0001*005010X231A1~AK1*HC*41*005010X224A2~" +
	"AK2*837*0001*005010X224A2~IK5*A~AK2*837*0002*005010X224A2~IK3*CLM*22**8~IK5*R*5~AK9*P*2*2*1~SE*9*0001~GE*1*8~IEA*1*000000008~"

func TestRead999And835(t *testing.T) {
	acks, err := read999(strings.NewReader(file999))
	if err != nil || len(acks) != 2 || acks[0] != (ack999{"41", "837", "0001", "A"}) || acks[1] != (ack999{"41", "837", "0002", "R"}) {
		t.Fatalf("999: %+v %v", acks, err)
	}
	facts, err := read835(strings.NewReader("ISA*00*          *00*          *ZZ*52133          *ZZ*CLEARHOUSE     *261124*0024*^*00501*000000009*0*T*:~" +
		"GS*HP*52133*CLEARHOUSE*20261124*0024*9*X*005010X221A1~ST*835*0001~CLP*PCN-1*1*245*200*45*12*P1~CLP*PCN-2*4*100*0*0*12*P2~SE*4*0001~GE*1*9~IEA*1*000000009~"))
	if err != nil || len(facts) != 2 {
		t.Fatalf("835: %+v %v", facts, err)
	}
	if out, d := judge("835", facts[:1]); out != Paid || d.Paid != "200" || d.PatientShare != "45" || d.PayerClaimNumber != "P1" {
		t.Errorf("paid: %s %+v", out, d)
	}
	if out, _ := judge("835", facts[1:2]); out != Denied {
		t.Errorf("denied: %s", out)
	}
}
