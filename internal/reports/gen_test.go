package reports

import (
	"fmt"
	"io"
)

// write835 writes one 835 transaction set paying claims claims, each with
// two service lines (one paid with a CO-45 reduction and a deductible, one
// denied with CO-16 and RARC N290), balanced: BPR02 is the sum of CLP04.
func write835(w io.Writer, claims int) error {
	var err error
	p := func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format+"~\n", a...)
		}
	}
	p("ISA*00*          *00*          *ZZ*MOCKPAYER      *ZZ*CLEARHOUSE     *241126*1200*^*00501*000000001*0*T*:")
	p("GS*HP*MOCKPAYER*CLEARHOUSE*20241126*1200*1*X*005010X221A1")
	p("ST*835*0001")
	p("BPR*I*%d.00*C*ACH*CCP*01*888999777*DA*11111111*1512345678**01*111333555*DA*144444*20241127", 60*claims)
	p("TRN*1*EFT20241127*1512345678")
	p("DTM*405*20241126")
	p("N1*PR*MOCK DENTAL PAYER")
	p("N3*1 PAYER WAY")
	p("N4*AUSTIN*TX*787010001")
	p("PER*BL*EDI SUPPORT*TE*8005551212")
	p("N1*PE*SMILE DENTAL GROUP*XX*1999999984")
	p("REF*TJ*123456789")
	p("LX*1")
	segs := 13
	for i := 0; i < claims; i++ {
		p("CLP*PCN%07d*1*180*60*30*12*ICN%010d*11*1", i, i)
		p("NM1*QC*1*DOE*JANE****MI*MEMBER%05d", i%100000)
		p("DTM*050*20241120")
		p("SVC*AD:D0120*100*60**1")
		p("DTM*472*20241118")
		p("CAS*CO*45*10")
		p("CAS*PR*1*30")
		p("REF*6R*LINE%d-1", i)
		p("AMT*B6*90")
		p("SVC*AD:D1110*80*0**1")
		p("DTM*472*20241118")
		p("CAS*CO*16*80")
		p("REF*6R*LINE%d-2", i)
		p("LQ*HE*N290")
		segs += 14
	}
	p("PLB*1999999984*20241231*WO:ICN0000000001*-15.00")
	p("SE*%d*0001", segs+2)
	p("GE*1*1")
	p("IEA*1*000000001")
	return err
}
