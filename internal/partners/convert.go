package partners

import (
	"bytes"
	"encoding/json"

	"github.com/clearhouse/clearhouse/internal/store"
)

// ProfileOf is a stored profile in the API's and the file's shape.
func ProfileOf(p store.Profile) Profile {
	return Profile{ProfileID: p.ID, ProfileType: p.Type, InterchangeQualifier: p.ISAQualifier,
		InterchangeID: p.ISAID, ApplicationID: p.ApplicationCode}
}

// ConnectionOf is a stored connection; its secrets appear by name only,
// each with a null value.
func ConnectionOf(c store.Connection) Connection {
	out := Connection{ConnectionID: c.ID, ConnectionType: c.Type, Name: c.Name}
	if len(c.Settings) > 0 && !bytes.Equal(c.Settings, []byte("{}")) {
		out.Settings = json.RawMessage(c.Settings)
	}
	if names := SecretNames(c); len(names) > 0 {
		out.Secrets = map[string]*string{}
		for _, n := range names {
			out.Secrets[n] = nil
		}
	}
	return out
}

// PartnershipOf is a stored partnership with its settings (any order;
// they are listed by id within each direction).
func PartnershipOf(p store.Partnership, settings []store.TransactionSetting) Partnership {
	out := Partnership{PartnershipID: p.ID, PartnershipType: p.Type, LocalProfileID: p.LocalProfileID,
		PartnerProfileID: p.PartnerProfileID, ConnectionID: p.ConnectionID}
	for _, s := range settings {
		if s.PartnershipID != p.ID {
			continue
		}
		if s.Direction == store.DirectionInbound {
			out.InboundTransactions = append(out.InboundTransactions, SettingOf(s))
		} else {
			out.OutboundTransactions = append(out.OutboundTransactions, SettingOf(s))
		}
	}
	return out
}

// SettingOf is a stored transaction setting. Fragments and
// acknowledgments appear when they differ from the defaults.
func SettingOf(s store.TransactionSetting) TransactionSetting {
	out := TransactionSetting{TransactionSettingID: s.ID, Direction: s.Direction,
		TransactionSetIdentifier: s.TransactionSetIdentifier, GuideID: s.GuideID, ConnectionID: s.ConnectionID,
		PassThrough: s.PassThrough}
	if s.FragmentsEnabled || s.FragmentsKeyName != "" || s.FragmentsBatchSize != store.DefaultFragmentsBatchSize {
		out.Fragments = &Fragments{Enabled: s.FragmentsEnabled, BatchSize: s.FragmentsBatchSize, KeyName: s.FragmentsKeyName}
	}
	if s.Ack999 || s.AckTA1 {
		out.Acknowledgments = &Acknowledgments{Generate999: s.Ack999, GenerateTA1: s.AckTA1}
	}
	return out
}

// Equality ignoring timestamps: what decides whether Apply writes.

func sameProfile(a, b store.Profile) bool {
	a.CreatedAt, a.UpdatedAt = b.CreatedAt, b.UpdatedAt
	return a == b
}

func samePartnership(a, b store.Partnership) bool {
	a.CreatedAt, a.UpdatedAt = b.CreatedAt, b.UpdatedAt
	return a == b
}

func sameSetting(a, b store.TransactionSetting) bool {
	a.CreatedAt, a.UpdatedAt = b.CreatedAt, b.UpdatedAt
	return a == b
}

func sameConnection(a, b store.Connection) bool {
	return a.ID == b.ID && a.AccountID == b.AccountID && a.Mode == b.Mode && a.Type == b.Type &&
		a.Name == b.Name && bytes.Equal(a.Settings, b.Settings) && a.SealedSecrets == b.SealedSecrets
}
