package claims

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// The parties and parts every claim type shares (837D, 837P, 837I): who
// sends and receives, the subscriber and patient, providers, addresses,
// contacts, attachments and coordination of benefits. Their JSON names are
// the same in the hosted API's dental, professional and institutional
// shapes.

// SecondaryIdentifier is a qualified extra identifier (REF01/REF02).
type SecondaryIdentifier struct {
	Qualifier       string `json:"qualifier"`
	Identifier      string `json:"identifier"`
	OtherIdentifier string `json:"otherIdentifier,omitempty"` // deprecated in the contract; not sent
}

// PayerSecondaryIDs is tradingPartnerSecondaryIdentifiers: the payer's
// 2010BB REFs. The hosted API sends an object of named ids
// ({payerIdentificationNumber, employerIdentificationNumber,
// claimOfficeNumber, naic}: REF*2U, EI, FY, NF); our first dental release
// took an array of {qualifier, identifier}, which is still read.
type PayerSecondaryIDs []SecondaryIdentifier

// UnmarshalJSON reads the contract's object or the array.
func (p *PayerSecondaryIDs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []SecondaryIdentifier
		err := strictUnmarshal(b, &list)
		*p = list
		return err
	}
	if bytes.Equal(b, []byte("null")) {
		*p = nil
		return nil
	}
	var o struct {
		PayerIdentificationNumber    string `json:"payerIdentificationNumber"`
		EmployerIdentificationNumber string `json:"employerIdentificationNumber"`
		ClaimOfficeNumber            string `json:"claimOfficeNumber"`
		NAIC                         string `json:"naic"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // the object has four names; a fifth would be lost
	if err := dec.Decode(&o); err != nil {
		return fmt.Errorf("want {payerIdentificationNumber, employerIdentificationNumber, claimOfficeNumber, naic}: %w", err)
	}
	*p = nil
	for _, q := range [][2]string{{"2U", o.PayerIdentificationNumber}, {"EI", o.EmployerIdentificationNumber}, {"FY", o.ClaimOfficeNumber}, {"NF", o.NAIC}} {
		if q[1] != "" {
			*p = append(*p, SecondaryIdentifier{Qualifier: q[0], Identifier: q[1]})
		}
	}
	return nil
}

// ContactInformation is a PER segment's contact.
type ContactInformation struct {
	Name           string `json:"name,omitempty"`
	PhoneNumber    string `json:"phoneNumber,omitempty"`
	PhoneExtension string `json:"phoneExtension,omitempty"`
	FaxNumber      string `json:"faxNumber,omitempty"`
	Email          string `json:"email,omitempty"`
	// ValidContact is deprecated in the contract and has no 837 element;
	// it is read and not written.
	ValidContact *bool `json:"validContact,omitempty"`
}

// Address is a ClaimsAddress (N3/N4).
type Address struct {
	Address1               string `json:"address1,omitempty"`
	Address2               string `json:"address2,omitempty"`
	City                   string `json:"city,omitempty"`
	State                  string `json:"state,omitempty"`
	PostalCode             string `json:"postalCode,omitempty"`
	CountryCode            string `json:"countryCode,omitempty"`
	CountrySubDivisionCode string `json:"countrySubDivisionCode,omitempty"`
}

// Submitter is loop 1000A.
type Submitter struct {
	OrganizationName        string              `json:"organizationName,omitempty"`
	LastName                string              `json:"lastName,omitempty"`
	FirstName               string              `json:"firstName,omitempty"`
	MiddleName              string              `json:"middleName,omitempty"`
	SubmitterIdentification string              `json:"submitterIdentification,omitempty"`
	TaxID                   string              `json:"taxId,omitempty"` // institutional: 1000A NM109 when submitterIdentification is empty
	ContactInformation      *ContactInformation `json:"contactInformation,omitempty"`
}

// Receiver is loop 1000B.
type Receiver struct {
	OrganizationName string `json:"organizationName,omitempty"`
	// ReceiverID is the contract's "PAPER" (print and mail the claim),
	// which we do not do: refused, never ignored.
	ReceiverID string `json:"receiverId,omitempty"`
	TaxID      string `json:"taxId,omitempty"` // institutional: the receiver's ETIN, 1000B NM109
}

// Provider is every provider object of the request: billing (2010AA),
// rendering (2310B), referring (2310A), supervising (2310E), assistant
// surgeon (2310D) and their service-line counterparts (2420A–C).
// ProviderType names the role and is ignored, as in the contract.
type Provider struct {
	ProviderType              string              `json:"providerType,omitempty"`
	NPI                       string              `json:"npi,omitempty"`
	EmployerID                string              `json:"employerId,omitempty"`
	SSN                       string              `json:"ssn,omitempty"`
	OrganizationName          string              `json:"organizationName,omitempty"`
	LastName                  string              `json:"lastName,omitempty"`
	FirstName                 string              `json:"firstName,omitempty"`
	MiddleName                string              `json:"middleName,omitempty"`
	Suffix                    string              `json:"suffix,omitempty"`
	TaxonomyCode              string              `json:"taxonomyCode,omitempty"`
	StateLicenseNumber        string              `json:"stateLicenseNumber,omitempty"`
	CommercialNumber          string              `json:"commercialNumber,omitempty"`
	LocationNumber            string              `json:"locationNumber,omitempty"`
	ClaimOfficeNumber         string              `json:"claimOfficeNumber,omitempty"`
	NAIC                      string              `json:"naic,omitempty"`
	PayerIdentificationNumber string              `json:"payerIdentificationNumber,omitempty"`
	Address                   *Address            `json:"address,omitempty"`
	ContactInformation        *ContactInformation `json:"contactInformation,omitempty"`
	// The contract's further ids: employerIdentificationNumber is
	// employerId's other name; providerUpinNumber (deprecated) is REF*1G;
	// secondaryIdentifier is an array (professional) or one string with
	// its qualifier (institutional); referenceIdentification[] is the
	// institutional line providers' list.
	EmployerIdentificationNumber         string                `json:"employerIdentificationNumber,omitempty"`
	ProviderUpinNumber                   string                `json:"providerUpinNumber,omitempty"`
	OtherIdentifier                      string                `json:"otherIdentifier,omitempty"` // deprecated in the contract, no 837 element: refused when sent
	SecondaryIdentificationQualifierCode string                `json:"secondaryIdentificationQualifierCode,omitempty"`
	IdentificationQualifierCode          string                `json:"identificationQualifierCode,omitempty"` // the institutional line physicians' name for it
	SecondaryIdentifier                  ProviderSecondaryIDs  `json:"secondaryIdentifier,omitzero"`
	ReferenceIdentification              []ProviderSecondaryID `json:"referenceIdentification,omitempty"`
}

// PayToPlan is loop 2010AC (subrogation).
type PayToPlan struct {
	OrganizationName            string   `json:"organizationName,omitempty"`
	PrimaryIdentifierTypeCode   string   `json:"primaryIdentifierTypeCode,omitempty"` // PI or XV
	PrimaryIdentifier           string   `json:"primaryIdentifier,omitempty"`
	SecondaryIdentifierTypeCode string   `json:"secondaryIdentifierTypeCode,omitempty"` // 2U, FY, NF
	SecondaryIdentifier         string   `json:"secondaryIdentifier,omitempty"`
	TaxIdentificationNumber     string   `json:"taxIdentificationNumber,omitempty"`
	Address                     *Address `json:"address,omitempty"`
}

// Subscriber is loop 2000B/2010BA.
type Subscriber struct {
	MemberID                       string   `json:"memberId,omitempty"`
	SSN                            string   `json:"ssn,omitempty"`
	PaymentResponsibilityLevelCode string   `json:"paymentResponsibilityLevelCode,omitempty"`
	InsuranceTypeCode              string   `json:"insuranceTypeCode,omitempty"`
	OrganizationName               string   `json:"organizationName,omitempty"`
	FirstName                      string   `json:"firstName,omitempty"`
	LastName                       string   `json:"lastName,omitempty"`
	MiddleName                     string   `json:"middleName,omitempty"`
	Suffix                         string   `json:"suffix,omitempty"`
	Gender                         string   `json:"gender,omitempty"`
	DateOfBirth                    string   `json:"dateOfBirth,omitempty"`
	GroupNumber                    string   `json:"groupNumber,omitempty"`
	PolicyNumber                   string   `json:"policyNumber,omitempty"`
	SubscriberGroupName            string   `json:"subscriberGroupName,omitempty"`
	Address                        *Address `json:"address,omitempty"`
	// ContactInformation is 2010BA PER (property and casualty claims).
	ContactInformation *ContactInformation `json:"contactInformation,omitempty"`
	StandardHealthID   string              `json:"standardHealthId,omitempty"` // deprecated alias of memberId
}

// Dependent is the patient when not the subscriber (2000C/2010CA).
type Dependent struct {
	FirstName                    string   `json:"firstName,omitempty"`
	LastName                     string   `json:"lastName,omitempty"`
	MiddleName                   string   `json:"middleName,omitempty"`
	Suffix                       string   `json:"suffix,omitempty"`
	Gender                       string   `json:"gender,omitempty"`
	DateOfBirth                  string   `json:"dateOfBirth,omitempty"`
	RelationshipToSubscriberCode string   `json:"relationshipToSubscriberCode,omitempty"`
	MemberID                     string   `json:"memberId,omitempty"` // property and casualty only
	SSN                          string   `json:"ssn,omitempty"`      // property and casualty only
	Address                      *Address `json:"address,omitempty"`
	// ContactInformation is 2010CA PER (property and casualty claims).
	ContactInformation *ContactInformation `json:"contactInformation,omitempty"`
}

// ReportInformation is an attachment (PWK).
type ReportInformation struct {
	AttachmentReportTypeCode   string `json:"attachmentReportTypeCode,omitempty"`
	AttachmentTransmissionCode string `json:"attachmentTransmissionCode,omitempty"`
	AttachmentControlNumber    string `json:"attachmentControlNumber,omitempty"`
	// AttachmentID names an attachment uploaded to the hosted API's
	// attachments service; we have none, so it is refused with a pointer
	// to attachmentControlNumber.
	AttachmentID string `json:"attachmentId,omitempty"`
}

// ContractInformation is a CN1 segment.
type ContractInformation struct {
	ContractTypeCode          string `json:"contractTypeCode,omitempty"`
	ContractAmount            string `json:"contractAmount,omitempty"`
	ContractPercentage        string `json:"contractPercentage,omitempty"`
	ContractCode              string `json:"contractCode,omitempty"`
	TermsDiscountPercentage   string `json:"termsDiscountPercentage,omitempty"`
	ContractVersionIdentifier string `json:"contractVersionIdentifier,omitempty"`
}

// ServiceFacility is loop 2310C (claim) or 2420D (line).
type ServiceFacility struct {
	OrganizationName    string                `json:"organizationName,omitempty"`
	NPI                 string                `json:"npi,omitempty"`
	Address             *Address              `json:"address,omitempty"`
	PhoneNumber         string                `json:"phoneNumber,omitempty"`
	PhoneExtension      string                `json:"phoneExtension,omitempty"`
	PhoneName           string                `json:"phoneName,omitempty"` // PER02
	SecondaryIdentifier []SecondaryIdentifier `json:"secondaryIdentifier,omitempty"`
}

// OtherSubscriberInformation is loop 2320 with 2330A/B (coordination of
// benefits).
type OtherSubscriberInformation struct {
	PaymentResponsibilityLevelCode           string               `json:"paymentResponsibilityLevelCode,omitempty"`
	IndividualRelationshipCode               string               `json:"individualRelationshipCode,omitempty"`
	InsuranceGroupOrPolicyNumber             string               `json:"insuranceGroupOrPolicyNumber,omitempty"`
	OtherInsuredGroupName                    string               `json:"otherInsuredGroupName,omitempty"`
	InsuranceTypeCode                        string               `json:"insuranceTypeCode,omitempty"`
	ClaimFilingIndicatorCode                 string               `json:"claimFilingIndicatorCode,omitempty"`
	BenefitsAssignmentCertificationIndicator string               `json:"benefitsAssignmentCertificationIndicator,omitempty"`
	ReleaseOfInformationCode                 string               `json:"releaseOfInformationCode,omitempty"`
	PayerPaidAmount                          string               `json:"payerPaidAmount,omitempty"`
	NonCoveredChargeAmount                   string               `json:"nonCoveredChargeAmount,omitempty"`
	RemainingPatientLiability                string               `json:"remainingPatientLiability,omitempty"`
	ClaimLevelAdjustments                    []ClaimAdjustment    `json:"claimLevelAdjustments,omitempty"`
	OtherSubscriberName                      *OtherSubscriberName `json:"otherSubscriberName,omitempty"`
	OtherPayerName                           *OtherPayerName      `json:"otherPayerName,omitempty"`
}

// ClaimAdjustment is a CAS segment: a group code and up to six reasons.
type ClaimAdjustment struct {
	AdjustmentGroupCode string             `json:"adjustmentGroupCode,omitempty"`
	AdjustmentDetails   []AdjustmentDetail `json:"adjustmentDetails,omitempty"`
}

// AdjustmentDetail is one reason of a CAS.
type AdjustmentDetail struct {
	AdjustmentReasonCode string `json:"adjustmentReasonCode,omitempty"`
	AdjustmentAmount     string `json:"adjustmentAmount,omitempty"`
	AdjustmentQuantity   string `json:"adjustmentQuantity,omitempty"`
}

// OtherSubscriberName is loop 2330A.
type OtherSubscriberName struct {
	OtherInsuredQualifier             string   `json:"otherInsuredQualifier,omitempty"` // 1 person, 2 organization
	OtherInsuredLastName              string   `json:"otherInsuredLastName,omitempty"`
	OtherInsuredFirstName             string   `json:"otherInsuredFirstName,omitempty"`
	OtherInsuredMiddleName            string   `json:"otherInsuredMiddleName,omitempty"`
	OtherInsuredNameSuffix            string   `json:"otherInsuredNameSuffix,omitempty"`
	OtherInsuredIdentifierTypeCode    string   `json:"otherInsuredIdentifierTypeCode,omitempty"` // MI or II
	OtherInsuredIdentifier            string   `json:"otherInsuredIdentifier,omitempty"`
	OtherInsuredAdditionalIdentifiers []string `json:"otherInsuredAdditionalIdentifiers,omitempty"` // SSN
	OtherInsuredAddress               *Address `json:"otherInsuredAddress,omitempty"`
}

// OtherPayerName is loop 2330B.
type OtherPayerName struct {
	OtherPayerOrganizationName                   string                `json:"otherPayerOrganizationName,omitempty"`
	OtherPayerIdentifierTypeCode                 string                `json:"otherPayerIdentifierTypeCode,omitempty"` // PI or XV
	OtherPayerIdentifier                         string                `json:"otherPayerIdentifier,omitempty"`
	OtherPayerAddress                            *Address              `json:"otherPayerAddress,omitempty"`
	OtherPayerAdjudicationOrPaymentDate          string                `json:"otherPayerAdjudicationOrPaymentDate,omitempty"`
	OtherPayerSecondaryIdentifier                []SecondaryIdentifier `json:"otherPayerSecondaryIdentifier,omitempty"`
	OtherPayerPriorAuthorizationNumber           string                `json:"otherPayerPriorAuthorizationNumber,omitempty"`
	OtherPayerPriorAuthorizationOrReferralNumber string                `json:"otherPayerPriorAuthorizationOrReferralNumber,omitempty"`
	OtherPayerClaimAdjustmentIndicator           bool                  `json:"otherPayerClaimAdjustmentIndicator,omitempty"`
	OtherPayerClaimControlNumber                 string                `json:"otherPayerClaimControlNumber,omitempty"`
}

func stringOrList(raw json.RawMessage, name string) ([]string, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err != nil {
		return nil, fmt.Errorf("%s: want a string or an array of strings", name)
	}
	return []string{one}, nil
}

// Count is a number sent as a JSON number or a numeric string ("2" or 2);
// it keeps the text as sent.
type Count string

// UnmarshalJSON accepts a number or a string.
func (c *Count) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*c = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = Count(s)
		return nil
	}
	if _, err := strconv.ParseFloat(string(b), 64); err != nil {
		return fmt.Errorf("want a number, got %s", b)
	}
	*c = Count(b)
	return nil
}

// MarshalJSON writes the count as a JSON number when it is one.
func (c Count) MarshalJSON() ([]byte, error) {
	if _, err := strconv.ParseFloat(string(c), 64); err == nil {
		return []byte(c), nil
	}
	return json.Marshal(string(c))
}

// Diagnosis is one HI code: ABK (principal) or ABF (other), ICD-10.
type Diagnosis struct {
	DiagnosisTypeCode string `json:"diagnosisTypeCode,omitempty"`
	DiagnosisCode     string `json:"diagnosisCode,omitempty"`
}

// DiagnosisPointers are SV311: positions (1–4) in healthCareCodeInformation.
type DiagnosisPointers struct {
	DiagnosisCodePointers []string `json:"diagnosisCodePointers,omitempty"`
}
