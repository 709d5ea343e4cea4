package partners

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var (
	// Ids as the hosted Partners API allows them.
	profileIDPattern     = regexp.MustCompile(`^[A-Za-z0-9._-]{1,80}$`)
	partnershipIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,81}$`)
	settingIDPattern     = regexp.MustCompile(`^[A-Za-z0-9_-]{1,50}$`)
	connectionIDPattern  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,80}$`)
	qualifierPattern     = regexp.MustCompile(`^[A-Za-z0-9]{2}$`)
	// ISA06/08 and GS02/03: letters, digits, spaces and the punctuation of
	// the X12 basic character set that is never a delimiter.
	interchangeIDPattern = regexp.MustCompile(`^[A-Za-z0-9 .,&()/'@#!?=+_-]+$`)
	setIdentifierPattern = regexp.MustCompile(`^[0-9]{3}$`)
)

// MaxFragmentsBatchSize bounds a fragment.
const MaxFragmentsBatchSize = 100_000

func profileEntry(id string) string     { return fmt.Sprintf("profile %q", id) }
func partnershipEntry(id string) string { return fmt.Sprintf("partnership %q", id) }
func connectionEntry(id string) string  { return fmt.Sprintf("connection %q", id) }

// checkProfile converts a Profile to its record, reporting what is wrong.
func (w *world) checkProfile(p Profile, path string, ps *problems) store.Profile {
	entry := profileEntry(p.ProfileID)
	if !profileIDPattern.MatchString(p.ProfileID) {
		ps.add(path+"/profileId", "%s: profileId must be 1 to 80 letters, digits, '.', '_' or '-'", entry)
	}
	if p.ProfileType != store.ProfileLocal && p.ProfileType != store.ProfilePartner {
		ps.add(path+"/profileType", `%s: profileType must be "local" (you) or "partner" (a trading partner), not %q`, entry, p.ProfileType)
	}
	if !qualifierPattern.MatchString(p.InterchangeQualifier) {
		ps.add(path+"/interchangeQualifier", "%s: interchangeQualifier (ISA05/ISA07) must be 2 letters or digits, e.g. ZZ (mutually defined) or 30 (tax id), not %q", entry, p.InterchangeQualifier)
	}
	isaID := strings.TrimSpace(p.InterchangeID)
	if len(isaID) == 0 || len(isaID) > 15 || !interchangeIDPattern.MatchString(isaID) {
		ps.add(path+"/interchangeId", "%s: interchangeId (ISA06/ISA08) must be 1 to 15 letters, digits, spaces or . , & ( ) / ' @ # ! ? = + _ -, not %q", entry, p.InterchangeID)
	}
	app := strings.TrimSpace(p.ApplicationID)
	if app == "" {
		app = isaID
	}
	if len(app) < 2 || len(app) > 15 || !interchangeIDPattern.MatchString(app) {
		ps.add(path+"/applicationId", "%s: applicationId (GS02/GS03) must be 2 to 15 letters, digits or spaces; it defaults to the interchangeId", entry)
	}
	return store.Profile{ID: p.ProfileID, AccountID: w.accountID, Mode: w.mode, Type: p.ProfileType,
		ISAQualifier: strings.ToUpper(p.InterchangeQualifier), ISAID: isaID, ApplicationCode: app}
}

