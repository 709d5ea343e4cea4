package claims

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Parts of the hosted API's professional and institutional shapes that
// both write (and dental does not): repricing, provider secondary ids,
// other payers' provider ids, test results.

// Repricing is an HCP segment (2300 or 2400): what a repricer found. The
// professional shape names it claimPricingRepricingInformation /
// linePricingRepricingInformation, the institutional one
// claimPricingInformation / lineRepricingInformation with a few names of
// its own (repricedOrgIdentifier, repricedPerDiem, the approved DRG,
// revenue code, procedure and units).
type Repricing struct {
	PricingMethodologyCode                       string `json:"pricingMethodologyCode,omitempty"` // HCP01
	RepricedAllowedAmount                        string `json:"repricedAllowedAmount,omitempty"`  // HCP02
	RepricedSavingAmount                         string `json:"repricedSavingAmount,omitempty"`   // HCP03
	RepricingOrganizationIdentifier              string `json:"repricingOrganizationIdentifier,omitempty"`
	RepricedOrgIdentifier                        string `json:"repricedOrgIdentifier,omitempty"` // HCP04 (institutional name)
	RepricingPerDiemOrFlatRateAmount             string `json:"repricingPerDiemOrFlatRateAmount,omitempty"`
	RepricedPerDiem                              string `json:"repricedPerDiem,omitempty"` // HCP05 (institutional name)
	RepricedApprovedAmbulatoryPatientGroupCode   string `json:"repricedApprovedAmbulatoryPatientGroupCode,omitempty"`
	RepricedApprovedDRGCode                      string `json:"repricedApprovedDRGCode,omitempty"` // HCP06 (institutional name)
	RepricedApprovedAmbulatoryPatientGroupAmount string `json:"repricedApprovedAmbulatoryPatientGroupAmount,omitempty"`
	RepricedApprovedAmount                       string `json:"repricedApprovedAmount,omitempty"`      // HCP07 (institutional name)
	RepricedApprovedRevenueCode                  string `json:"repricedApprovedRevenueCode,omitempty"` // HCP08
	ProductOrServiceIDQualifier                  string `json:"productOrServiceIDQualifier,omitempty"` // HCP09
	RepricedApprovedHCPCSCode                    string `json:"repricedApprovedHCPCSCode,omitempty"`   // HCP10
	RepricedApprovedServiceUnitCode              string `json:"repricedApprovedServiceUnitCode,omitempty"`
	RepricedApprovedServiceUnitCount             string `json:"repricedApprovedServiceUnitCount,omitempty"`
	RejectReasonCode                             string `json:"rejectReasonCode,omitempty"`     // HCP13
	PolicyComplianceCode                         string `json:"policyComplianceCode,omitempty"` // HCP14
	ExceptionCode                                string `json:"exceptionCode,omitempty"`        // HCP15
}

