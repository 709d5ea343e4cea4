package claims

import (
	"time"
)

// Response is the 200 body (DentalClaimsSubmissionResponseContent,
// api-contract.md §4.2).
type Response struct {
	Meta                    Meta           `json:"meta"`
	ClaimReference          ClaimReference `json:"claimReference"`
	ControlNumber           string         `json:"controlNumber"`
	TradingPartnerServiceID string         `json:"tradingPartnerServiceId"`
	Payer                   Payer          `json:"payer"`
	Status                  string         `json:"status"`
	HTTPStatusCode          string         `json:"httpStatusCode"`
	// X12 is our own 277CA for the accepted claim: the clearinghouse's
	// acknowledgment, not the payer's (that one arrives later, as an
	// inbound file).
	X12 string `json:"x12"`
}

// Meta identifies the call.
type Meta struct {
	TraceID         string `json:"traceId"`
	ApplicationMode string `json:"applicationMode"`
	SenderID        string `json:"senderId,omitempty"`
	SubmitterID     string `json:"submitterId,omitempty"`
	BillerID        string `json:"billerId,omitempty"`
}

// ClaimReference identifies the submitted claim.
type ClaimReference struct {
	CorrelationID        string          `json:"correlationId"`
	RHClaimNumber        string          `json:"rhclaimNumber"`
	PatientControlNumber string          `json:"patientControlNumber"`
	TimeOfResponse       string          `json:"timeOfResponse"`
	PayerID              string          `json:"payerID"`
	PayerIDCamel         string          `json:"payerId"`
	FormatVersion        string          `json:"formatVersion"`
	SubmitterID          string          `json:"submitterId,omitempty"`
	ServiceLines         []LineReference `json:"serviceLines"`
}

// LineReference is one service line's control number (REF*6R).
type LineReference struct {
	LineItemControlNumber string `json:"lineItemControlNumber"`
}

// Payer names the payer the claim went to.
type Payer struct {
	PayerName    string `json:"payerName"`
	PayerID      string `json:"payerID"`
	PayerIDCamel string `json:"payerId"`
}

// ResponseInfo is what the response reports beyond the request and the
// built 837D.
type ResponseInfo struct {
	CorrelationID string // claimReference.correlationId and rhclaimNumber
	TraceID       string // meta.traceId (a UUID)
	Mode          string // "test" or "production"
	PayerID       string
	PayerName     string
	SenderID      string // ISA06 of the 837D
	Now           time.Time
	Ack277        []byte
}

// NewResponse builds the 200 body of a submitted claim.
func NewResponse(req *Request, built *Built, info ResponseInfo) *Response {
	lines := make([]LineReference, len(built.LineItemControlNumbers))
	for i, id := range built.LineItemControlNumbers {
		lines[i] = LineReference{LineItemControlNumber: id}
	}
	submitterID := req.Submitter.SubmitterIdentification
	if submitterID == "" {
		submitterID = req.Billing.NPI
	}
	return &Response{
		Meta: Meta{TraceID: info.TraceID, ApplicationMode: info.Mode, SenderID: info.SenderID, SubmitterID: submitterID,
			BillerID: req.Billing.NPI},
		ClaimReference: ClaimReference{
			CorrelationID: info.CorrelationID, RHClaimNumber: info.CorrelationID,
			PatientControlNumber: req.ClaimInformation.PatientControlNumber,
			TimeOfResponse:       info.Now.UTC().Format("2006-01-02T15:04:05.000Z"),
			PayerID:              info.PayerID, PayerIDCamel: info.PayerID, FormatVersion: "5010",
			SubmitterID: submitterID, ServiceLines: lines,
		},
		ControlNumber:           trimZeros(built.Controls.Interchange),
		TradingPartnerServiceID: info.PayerID,
		Payer:                   Payer{PayerName: info.PayerName, PayerID: info.PayerID, PayerIDCamel: info.PayerID},
		Status:                  "SUCCESS",
		HTTPStatusCode:          "200 OK",
		X12:                     string(info.Ack277),
	}
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// ClearinghouseAck is our own 277CA for a claim we accepted: the
// clearinghouse (AY) received the batch (STC A0:17:AY, as the hosted API's
// answers show) and accepted the claim (A1:20).
func ClearinghouseAck(req *Request, built *Built, info ResponseInfo, opts Ack277Options) ([]byte, error) {
	b := req.Billing
	submitterName := req.Submitter.OrganizationName
	if submitterName == "" {
		submitterName = req.Submitter.LastName
	}
	submitterID := req.Submitter.SubmitterIdentification
	if submitterID == "" {
		submitterID = b.NPI
	}
	sender := info.SenderID
	if sender == "" {
		sender = "CLEARHOUSE"
	}
	a := &Ack277{
		SourceEntity: "AY", SourceName: sender, SourceIDQualifier: "46", SourceID: sender,
		ReceiverName: submitterName, ReceiverID: submitterID,
		ReceiverStatus: Status{"A0", "17", "AY"},
		TraceID:        info.CorrelationID, BatchTrace: info.CorrelationID, Received: info.Now,
		ProviderOrganization: b.OrganizationName, ProviderLast: b.LastName, ProviderFirst: b.FirstName, ProviderNPI: b.NPI,
		Claims: []ClaimAck{ClaimAckOf(req, info.CorrelationID, Status{"A1", "20", ""})},
	}
	if opts.Envelope.SenderID == "" {
		opts.Envelope.SenderID = sender
	}
	if opts.Envelope.ReceiverID == "" {
		opts.Envelope.ReceiverID = submitterID
	}
	if opts.Now.IsZero() {
		opts.Now = info.Now
	}
	if opts.Usage == "" {
		opts.Usage = req.UsageIndicator
	}
	return Write277CA(a, opts)
}