// checkConnection converts a Connection to its record, sealing its secrets.
// stored is the record it replaces (zero when new).
func (w *world) checkConnection(box *secrets.Box, dirs *tenantdir.Root, c Connection, stored store.Connection, path string, ps *problems) store.Connection {
	entry := connectionEntry(c.ConnectionID)
	if !connectionIDPattern.MatchString(c.ConnectionID) {
		ps.add(path+"/connectionId", "%s: connectionId must be 1 to 80 letters, digits, '.', '_' or '-'", entry)
	}
	rec := store.Connection{ID: c.ConnectionID, AccountID: w.accountID, Mode: w.mode, Type: c.ConnectionType,
		Name: c.Name, Settings: []byte("{}")}
	schema, ok := connectionSchemas[c.ConnectionType]
	switch {
	case !ok:
		ps.add(path+"/connectionType", "%s: connectionType must be one of %s, not %q", entry, strings.Join(store.ConnectionTypes, ", "), c.ConnectionType)
		return rec
	case w.mode == store.ModeTest && schema.testRefusal != "":
		ps.add(path+"/connectionType", "%s: a %s connection (%s) exists only in production mode: %s", entry, c.ConnectionType, schema.about, schema.testRefusal)
	case w.mode == store.ModeTest && !schema.testMode:
		ps.add(path+"/connectionType", "%s: test mode never reaches a payer, so it cannot use a %s connection (%s); use MOCK or SFTP_SERVER, or set this connection up in production mode", entry, c.ConnectionType, schema.about)
	case w.mode == store.ModeProduction && !schema.productionMode:
		ps.add(path+"/connectionType", "%s: a %s connection (%s) exists only in test mode", entry, c.ConnectionType, schema.about)
	}
	if len(c.Name) > 200 {
		ps.add(path+"/name", "%s: name must be at most 200 characters", entry)
	}
	rec.Settings = checkConnectionSettings(c.ConnectionType, c.Settings, path+"/settings", entry, ps)
	if c.ConnectionType == store.ConnectionDirectory && w.mode == store.ModeProduction {
		w.checkFolders(dirs, rec.Settings, path, entry, ps)
	}
	rec.SealedSecrets = checkSecrets(box, rec, stored.SealedSecrets, c.Secrets, path+"/secrets", entry, ps)
	return rec
}

// checkPartnership converts a Partnership (without its settings).
func (w *world) checkPartnership(p Partnership, path string, ps *problems) store.Partnership {
	entry := partnershipEntry(p.PartnershipID)
	if !partnershipIDPattern.MatchString(p.PartnershipID) {
		ps.add(path+"/partnershipId", "%s: partnershipId must be 1 to 81 letters, digits, '.', '_' or '-' (e.g. clinic_delta-dental)", entry)
	}
	if p.PartnershipType != "" && p.PartnershipType != store.PartnershipTypeX12 {
		ps.add(path+"/partnershipType", `%s: partnershipType must be "x12", not %q`, entry, p.PartnershipType)
	}
	return store.Partnership{ID: p.PartnershipID, AccountID: w.accountID, Mode: w.mode, Type: store.PartnershipTypeX12,
		LocalProfileID: p.LocalProfileID, PartnerProfileID: p.PartnerProfileID, ConnectionID: p.ConnectionID}
}

