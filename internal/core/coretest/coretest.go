// Package coretest helps tests of the EDI core: generated 835 files and a
// trading-partner setup that receives them.
package coretest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Gen835 builds an 835 file: one interchange from PAYERSENDER to CLINICRECV,
// one functional group per entry of groups, each holding that many
// transaction sets; every set pays claims claim payments (balanced: BPR02 =
// ΣCLP04). corrupt names a set (1-based over the file) whose first claim
// gets a bad claim status code, or 0.
func Gen835(groups []int, claims int, corrupt int) string {
	var b strings.Builder
	seg := func(s string) { b.WriteString(s + "~\n") }
	seg("ISA*00*          *00*          *ZZ*PAYERSENDER    *ZZ*CLINICRECV     *240102*0304*^*00501*000000101*1*T*:")
	set := 0
	for gi, n := range groups {
		seg(fmt.Sprintf("GS*HP*PAYERSENDER*CLINICRECV*20240102*0304*%d*X*005010X221A1", gi+1))
		for range n {
			set++
			body := []string{
				fmt.Sprintf("BPR*I*%d.00*C*ACH*CCP*01*888999777*DA*24681012*1935665544**01*111333555*DA*144444*20240102", 450*claims),
				fmt.Sprintf("TRN*1*TRACE%04d*1935665544", set),
				"DTM*405*20240102",
				"N1*PR*RUSHMORE LIFE", "N3*10 SOUTH AVENUE", "N4*RAPID CITY*SD*55111", "PER*BL*PROVIDER SERVICE",
				"N1*PE*ACME MEDICAL CENTER*XX*1003814971", "REF*TJ*777667755",
				"LX*1",
			}
			for c := range claims {
				status := "1"
				if set == corrupt && c == 0 {
					status = "Q9" // not a claim status code
				}
				body = append(body,
					fmt.Sprintf("CLP*PCN%d-%05d*%s*800.00*450.00*300.00*12*94060555410000", set, c, status),
					"CAS*CO*A2*50.00",
					"NM1*QC*1*BUDD*WILLIAM****MI*33344555510",
					"SVC*HC:99211*800.00*500.00",
					"DTM*150*20020301", "DTM*151*20020304",
					"CAS*PR*1*300.00")
			}
			control := fmt.Sprintf("%04d", set)
			seg("ST*835*" + control)
			for _, s := range body {
				seg(s)
			}
			seg(fmt.Sprintf("SE*%d*%s", len(body)+2, control))
		}
		seg(fmt.Sprintf("GE*%d*%d", n, gi+1))
	}
	seg(fmt.Sprintf("IEA*%d*000000101", len(groups)))
	return b.String()
}

// Partnership ids of SetupPartners.
const (
	PartnershipID = "clinic_payer"
	SettingID     = "era-in"
)

// SetupPartners gives account (mode) a local profile ZZ/CLINICRECV, a
// partner profile ZZ/PAYERSENDER, their partnership and an inbound 835
// setting with fragments of claim payments (800 per fragment) and 999s.
func SetupPartners(ctx context.Context, st store.Partners, account, mode string) (store.TransactionSetting, error) {
	now := time.Now()
	if err := st.CreateProfile(ctx, store.Profile{ID: "clinic", AccountID: account, Mode: mode, Type: store.ProfileLocal,
		ISAQualifier: "ZZ", ISAID: "CLINICRECV", ApplicationCode: "CLINICRECV", CreatedAt: now}); err != nil {
		return store.TransactionSetting{}, err
	}
	if err := st.CreateProfile(ctx, store.Profile{ID: "payer", AccountID: account, Mode: mode, Type: store.ProfilePartner,
		ISAQualifier: "ZZ", ISAID: "PAYERSENDER", ApplicationCode: "PAYERSENDER", CreatedAt: now}); err != nil {
		return store.TransactionSetting{}, err
	}
	if err := st.CreatePartnership(ctx, store.Partnership{ID: PartnershipID, AccountID: account, Mode: mode,
		Type: store.PartnershipTypeX12, LocalProfileID: "clinic", PartnerProfileID: "payer", CreatedAt: now}); err != nil {
		return store.TransactionSetting{}, err
	}
	s := store.TransactionSetting{ID: SettingID, AccountID: account, Mode: mode, PartnershipID: PartnershipID,
		Direction: store.DirectionInbound, GuideID: "005010X221A1", TransactionSetIdentifier: "835",
		FragmentsEnabled: true, FragmentsBatchSize: 800, FragmentsKeyName: "claim_payment_information_CLP_loop",
		Ack999: true, CreatedAt: now}
	return s, st.CreateTransactionSetting(ctx, s)
}
