package x12gen

import (
	"math/rand/v2"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// remittances writes 835 sets: one payment (BPR) to one payee, then one
// LX header number and per claim payment a CLP with the patient, one or
// two service lines and their adjustments. A payer's week of remittances
// for a hospital is one set like this, of any size. The payment total is
// fixed in the BPR before the claims are known, so the set's PLB carries
// the difference: BPR02 = ΣCLP04 − PLB04, as the guide's balance rule wants.
type remittances struct{ paid int64 }

// remitPayment is BPR02 of every generated 835, in cents.
const remitPayment = 100000

func (*remittances) functionalID() string { return "HP" }
func (*remittances) version() string      { return "005010X221A1" }
func (*remittances) setID() string        { return "835" }

// implementationRef is empty: the 835 guide leaves ST03 unused.
func (*remittances) implementationRef() string { return "" }

func (r *remittances) header(iw *x12.InterchangeWriter, _ *rand.Rand, set int) error {
	r.paid = 0
	return writeAll(iw, [][]string{
		{"BPR", "I", cents(remitPayment), "C", "ACH", "CCP", "01", "888999777", "DA", "11111111", "1512345678", "", "01", "111333555", "DA", "144444", "20240103"},
		{"TRN", "1", "EFT" + strconv.Itoa(100000+set), "1512345678"},
		{"DTM", "405", "20240102"},
		{"N1", "PR", "GENERATED PAYER"},
		{"N3", "1 PAYER WAY"},
		{"N4", "AUSTIN", "TX", "787010001"},
		{"PER", "BL", "EDI DESK", "TE", "5555550100"},
		{"N1", "PE", "SYNTHETIC HOSPITAL " + strconv.Itoa(set%97), "XX", NPI(uint64(set) * 7919)},
		{"REF", "TJ", "99" + strconv.Itoa(1000000+set%9000000)},
		{"LX", "1"},
	})
}

func (r *remittances) item(iw *x12.InterchangeWriter, rng *rand.Rand, n int) error {
	lines := 1 + rng.IntN(2)
	charge, paid := 0, 0
	var c, p [2]int
	for i := range lines {
		c[i] = 2500 + rng.IntN(40000)
		p[i] = c[i] * (50 + rng.IntN(50)) / 100
		charge, paid = charge+c[i], paid+p[i]
	}
	r.paid += int64(paid)
	if err := writeAll(iw, [][]string{
		{"CLP", "C" + strconv.Itoa(n), "1", cents(charge), cents(paid), "", "12", "ICN" + strconv.Itoa(1000000000+n), "11", "1"},
		{"NM1", "QC", "1", pick(rng, lastNames), pick(rng, firstNames), "", "", "", "MI", "MBR" + strconv.Itoa(100000000+n)},
	}); err != nil {
		return err
	}
	for i := range lines {
		if err := iw.WriteSegmentFields("SVC", x12.Composite("HC", pick(rng, procedures)), x12.Simple(cents(c[i])),
			x12.Simple(cents(p[i])), x12.Simple(""), x12.Simple("1")); err != nil {
			return err
		}
		if err := writeAll(iw, [][]string{
			{"DTM", "472", "2024010" + strconv.Itoa(1+i%9)},
			{"CAS", "CO", "45", cents(c[i] - p[i])},
		}); err != nil {
			return err
		}
	}
	return nil
}

// trailer balances the payment: the PLB takes what the claims paid beyond
// BPR02 (a negative adjustment when they paid less).
func (r *remittances) trailer(iw *x12.InterchangeWriter) error {
	return iw.WriteSegmentFields("PLB", x12.Simple("1512345678"), x12.Simple("20241231"),
		x12.Composite("WO", "GEN"), x12.Simple(signedCents(r.paid-remitPayment)))
}

func signedCents(c int64) string {
	if c < 0 {
		return "-" + cents(int(-c))
	}
	return cents(int(c))
}