// checkSetting converts a TransactionSetting of the partnership in the
// given direction. The id is resolved later (given, or by natural key).
func (w *world) checkSetting(s TransactionSetting, partnershipID, direction, path string, ps *problems) store.TransactionSetting {
	entry := fmt.Sprintf("%s %s %s setting", partnershipEntry(partnershipID), strings.ToLower(direction), s.TransactionSetIdentifier)
	if s.TransactionSettingID != "" {
		entry = fmt.Sprintf("%s transaction setting %q", partnershipEntry(partnershipID), s.TransactionSettingID)
		if !settingIDPattern.MatchString(s.TransactionSettingID) {
			ps.add(path+"/transactionSettingId", "%s: transactionSettingId must be 1 to 50 letters, digits, '_' or '-'", entry)
		}
	}
	if s.Direction != "" && s.Direction != direction {
		ps.add(path+"/direction", "%s: direction %q disagrees with the list it is in (%s)", entry, s.Direction, direction)
	}
	if !setIdentifierPattern.MatchString(s.TransactionSetIdentifier) {
		ps.add(path+"/transactionSetIdentifier", "%s: transactionSetIdentifier (ST01) must be 3 digits, e.g. 835, not %q", entry, s.TransactionSetIdentifier)
	}
	rec := store.TransactionSetting{ID: s.TransactionSettingID, AccountID: w.accountID, Mode: w.mode,
		PartnershipID: partnershipID, Direction: direction, GuideID: strings.TrimSpace(s.GuideID),
		TransactionSetIdentifier: s.TransactionSetIdentifier, FragmentsBatchSize: store.DefaultFragmentsBatchSize,
		ConnectionID: s.ConnectionID}
	var g *guide.Guide
	if rec.GuideID != "" && setIdentifierPattern.MatchString(s.TransactionSetIdentifier) {
		var ok bool
		if g, ok = guide.Lookup(s.TransactionSetIdentifier, rec.GuideID); !ok {
			ps.add(path+"/guideId", "%s: Clearhouse has no guide %q for transaction set %s; known: %s (or leave guideId empty to accept any)",
				entry, rec.GuideID, s.TransactionSetIdentifier, knownGuides(s.TransactionSetIdentifier))
		} else {
			rec.GuideID = g.Version // errata the guide also reads name it too
		}
	}
	if f := s.Fragments; f != nil {
		rec.FragmentsEnabled, rec.FragmentsKeyName = f.Enabled, f.KeyName
		if f.BatchSize != 0 {
			rec.FragmentsBatchSize = f.BatchSize
		}
		if rec.FragmentsBatchSize < 1 || rec.FragmentsBatchSize > MaxFragmentsBatchSize {
			ps.add(path+"/fragments/batchSize", "%s: fragments.batchSize must be 1 to %d (default %d)", entry, MaxFragmentsBatchSize, store.DefaultFragmentsBatchSize)
		}
		switch {
		case f.Enabled && f.KeyName == "":
			ps.add(path+"/fragments/keyName", "%s: fragments are enabled but keyName is empty; name the Guide JSON key of the repeated loop, e.g. %s", entry, exampleKey(g))
		case f.KeyName != "" && g != nil && !hasLoopKey(g.Root(), f.KeyName):
			ps.add(path+"/fragments/keyName", "%s: guide %s has no loop %q; e.g. %s", entry, g.Version, f.KeyName, exampleKey(g))
		}
	}
	if a := s.Acknowledgments; a != nil {
		if direction == store.DirectionOutbound && (a.Generate999 || a.GenerateTA1) {
			ps.add(path+"/acknowledgments", "%s: acknowledgments are what Clearhouse sends back for an inbound file; an outbound setting cannot ask for them", entry)
		}
		rec.Ack999, rec.AckTA1 = a.Generate999, a.GenerateTA1
	}
	if s.PassThrough {
		switch {
		case direction == store.DirectionOutbound:
			ps.add(path+"/passThrough", "%s: passThrough is for inbound sets with no guide; an outbound setting always has one", entry)
		case rec.GuideID != "":
			ps.add(path+"/passThrough", "%s: passThrough applies to sets with no guide, so it cannot name guide %q; leave guideId empty", entry, rec.GuideID)
		}
		rec.PassThrough = true
	}
	if s.ConnectionID != "" && direction == store.DirectionInbound {
		ps.add(path+"/connectionId", "%s: connectionId names where outbound files go; inbound files arrive on any connection of the partnership", entry)
	}
	return rec
}

func knownGuides(set string) string {
	var out []string
	for _, g := range guide.Guides() {
		if g.Transaction == set {
			out = append(out, g.Version)
		}
	}
	if len(out) == 0 {
		return "none for this transaction set"
	}
	return strings.Join(out, ", ")
}

func hasLoopKey(l *guide.Loop, key string) bool {
	if l.Key == key {
		return true
	}
	for _, c := range l.Children {
		if c.Loop != nil && hasLoopKey(c.Loop, key) {
			return true
		}
	}
	return false
}

// exampleKey suggests a loop key for fragments: the deepest repeatable
// loop the guide is known to split on, else any loop key.
func exampleKey(g *guide.Guide) string {
	if g == nil {
		return "claim_payment_information_CLP_loop"
	}
	if k := DefaultFragmentKey(g.Transaction); k != "" && hasLoopKey(g.Root(), k) {
		return k
	}
	for _, c := range g.Root().Children {
		if c.Loop != nil {
			return c.Loop.Key
		}
	}
	return g.Root().Key
}