// hcp writes an HCP segment; trailing empty elements are dropped by the
// writer.
func (b *segWriter) hcp(r *Repricing) {
	if r == nil {
		return
	}
	b.seg("HCP", r.PricingMethodologyCode, amount(r.RepricedAllowedAmount), amount(r.RepricedSavingAmount),
		cmpOr(r.RepricingOrganizationIdentifier, r.RepricedOrgIdentifier),
		amount(cmpOr(r.RepricingPerDiemOrFlatRateAmount, r.RepricedPerDiem)),
		cmpOr(r.RepricedApprovedAmbulatoryPatientGroupCode, r.RepricedApprovedDRGCode),
		amount(cmpOr(r.RepricedApprovedAmbulatoryPatientGroupAmount, r.RepricedApprovedAmount)),
		r.RepricedApprovedRevenueCode, r.ProductOrServiceIDQualifier, r.RepricedApprovedHCPCSCode,
		r.RepricedApprovedServiceUnitCode, trimZeroFraction(r.RepricedApprovedServiceUnitCount),
		r.RejectReasonCode, r.PolicyComplianceCode, r.ExceptionCode)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkRepricing checks an HCP's amounts and codes.
func checkRepricing(c *checker, p string, r *Repricing) {
	if r == nil {
		return
	}
	c.required(p+"/pricingMethodologyCode", r.PricingMethodologyCode, "the pricing methodology (HCP01), 00–14")
	c.oneOf(p+"/pricingMethodologyCode", r.PricingMethodologyCode, []string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14"}, "the pricing methodology codes")
	c.required(p+"/repricedAllowedAmount", r.RepricedAllowedAmount, "the repriced allowed amount (HCP02)")
	for _, a := range []struct{ name, v string }{{"repricedAllowedAmount", r.RepricedAllowedAmount}, {"repricedSavingAmount", r.RepricedSavingAmount},
		{"repricingPerDiemOrFlatRateAmount", r.RepricingPerDiemOrFlatRateAmount}, {"repricedPerDiem", r.RepricedPerDiem},
		{"repricedApprovedAmbulatoryPatientGroupAmount", r.RepricedApprovedAmbulatoryPatientGroupAmount}, {"repricedApprovedAmount", r.RepricedApprovedAmount}} {
		if a.v != "" {
			c.amount(p+"/"+a.name, a.v)
		}
	}
	c.oneOf(p+"/rejectReasonCode", r.RejectReasonCode, []string{"T1", "T2", "T3", "T4", "T5", "T6"}, "T1–T6")
	c.oneOf(p+"/policyComplianceCode", r.PolicyComplianceCode, []string{"1", "2", "3", "4", "5"}, "1–5")
	c.oneOf(p+"/exceptionCode", r.ExceptionCode, []string{"1", "2", "3", "4", "5", "6"}, "1–6")
	c.oneOf(p+"/repricedApprovedServiceUnitCode", r.RepricedApprovedServiceUnitCode, []string{"DA", "UN"}, "DA days, UN units")
	c.oneOf(p+"/productOrServiceIDQualifier", r.ProductOrServiceIDQualifier, []string{"ER", "HC", "HP", "IV", "WK"}, "ER, HC, HP, IV, WK")
	if r.RepricedApprovedHCPCSCode != "" && r.ProductOrServiceIDQualifier == "" {
		c.add(p+"/productOrServiceIDQualifier", "is required with repricedApprovedHCPCSCode (HCP09 qualifies HCP10): HC for a HCPCS/CPT code")
	}
}

// ProviderSecondaryID is one REF of a provider loop: the professional
// shape's secondaryIdentifier[] items and the institutional line
// providers' referenceIdentification[] items.
type ProviderSecondaryID struct {
	Qualifier       string `json:"qualifier,omitempty"`
	Identifier      string `json:"identifier,omitempty"`
	OtherIdentifier string `json:"otherIdentifier,omitempty"` // REF04-2 (with 2U): the other payer this id is for (2420x)
}

// ProviderSecondaryIDs is a provider's secondaryIdentifier: an array of
// {qualifier, identifier} in the professional shape, one string in the
// institutional one (its qualifier in secondaryIdentificationQualifierCode).
type ProviderSecondaryIDs struct {
	List []ProviderSecondaryID
	One  string
}

// UnmarshalJSON accepts either form.
func (s *ProviderSecondaryIDs) UnmarshalJSON(b []byte) error {
	*s = ProviderSecondaryIDs{}
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &s.One)
	case len(b) > 0 && b[0] == '[':
		return strictUnmarshal(b, &s.List)
	}
	return fmt.Errorf("want an array of {qualifier, identifier} or a string")
}

// MarshalJSON writes the form that was read.
func (s ProviderSecondaryIDs) MarshalJSON() ([]byte, error) {
	if s.One != "" {
		return json.Marshal(s.One)
	}
	return json.Marshal(s.List)
}

// secondaryRefs are a provider's REF segments beyond the named numbers:
// secondaryIdentifier (either form), referenceIdentification[] and the
// deprecated providerUpinNumber (REF*1G).
func (p *Provider) secondaryRefs() []ProviderSecondaryID {
	var out []ProviderSecondaryID
	if p.SecondaryIdentifier.One != "" {
		out = append(out, ProviderSecondaryID{Qualifier: cmpOr(p.SecondaryIdentificationQualifierCode, p.IdentificationQualifierCode), Identifier: p.SecondaryIdentifier.One})
	}
	out = append(out, p.SecondaryIdentifier.List...)
	out = append(out, p.ReferenceIdentification...)
	if p.ProviderUpinNumber != "" {
		out = append(out, ProviderSecondaryID{Qualifier: "1G", Identifier: p.ProviderUpinNumber})
	}
	return out
}

