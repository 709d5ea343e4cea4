package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// ScenarioFile is the members as a scenario file: each member's plan (a
// deductible partly met) and the outcome of its claims.
func (d *Data) ScenarioFile() ([]byte, error) {
	pat := IDPatterns[d.Options.PayerID]
	stc := "30"
	if pat.Dental {
		stc = "35"
	}
	year := d.Options.Today.Year()
	var scs []map[string]any
	for i, m := range d.Members {
		ded := int64(250 * (1 + i%10))
		met := (ded * int64((i*37)%100) / 100)
		rem := map[string]any{"outcome": m.Outcome}
		if m.Outcome == "denied" {
			rem["carc"] = "197"
			rem["rarc"] = []string{"N54"}
		}
		scs = append(scs, map[string]any{
			"name":  fmt.Sprintf("gen-%d-%03d", d.Options.Seed, i),
			"match": map[string]any{"payerId": d.Options.PayerID, "memberId": m.MemberID},
			"eligibility": map[string]any{"benefits": map[string]any{
				"planName": "SYNTHETIC PPO", "coverageBegin": fmt.Sprintf("%d0101", year), "coverageEnd": fmt.Sprintf("%d1231", year),
				"serviceTypeCodes": []string{stc},
				"deductibles":      []map[string]any{{"serviceTypeCode": stc, "amount": strconv.FormatInt(ded, 10), "remaining": strconv.FormatInt(ded-met, 10)}},
			}},
			"claim": map[string]any{"remittance": rem},
		})
	}
	return indent(map[string]any{"_comment": fmt.Sprintf("synthetic members (clearhouse mockpayer generate --seed %d); no real person", d.Options.Seed),
		"scenarios": scs})
}

// DentalClaims are claim requests (POST /2024-04-01/dental-claims/submission),
// one per member, by file name; an error for a medical payer.
func (d *Data) DentalClaims() (map[string][]byte, error) {
	if !IDPatterns[d.Options.PayerID].Dental {
		return nil, fmt.Errorf("generate: payer %s is not a dental payer; claim files are dental claims", d.Options.PayerID)
	}
	out := map[string][]byte{}
	date := d.Options.Today.AddDate(0, 0, -7).Format("20060102")
	for i, m := range d.Members {
		var lines []map[string]any
		var total int64
		for j, p := range m.Procedures {
			total += m.ChargeCents[j]
			lines = append(lines, map[string]any{
				"serviceDate":           date,
				"providerControlNumber": fmt.Sprintf("L%d", j+1),
				"dentalService": map[string]any{"procedureCode": p, "lineItemChargeAmount": cents(m.ChargeCents[j]),
					"placeOfServiceCode": "11", "procedureCount": 1,
					"compositeDiagnosisCodePointers": map[string]any{"diagnosisCodePointers": []string{"1"}}},
			})
		}
		claim := map[string]any{
			"usageIndicator": "T", "tradingPartnerServiceId": d.Options.PayerID,
			"subscriber": map[string]any{"paymentResponsibilityLevelCode": "P", "memberId": m.MemberID, "firstName": m.FirstName,
				"lastName": m.LastName, "gender": m.Gender, "dateOfBirth": m.DateOfBirth,
				"address": map[string]any{"address1": "100 Main St", "city": "Springfield", "state": "IL", "postalCode": "62701"}},
			"submitter": map[string]any{"organizationName": "Synthetic Dental", "submitterIdentification": "1234567",
				"contactInformation": map[string]any{"phoneNumber": "5555550100", "name": "BILLING"}},
			"receiver": map[string]any{"organizationName": "Mock Payer"},
			"billing": map[string]any{"providerType": "BillingProvider", "organizationName": "Synthetic Dental", "npi": "1999999992",
				"taxonomyCode": "1223G0001X", "employerId": "123456789",
				"address": map[string]any{"address1": "1 Clinic Way", "city": "Springfield", "state": "IL", "postalCode": "627010000"}},
			"claimInformation": map[string]any{
				"patientControlNumber": fmt.Sprintf("G%d-%03d", d.Options.Seed, i), "claimChargeAmount": cents(total),
				"placeOfServiceCode": "11", "claimFrequencyCode": "1", "claimFilingCode": "CI", "signatureIndicator": "Y",
				"releaseInformationCode": "Y", "planParticipationCode": "A", "benefitsAssignmentCertificationIndicator": "Y",
				"healthCareCodeInformation": []map[string]any{{"diagnosisTypeCode": "ABK", "diagnosisCode": m.Diagnosis}},
				"serviceLines":              lines,
			},
		}
		b, err := indent(claim)
		if err != nil {
			return nil, err
		}
		out[fmt.Sprintf("claim-%03d.json", i)] = b
	}
	return out, nil
}

func cents(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

func indent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
