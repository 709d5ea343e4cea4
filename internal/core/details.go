package core

import (
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// The shapes of event details and of the records' JSON (spec §2.5, §6,
// api-contract §5.1).

// Artifact is a retrievable document of an event or a record.
type Artifact struct {
	ArtifactType string `json:"artifactType"`
	Usage        string `json:"usage"`
	URL          string `json:"url"`
	SizeBytes    *int64 `json:"sizeBytes,omitempty"`
	Model        string `json:"model,omitempty"`
}

func artifact(contentType, usage, url string, size int64, model string) Artifact {
	return Artifact{ArtifactType: contentType, Usage: usage, URL: url, SizeBytes: &size, Model: model}
}

// PartnershipRef names a partnership and its two profiles.
type PartnershipRef struct {
	PartnershipID   string     `json:"partnershipId"`
	PartnershipType string     `json:"partnershipType"`
	Sender          ProfileRef `json:"sender"`
	Receiver        ProfileRef `json:"receiver"`
}

// ProfileRef names a profile.
type ProfileRef struct {
	ProfileID string `json:"profileId"`
}

// inboundPartnership: on an inbound file the partner sends, we receive.
func inboundPartnership(p store.Partnership) *PartnershipRef {
	if p.ID == "" {
		return nil
	}
	return &PartnershipRef{PartnershipID: p.ID, PartnershipType: store.PartnershipTypeX12,
		Sender: ProfileRef{p.PartnerProfileID}, Receiver: ProfileRef{p.LocalProfileID}}
}

// X12Detail is the x12 object of transaction and fragment events.
type X12Detail struct {
	Metadata           X12Metadata `json:"metadata"`
	TransactionSetting *SettingRef `json:"transactionSetting,omitempty"`
}

// SettingRef names the transaction setting a set was processed with.
type SettingRef struct {
	GuideID              string `json:"guideId"`
	TransactionSettingID string `json:"transactionSettingId"`
}

// X12Metadata is what the envelopes said about a transaction.
type X12Metadata struct {
	Interchange     InterchangeMeta  `json:"interchange"`
	FunctionalGroup *GroupMeta       `json:"functionalGroup,omitempty"`
	Transaction     *TransactionMeta `json:"transaction,omitempty"`
	Sender          PartyMeta        `json:"sender"`
	Receiver        PartyMeta        `json:"receiver"`
}

// InterchangeMeta is ISA14 and ISA13.
type InterchangeMeta struct {
	AcknowledgmentRequestedCode string `json:"acknowledgmentRequestedCode"`
	ControlNumber               int64  `json:"controlNumber"`
}

// GroupMeta is the GS of a transaction.
type GroupMeta struct {
	ControlNumber            int64  `json:"controlNumber"`
	Release                  string `json:"release"`
	Date                     string `json:"date"`
	Time                     string `json:"time"`
	FunctionalIdentifierCode string `json:"functionalIdentifierCode"`
}

// TransactionMeta is the ST of a transaction.
type TransactionMeta struct {
	ControlNumber            string `json:"controlNumber"`
	TransactionSetIdentifier string `json:"transactionSetIdentifier"`
}

// PartyMeta is one side of the interchange.
type PartyMeta struct {
	ApplicationCode string  `json:"applicationCode,omitempty"`
	ISA             ISAPart `json:"isa"`
}

// ISAPart is an ISA qualifier and id.
type ISAPart struct {
	Qualifier string `json:"qualifier"`
	ID        string `json:"id"`
}

// FragmentsInfo is the fragments object of transaction and fragment events.
type FragmentsInfo struct {
	BatchSize     int    `json:"batchSize"`
	FragmentCount int    `json:"fragmentCount"`
	KeyName       string `json:"keyName"`
}

// Source is where a file came from.
type Source struct {
	Dirname string `json:"dirname,omitempty"`
	Name    string `json:"name"`
}

// Fault is one entry of file.failed.v2 errors[].
type Fault struct {
	FaultCode string `json:"faultCode"`
	Message   string `json:"message"`
}

// Fault codes (api-contract §5.1, Core ExecutionFaultCode) used here.
const (
	FaultParse           = "FAILED_TO_PARSE"
	FaultTranslate       = "FAILED_TO_TRANSLATE"
	FaultFindPartnership = "FAILED_TO_FIND_PARTNERSHIP"
	FaultFindGuide       = "FAILED_TO_FIND_GUIDE"
	// FaultUnsupportedTransaction: a set Clearhouse has no implementation
	// guide for (a 4010 set, a transaction it does not know), so it can be
	// neither checked nor translated, and no setting passes it through.
	FaultUnsupportedTransaction = "UNSUPPORTED_TRANSACTION"
	FaultInvalidConfig          = "INVALID_CONFIGURATION"
	FaultNoTransactionSets      = "NO_TRANSACTION_SETS"
	FaultFileNotFound           = "FILE_NOT_FOUND"
	FaultNotSupported           = "NOT_SUPPORTED"
	FaultAck                    = "FAILED_TO_ACK"
	FaultMissingSenderID        = "MISSING_SENDER_ID"
	FaultMissingReceiverID      = "MISSING_RECEIVER_ID"
	FaultUnknown                = "UNKNOWN_ERROR"
)

// controlNumber reads a control number as the integer events carry (0 when
// it is not one).
func controlNumber(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n
}

// isaDate turns ISA09 (YYMMDD) into YYYY-MM-DD.
func isaDate(s string) string {
	if len(s) != 6 {
		return s
	}
	return "20" + s[0:2] + "-" + s[2:4] + "-" + s[4:6]
}

// gsDate turns GS04 (CCYYMMDD) into YYYY-MM-DD.
func gsDate(s string) string {
	if len(s) != 8 {
		return s
	}
	return s[0:4] + "-" + s[4:6] + "-" + s[6:8]
}

// hhmm turns HHMM into HH:MM.
func hhmm(s string) string {
	if len(s) < 4 {
		return s
	}
	return s[0:2] + ":" + s[2:4]
}

// gsTime turns GS05 into a time with the precision sent: HHMM into HH:MM,
// HHMMSS into HH:MM:SS, HHMMSSD.. into HH:MM:SS.D.. (the metadata document,
// as the hosted service writes it; nothing is invented).
func gsTime(s string) string {
	switch {
	case len(s) < 4:
		return s
	case len(s) < 6:
		return s[0:2] + ":" + s[2:4]
	case len(s) == 6:
		return s[0:2] + ":" + s[2:4] + ":" + s[4:6]
	}
	return s[0:2] + ":" + s[2:4] + ":" + s[4:6] + "." + s[6:]
}

// hhmmss turns HHMM[SS[D..]] into HH:MM:SS.
func hhmmss(s string) string {
	switch {
	case len(s) < 4:
		return s
	case len(s) < 6:
		return s[0:2] + ":" + s[2:4] + ":00"
	}
	return s[0:2] + ":" + s[2:4] + ":" + s[4:6]
}
