// Package partners keeps trading partners as data: X12 profiles,
// partnerships between a local and a partner profile, the transaction
// settings of each partnership and the connections files move over — per
// account and mode, in the store (package store).
//
// The same JSON shapes serve the API (/2023-08-01/x12/…) and the
// declarative file of `clearhouse partners apply` / `partners export`: a
// Document. Apply makes the store match a Document in one transaction,
// refusing unknown fields and dangling references with the entry at fault;
// applying the same Document twice changes nothing. Seed gives every
// account a working test-mode setup with the mock payers.
//
// Connection secrets (passwords, private keys) are sealed with package
// secrets, one value at a time, bound to the connection and the secret's
// name; they are never returned or printed, only their names.
package partners

import "encoding/json"

// Document is the declarative form of one account's partners in one mode:
// what `partners export` prints and `partners apply` reads.
type Document struct {
	Profiles     []Profile     `json:"profiles"`
	Connections  []Connection  `json:"connections"`
	Partnerships []Partnership `json:"partnerships"`
}

// Profile is an X12 identity (spelled as the hosted Partners API spells it).
type Profile struct {
	ProfileID            string `json:"profileId"`
	ProfileType          string `json:"profileType"`             // "local" or "partner"
	InterchangeQualifier string `json:"interchangeQualifier"`    // ISA05 / ISA07
	InterchangeID        string `json:"interchangeId"`           // ISA06 / ISA08, without padding
	ApplicationID        string `json:"applicationId,omitempty"` // GS02 / GS03; default: interchangeId
}

// Partnership joins a local and a partner profile, with its transaction
// settings listed by direction.
type Partnership struct {
	PartnershipID        string               `json:"partnershipId"`
	PartnershipType      string               `json:"partnershipType,omitempty"` // "x12" (the default)
	LocalProfileID       string               `json:"localProfileId"`
	PartnerProfileID     string               `json:"partnerProfileId"`
	ConnectionID         string               `json:"connectionId,omitempty"` // default outbound connection
	InboundTransactions  []TransactionSetting `json:"inboundTransactions,omitempty"`
	OutboundTransactions []TransactionSetting `json:"outboundTransactions,omitempty"`
}

// TransactionSetting is what a partnership exchanges in one direction for
// one transaction set and guide.
type TransactionSetting struct {
	TransactionSettingID string `json:"transactionSettingId,omitempty"` // generated when empty
	// Direction is implied by the list the setting is in; when given it
	// must agree. Answers always carry it.
	Direction                string           `json:"direction,omitempty"`
	TransactionSetIdentifier string           `json:"transactionSetIdentifier"` // ST01, e.g. "835"
	GuideID                  string           `json:"guideId,omitempty"`        // GS08/ST03, e.g. "005010X221A1"
	Fragments                *Fragments       `json:"fragments,omitempty"`
	Acknowledgments          *Acknowledgments `json:"acknowledgments,omitempty"` // inbound only
	// PassThrough (inbound only) stores a set Clearhouse has no guide for
	// (a 997, a 4010 set) as its X12, untranslated; without it such a set
	// fails its file with UNSUPPORTED_TRANSACTION. Leave guideId empty.
	PassThrough  bool   `json:"passThrough,omitempty"`
	ConnectionID string `json:"connectionId,omitempty"` // outbound only
}

// Fragments split a large transaction's Guide JSON into pieces of at most
// BatchSize repetitions of the loop KeyName.
type Fragments struct {
	Enabled   bool   `json:"enabled"`
	BatchSize int    `json:"batchSize,omitempty"` // default 800
	KeyName   string `json:"keyName,omitempty"`   // Guide JSON key of the repeated loop
}

// Acknowledgments say what goes back to the sender of an inbound file.
type Acknowledgments struct {
	Generate999 bool `json:"generate999"`
	GenerateTA1 bool `json:"generateTA1"` // when ISA14 asks for one
}

// Connection is how files move. Secrets maps a secret's name to its value
// on the way in; on the way out every stored secret is listed with a null
// value, and a null sent back means "keep the stored value".
type Connection struct {
	ConnectionID   string             `json:"connectionId"`
	ConnectionType string             `json:"connectionType"`
	Name           string             `json:"name,omitempty"`
	Settings       json.RawMessage    `json:"settings,omitempty"`
	Secrets        map[string]*string `json:"secrets,omitempty"`
}