// checkProviderSecondary checks a provider's extra REFs against the
// qualifiers its loop takes.
func checkProviderSecondary(c *checker, p string, pr *Provider, allowed []string) {
	if pr == nil {
		return
	}
	if pr.SecondaryIdentifier.One != "" {
		q := cmpOr(pr.SecondaryIdentificationQualifierCode, pr.IdentificationQualifierCode)
		c.required(p+"/secondaryIdentificationQualifierCode", q, "the kind of secondaryIdentifier: "+joinCodes(allowed))
		c.oneOf(p+"/secondaryIdentificationQualifierCode", q, allowed, joinCodes(allowed))
		c.length(p+"/secondaryIdentifier", pr.SecondaryIdentifier.One, 1, 50)
	}
	for i, s := range pr.SecondaryIdentifier.List {
		at := fmt.Sprintf("%s/secondaryIdentifier/%d", p, i)
		c.oneOf(at+"/qualifier", s.Qualifier, allowed, joinCodes(allowed))
		c.required(at+"/identifier", s.Identifier, "the identifier")
		c.length(at+"/identifier", s.Identifier, 1, 50)
	}
	for i, s := range pr.ReferenceIdentification {
		at := fmt.Sprintf("%s/referenceIdentification/%d", p, i)
		c.oneOf(at+"/qualifier", s.Qualifier, allowed, joinCodes(allowed))
		c.required(at+"/identifier", s.Identifier, "the identifier")
		c.length(at+"/identifier", s.Identifier, 1, 50)
	}
}

func joinCodes(list []string) string {
	var b bytes.Buffer
	for i, s := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

// OtherPayerProvider is one of the 2330C–2330I loops of coordination of
// benefits: the provider's ids at the other payer (NM1 with the entity
// code only, then REFs). The contract names the identifier list after the
// role (otherPayerRenderingProviderSecondaryIdentifier,
// otherPayerBillingProviderIdentifier, …); every such name lands in IDs.
type OtherPayerProvider struct {
	EntityTypeQualifier string
	IDs                 []ProviderSecondaryID
}

// UnmarshalJSON reads entityTypeQualifier and the one identifier list,
// whatever its role's name; another field is refused, as the contract
// has none.
func (o *OtherPayerProvider) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*o = OtherPayerProvider{}
	for k, v := range m {
		switch {
		case k == "entityTypeQualifier":
			if err := json.Unmarshal(v, &o.EntityTypeQualifier); err != nil {
				return fmt.Errorf("entityTypeQualifier: %w", err)
			}
		case len(k) > len("otherPayer") && k[:len("otherPayer")] == "otherPayer":
			var ids []ProviderSecondaryID
			if err := strictUnmarshal(v, &ids); err != nil {
				return fmt.Errorf("%s: want an array of {qualifier, identifier}: %w", k, err)
			}
			o.IDs = append(o.IDs, ids...)
		default:
			return fmt.Errorf("%s is not a field of an other payer's provider (entityTypeQualifier and the identifier list)", k)
		}
	}
	return nil
}

// MarshalJSON writes the generic form (the stored request keeps the
// caller's bytes; this is for logs and tests).
func (o OtherPayerProvider) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"entityTypeQualifier": o.EntityTypeQualifier, "otherPayerProviderIdentifier": o.IDs})
}

// otherPayerProvider writes a 2330C–I loop.
func (b *segWriter) otherPayerProvider(entity, defaultType string, o *OtherPayerProvider) {
	if o == nil {
		return
	}
	b.seg("NM1", entity, cmpOr(o.EntityTypeQualifier, defaultType))
	for _, id := range o.IDs {
		b.seg("REF", id.Qualifier, id.Identifier)
	}
}

// checkOtherPayerProvider checks a 2330C–I loop: at least one id, the
// loop's qualifiers.
func checkOtherPayerProvider(c *checker, p string, o *OtherPayerProvider, allowed []string) {
	if o == nil {
		return
	}
	c.oneOf(p+"/entityTypeQualifier", o.EntityTypeQualifier, []string{"1", "2"}, "1 person, 2 organization")
	if len(o.IDs) == 0 {
		c.add(p, "needs at least one identifier {qualifier, identifier} (the loop's REF is required)")
	}
	for i, id := range o.IDs {
		at := fmt.Sprintf("%s/identifiers/%d", p, i)
		c.oneOf(at+"/qualifier", id.Qualifier, allowed, joinCodes(allowed))
		c.required(at+"/identifier", id.Identifier, "the identifier")
	}
}

// TestResult is a 2400 MEA: a measurement (height, hemoglobin, …).
type TestResult struct {
	MeasurementReferenceIdentificationCode string `json:"measurementReferenceIdentificationCode,omitempty"` // MEA01 OG TR
	MeasurementQualifier                   string `json:"measurementQualifier,omitempty"`                   // MEA02 HT R1–R4
	TestResults                            string `json:"testResults,omitempty"`                            // MEA03
}

// strictUnmarshal decodes b into v refusing names v does not have: a
// custom decoder's inner fields get the same treatment as the request's
// (the API's unknown-field warnings do not look inside custom decoders).
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
