package claims

import (
	"errors"
	"strings"
	"testing"
)

// A contract field that has no place in the 837 (or names a service this
// clearinghouse does not have) is refused with the field and the fix, and
// the new fields' own edits name their field: nothing the contract
// defines is dropped without a word.
func TestMedicalFieldEdits(t *testing.T) {
	prof := []struct {
		name, file string
		edit       func(r *ProfessionalRequest)
		path, want string
	}{
		{"paper claims", "example.json", func(r *ProfessionalRequest) { r.Receiver.ReceiverID = "PAPER" }, "/receiver/receiverId", "print and mail"},
		{"uploaded attachment", "full.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.ClaimSupplementalInformation.ReportInformation.AttachmentID = "att_1"
		}, "/claimInformation/claimSupplementalInformation/reportInformation/attachmentId", "attachmentControlNumber"},
		{"deprecated otherIdentifier", "example.json", func(r *ProfessionalRequest) { r.Billing.OtherIdentifier = "X1" }, "/billing/otherIdentifier", "secondaryIdentifier"},
		{"two EINs", "example.json", func(r *ProfessionalRequest) { r.Billing.EmployerIdentificationNumber = "987654321" }, "/billing/employerIdentificationNumber", "differs"},
		{"DME frequency", "dme.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.ServiceLines[0].DurableMedicalEquipmentService.FrequencyCode = "2"
		}, "/claimInformation/serviceLines/0/durableMedicalEquipmentService/frequencyCode", "monthly"},
		{"DME months", "dme.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.ServiceLines[0].DurableMedicalEquipmentCertification.DurableMedicalEquipmentDurationInMonths = "1.5"
		}, "/claimInformation/serviceLines/0/durableMedicalEquipmentCertification/durableMedicalEquipmentDurationInMonths", "whole number"},
		{"line ambulance reason", "ambulance.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.ServiceLines[0].AmbulanceTransportInformation.AmbulanceTransportReasonCode = "Z"
		}, "/claimInformation/serviceLines/0/ambulanceTransportInformation/ambulanceTransportReasonCode", "A–E"},
		{"ambulance without CR1 anywhere", "ambulance.json", func(r *ProfessionalRequest) {
			for i := range r.ClaimInformation.ServiceLines {
				r.ClaimInformation.ServiceLines[i].AmbulanceTransportInformation = nil
			}
		}, "/claimInformation/ambulanceTransportInformation", "is required"},
		{"repricing amount", "ambulance.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.ClaimPricingRepricingInformation.RepricedAllowedAmount = "8OO"
		}, "/claimInformation/claimPricingRepricingInformation/repricedAllowedAmount", ""},
		{"EPSDT NU", "dme.json", func(r *ProfessionalRequest) { r.ClaimInformation.EpsdtReferral.ConditionCodes = []string{"ST"} },
			"/claimInformation/epsdtReferral/conditionCodes/0", "NU"},
		{"other payer provider id", "dme.json", func(r *ProfessionalRequest) {
			r.ClaimInformation.OtherSubscriberInformation[0].OtherPayerBillingProvider[0].IDs[0].Qualifier = "0B"
		}, "/claimInformation/otherSubscriberInformation/0/otherPayerBillingProvider/0/identifiers/0/qualifier", "G2, LU"},
	}
	for _, tc := range prof {
		t.Run("837P "+tc.name, func(t *testing.T) {
			r := loadProfessional(t, tc.file)
			tc.edit(r)
			wantProblem(t, ValidateProfessional(r), tc.path, tc.want)
		})
	}
	inst := []struct {
		name       string
		edit       func(r *InstitutionalRequest)
		path, want string
	}{
		{"patient amount paid", func(r *InstitutionalRequest) { r.ClaimInformation.PatientAmountPaid = "10" }, "/claimInformation/patientAmountPaid", "no patient amount paid"},
		{"signature indicator", func(r *InstitutionalRequest) { r.ClaimInformation.SignatureIndicator = "Y" }, "/claimInformation/signatureIndicator", "CLM06"},
		{"deprecated line shape", func(r *InstitutionalRequest) {
			r.ClaimInformation.ServiceLines[0].LinePricingInformation = &deprecatedObject{}
		},
			"/claimInformation/serviceLines/0/linePricingInformation", "lineRepricingInformation"},
		{"two billing notes", func(r *InstitutionalRequest) { r.ClaimInformation.BillingNote = "x" }, "/claimInformation/claimNotes/additionalInformation", "billingNote"},
		{"pay-to plan needs the paid amount", func(r *InstitutionalRequest) { r.ClaimInformation.OtherSubscriberInformation.PayerPaidAmount = "" },
			"/claimInformation/otherSubscriberInformation/payerPaidAmount", "subrogation"},
		{"pay-to plan one secondary id", func(r *InstitutionalRequest) { r.BillingPayToPlanName.NAIC = "12345" }, "/billingPayToPlanName", "one secondary id"},
		{"facility npi", func(r *InstitutionalRequest) {
			r.ClaimInformation.ServiceFacilityLocation.IdentificationCode = "1999999993"
		},
			"/claimInformation/serviceFacilityLocation/identificationCode", "check digit"},
		{"line revenue code at the other payer", func(r *InstitutionalRequest) {
			r.ClaimInformation.ServiceLines[0].LineAdjudicationInformation[0].ServiceLineRevenueCode = ""
		}, "/claimInformation/serviceLines/0/lineAdjudicationInformation/0/serviceLineRevenueCode", "SVD04"},
		{"EPSDT codes without the referral", func(r *InstitutionalRequest) {
			r.ClaimInformation.ConditionCodes, r.ClaimInformation.EpsdtReferral = []string{"NU"}, nil
		}, "/claimInformation/epsdtReferral", "conditionCodes"},
	}
	for _, tc := range inst {
		t.Run("837I "+tc.name, func(t *testing.T) {
			r := loadInstitutional(t, "cob.json")
			tc.edit(r)
			wantProblem(t, ValidateInstitutional(r), tc.path, tc.want)
		})
	}
}

// wantProblem fails unless err is a validation error naming path, with
// want in its message.
func wantProblem(t *testing.T, err error, path, want string) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error at %s, got %v", path, err)
	}
	for _, f := range ve.Fields {
		if f.Path == path && strings.Contains(f.Message, want) {
			return
		}
	}
	t.Errorf("no problem at %s containing %q; got %+v", path, want, ve.Fields)
}