// DefaultFragmentKey is the loop fragments split on for a transaction set:
// one claim payment (835) or one claim (837).
func DefaultFragmentKey(set string) string {
	switch set {
	case "835":
		return "claim_payment_information_CLP_loop"
	case "837":
		return "claim_information_CLM_loop"
	}
	return ""
}

// origin says where a record came from, for messages about records the
// caller did not send.
type origin map[string]string // kind+"\x00"+id → JSON Pointer

func (o origin) path(kind, id string) string {
	if p, ok := o[kind+"\x00"+id]; ok {
		return p
	}
	return fmt.Sprintf("(stored %s %q)", kind, id)
}

// checkIntegrity checks what single records cannot: uniqueness and
// references across the whole world after the change.
func (w *world) checkIntegrity(o origin, ps *problems) {
	isa := map[string]string{}
	for _, id := range sortedKeys(w.profiles) {
		p := w.profiles[id]
		key := p.ISAQualifier + "/" + p.ISAID
		if other, dup := isa[key]; dup {
			ps.add(o.path("profile", id)+"/interchangeId", "%s: ISA %s is already %s's; one ISA identity names one profile", profileEntry(id), key, profileEntry(other))
			continue
		}
		isa[key] = id
	}
	pairs := map[string]string{}
	for _, id := range sortedKeys(w.partnerships) {
		p := w.partnerships[id]
		path, entry := o.path("partnership", id), partnershipEntry(id)
		w.checkProfileRef(p.LocalProfileID, store.ProfileLocal, path+"/localProfileId", entry, "localProfileId", ps)
		w.checkProfileRef(p.PartnerProfileID, store.ProfilePartner, path+"/partnerProfileId", entry, "partnerProfileId", ps)
		w.checkConnectionRef(p.ConnectionID, path+"/connectionId", entry, ps)
		pair := p.LocalProfileID + "\x00" + p.PartnerProfileID
		if other, dup := pairs[pair]; dup {
			ps.add(path, "%s: %s already joins %q and %q", entry, partnershipEntry(other), p.LocalProfileID, p.PartnerProfileID)
		}
		pairs[pair] = id
	}
	keys := map[string]string{}
	for _, id := range sortedKeys(w.settings) {
		s := w.settings[id]
		path := o.path("transaction setting", id)
		entry := fmt.Sprintf("transaction setting %q", id)
		if _, ok := w.partnerships[s.PartnershipID]; !ok {
			ps.add(path, "%s: its partnership %q does not exist", entry, s.PartnershipID)
		}
		w.checkConnectionRef(s.ConnectionID, path+"/connectionId", entry, ps)
		key := strings.Join([]string{s.PartnershipID, s.Direction, s.TransactionSetIdentifier, s.GuideID}, "\x00")
		if other, dup := keys[key]; dup {
			ps.add(path, "%s: %s already covers %s %s guide %q of partnership %q", entry,
				fmt.Sprintf("transaction setting %q", other), strings.ToLower(s.Direction), s.TransactionSetIdentifier, s.GuideID, s.PartnershipID)
		}
		keys[key] = id
	}
}

func (w *world) checkProfileRef(id, wantType, path, entry, field string, ps *problems) {
	p, ok := w.profiles[id]
	switch {
	case id == "":
		ps.add(path, "%s: %s is required", entry, field)
	case !ok:
		ps.add(path, "%s: %s %q names no profile (in this document or the account's %s mode)", entry, field, id, w.mode)
	case p.Type != wantType:
		ps.add(path, "%s: %s %q is a %s profile; it must be a %s profile", entry, field, id, p.Type, wantType)
	}
}

func (w *world) checkConnectionRef(id, path, entry string, ps *problems) {
	if id == "" {
		return
	}
	if _, ok := w.connections[id]; !ok {
		ps.add(path, "%s: connectionId %q names no connection (in this document or the account's %s mode)", entry, id, w.mode)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
