package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// Profile types.
const (
	ProfileLocal   = "local"   // an identity of the account itself (ours)
	ProfilePartner = "partner" // a trading partner's identity (a payer's)
)

// Transaction setting directions, as the contract spells them.
const (
	DirectionInbound  = "INBOUND"
	DirectionOutbound = "OUTBOUND"
)

// PartnershipTypeX12 is the only partnership type.
const PartnershipTypeX12 = "x12"

// DefaultFragmentsBatchSize is how many repetitions of the fragment key go
// into one fragment when a setting does not say.
const DefaultFragmentsBatchSize = 800

// Connection types.
const (
	ConnectionSFTP       = "SFTP"        // a remote SFTP server we log in to
	ConnectionSFTPServer = "SFTP_SERVER" // our own SFTP server, partners log in
	ConnectionDirectory  = "DIRECTORY"   // a local folder (operators, development)
	ConnectionHTTPUpload = "HTTP_UPLOAD" // POST /2023-08-01/files/inbound
	ConnectionMock       = "MOCK"        // test mode's mock payers
	ConnectionCAQHCORE   = "CAQH_CORE"   // CAQH CORE SOAP envelope over HTTPS
	// ConnectionClearinghouseAPI is another clearinghouse's public API
	// (package upstream): claims go to its raw-x12-submission endpoints.
	ConnectionClearinghouseAPI = "CLEARINGHOUSE_API"
)

// ConnectionTypes lists every connection type.
var ConnectionTypes = []string{ConnectionSFTP, ConnectionSFTPServer, ConnectionDirectory,
	ConnectionHTTPUpload, ConnectionMock, ConnectionCAQHCORE, ConnectionClearinghouseAPI}

// Profile is an X12 identity: the ISA sender or receiver (ISA05/06 or
// ISA07/08) and the GS application code (GS02/GS03).
type Profile struct {
	ID              string // profileId, a slug chosen by the user
	AccountID       string
	Mode            string
	Type            string // ProfileLocal or ProfilePartner
	ISAQualifier    string
	ISAID           string // without the ISA's space padding
	ApplicationCode string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Partnership joins a local profile and a partner profile. Its outbound
// control numbers come from the sequences named by InterchangeSequence and
// GroupSequence (see PartnershipControlNumbers).
type Partnership struct {
	ID               string // partnershipId, e.g. "clinic_delta-dental"
	AccountID        string
	Mode             string
	Type             string // PartnershipTypeX12 (the default when empty)
	LocalProfileID   string
	PartnerProfileID string
	ConnectionID     string // the default outbound connection; "" for none
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// TransactionSetting is what a partnership exchanges in one direction for
// one transaction set (and guide).
type TransactionSetting struct {
	ID                       string
	AccountID                string
	Mode                     string
	PartnershipID            string
	Direction                string // DirectionInbound or DirectionOutbound
	GuideID                  string // e.g. "005010X224A2"; "" matches any guide of the set
	TransactionSetIdentifier string // ST01, e.g. "837"
	FragmentsEnabled         bool
	FragmentsBatchSize       int // DefaultFragmentsBatchSize when 0
	FragmentsKeyName         string
	Ack999                   bool // send a 999 for inbound files
	AckTA1                   bool // send a TA1 when ISA14 asks for one
	// PassThrough (inbound) stores a set with no implementation guide as its
	// X12, untranslated, instead of failing the file.
	PassThrough  bool
	ConnectionID string // outbound: the connection that delivers; "" = the partnership's
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Connection is how files move. Settings is JSON without secrets; the
// secrets (passwords, private keys) are a JSON object of name → value
// sealed with package secrets under ConnectionSecretsContext + ":" + name,
// never stored or shown in clear (partners.OpenSecrets opens them).
type Connection struct {
	ID            string
	AccountID     string
	Mode          string
	Type          string // one of ConnectionTypes
	Name          string
	Settings      []byte // JSON object; "{}" when empty
	SealedSecrets string // {"password": "v1:…"}; "" for none
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// ConnectionSecretsContext is the associated data a connection's secrets
// are sealed under (followed by ":" and the secret's name), so sealed text
// copied to another row or name does not open.
func ConnectionSecretsContext(accountID, mode, connectionID string) string {
	return "connection:" + accountID + ":" + mode + ":" + connectionID + ":secrets"
}

// Partners stores the trading-partner records. Every method takes the
// account and mode: a key sees only its own mode's partners. Create fails
// with ErrConflict when the id (or a unique value) is taken; Update and
// Delete fail with ErrNotFound when the record does not exist, and Delete
// with ErrConflict while another record still refers to it.
type Partners interface {
	CreateProfile(ctx context.Context, p Profile) error
	UpdateProfile(ctx context.Context, p Profile) error
	GetProfile(ctx context.Context, accountID, mode, id string) (Profile, error)
	ListProfiles(ctx context.Context, accountID, mode string) ([]Profile, error)
	DeleteProfile(ctx context.Context, accountID, mode, id string) error

	CreatePartnership(ctx context.Context, p Partnership) error
	UpdatePartnership(ctx context.Context, p Partnership) error
	GetPartnership(ctx context.Context, accountID, mode, id string) (Partnership, error)
	ListPartnerships(ctx context.Context, accountID, mode string) ([]Partnership, error)
	DeletePartnership(ctx context.Context, accountID, mode, id string) error

	CreateTransactionSetting(ctx context.Context, s TransactionSetting) error
	UpdateTransactionSetting(ctx context.Context, s TransactionSetting) error
	GetTransactionSetting(ctx context.Context, accountID, mode, id string) (TransactionSetting, error)
	// ListTransactionSettings lists one partnership's settings, or every
	// setting of the account and mode when partnershipID is "".
	ListTransactionSettings(ctx context.Context, accountID, mode, partnershipID string) ([]TransactionSetting, error)
	DeleteTransactionSetting(ctx context.Context, accountID, mode, id string) error

	CreateConnection(ctx context.Context, c Connection) error
	UpdateConnection(ctx context.Context, c Connection) error
	GetConnection(ctx context.Context, accountID, mode, id string) (Connection, error)
	ListConnections(ctx context.Context, accountID, mode string) ([]Connection, error)
	DeleteConnection(ctx context.Context, accountID, mode, id string) error

	// FindPartnershipByInterchange finds the partnership of an inbound
	// interchange: the partner profile is the ISA sender (ISA05/06), the
	// local profile the receiver (ISA07/08). Qualifiers and ids are
	// compared without surrounding spaces (the ISA pads ids to 15).
	// ErrNotFound if no partnership matches.
	FindPartnershipByInterchange(ctx context.Context, accountID, mode, senderQualifier, senderID, receiverQualifier, receiverID string) (Partnership, error)
	// FindTransactionSetting finds a partnership's setting for a direction
	// and transaction set (ST01). With a guideID (GS08, e.g.
	// "005010X221A1") a setting of that guide wins, then one without a
	// guide; with "" any setting of the set matches, one without a guide
	// first. Among equals the oldest id wins. ErrNotFound if none.
	FindTransactionSetting(ctx context.Context, accountID, mode, partnershipID, direction, transactionSetIdentifier, guideID string) (TransactionSetting, error)
}

const profileColumns = `id, account_id, mode, profile_type, isa_qualifier, isa_id, application_code, created_at, updated_at`

func (q *queries) CreateProfile(ctx context.Context, p Profile) error {
	_, err := q.w.exec(ctx, `INSERT INTO x12_profiles (`+profileColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		p.ID, p.AccountID, p.Mode, p.Type, strings.TrimSpace(p.ISAQualifier), strings.TrimSpace(p.ISAID),
		p.ApplicationCode, toUS(p.CreatedAt), toUS(updatedAt(p.CreatedAt, p.UpdatedAt)))
	return mapErr(err)
}

func (q *queries) UpdateProfile(ctx context.Context, p Profile) error {
	return affected(q.w.exec(ctx, `UPDATE x12_profiles SET profile_type = $4, isa_qualifier = $5, isa_id = $6,
		application_code = $7, updated_at = $8 WHERE account_id = $1 AND mode = $2 AND id = $3`,
		p.AccountID, p.Mode, p.ID, p.Type, strings.TrimSpace(p.ISAQualifier), strings.TrimSpace(p.ISAID),
		p.ApplicationCode, toUS(p.UpdatedAt)))
}

var profiles = partnerTable[Profile]{"x12_profiles", profileColumns, scanProfile}

func (q *queries) GetProfile(ctx context.Context, accountID, mode, id string) (Profile, error) {
	return profiles.get(ctx, q, accountID, mode, id)
}

func (q *queries) ListProfiles(ctx context.Context, accountID, mode string) ([]Profile, error) {
	return profiles.list(ctx, q, accountID, mode)
}

func (q *queries) DeleteProfile(ctx context.Context, accountID, mode, id string) error {
	return profiles.delete(ctx, q, accountID, mode, id)
}

func scanProfile(row scanner) (Profile, error) {
	var p Profile
	var created, updated int64
	if err := row.Scan(&p.ID, &p.AccountID, &p.Mode, &p.Type, &p.ISAQualifier, &p.ISAID,
		&p.ApplicationCode, &created, &updated); err != nil {
		return Profile{}, mapErr(err)
	}
	p.CreatedAt, p.UpdatedAt = fromUS(created), fromUS(updated)
	return p, nil
}

const partnershipColumns = `id, account_id, mode, partnership_type, local_profile_id, partner_profile_id, connection_id, created_at, updated_at`

func (q *queries) CreatePartnership(ctx context.Context, p Partnership) error {
	_, err := q.w.exec(ctx, `INSERT INTO x12_partnerships (`+partnershipColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		p.ID, p.AccountID, p.Mode, partnershipType(p.Type), p.LocalProfileID, p.PartnerProfileID,
		nullString(p.ConnectionID), toUS(p.CreatedAt), toUS(updatedAt(p.CreatedAt, p.UpdatedAt)))
	return mapErr(err)
}

func (q *queries) UpdatePartnership(ctx context.Context, p Partnership) error {
	return affected(q.w.exec(ctx, `UPDATE x12_partnerships SET partnership_type = $4, local_profile_id = $5,
		partner_profile_id = $6, connection_id = $7, updated_at = $8 WHERE account_id = $1 AND mode = $2 AND id = $3`,
		p.AccountID, p.Mode, p.ID, partnershipType(p.Type), p.LocalProfileID, p.PartnerProfileID,
		nullString(p.ConnectionID), toUS(p.UpdatedAt)))
}

var partnerships = partnerTable[Partnership]{"x12_partnerships", partnershipColumns, scanPartnership}

func (q *queries) GetPartnership(ctx context.Context, accountID, mode, id string) (Partnership, error) {
	return partnerships.get(ctx, q, accountID, mode, id)
}

func (q *queries) ListPartnerships(ctx context.Context, accountID, mode string) ([]Partnership, error) {
	return partnerships.list(ctx, q, accountID, mode)
}

func (q *queries) DeletePartnership(ctx context.Context, accountID, mode, id string) error {
	return partnerships.delete(ctx, q, accountID, mode, id)
}

func (q *queries) FindPartnershipByInterchange(ctx context.Context, accountID, mode, senderQualifier, senderID, receiverQualifier, receiverID string) (Partnership, error) {
	return scanPartnership(q.r.queryRow(ctx, `SELECT p.id, p.account_id, p.mode, p.partnership_type,
		p.local_profile_id, p.partner_profile_id, p.connection_id, p.created_at, p.updated_at
		FROM x12_partnerships p
		JOIN x12_profiles pp ON pp.account_id = p.account_id AND pp.mode = p.mode AND pp.id = p.partner_profile_id
		JOIN x12_profiles lp ON lp.account_id = p.account_id AND lp.mode = p.mode AND lp.id = p.local_profile_id
		WHERE p.account_id = $1 AND p.mode = $2
		  AND pp.isa_qualifier = $3 AND pp.isa_id = $4
		  AND lp.isa_qualifier = $5 AND lp.isa_id = $6
		ORDER BY p.id LIMIT 1`, accountID, mode,
		strings.TrimSpace(senderQualifier), strings.TrimSpace(senderID),
		strings.TrimSpace(receiverQualifier), strings.TrimSpace(receiverID)))
}

func scanPartnership(row scanner) (Partnership, error) {
	var p Partnership
	var conn sql.NullString
	var created, updated int64
	if err := row.Scan(&p.ID, &p.AccountID, &p.Mode, &p.Type, &p.LocalProfileID, &p.PartnerProfileID,
		&conn, &created, &updated); err != nil {
		return Partnership{}, mapErr(err)
	}
	p.ConnectionID = conn.String
	p.CreatedAt, p.UpdatedAt = fromUS(created), fromUS(updated)
	return p, nil
}

const settingColumns = `id, account_id, mode, partnership_id, direction, transaction_set_identifier, guide_id,
	fragments_enabled, fragments_batch_size, fragments_key_name, ack_999, ack_ta1, connection_id, created_at, updated_at,
	pass_through`

func (q *queries) CreateTransactionSetting(ctx context.Context, s TransactionSetting) error {
	_, err := q.w.exec(ctx, `INSERT INTO x12_transaction_settings (`+settingColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		s.ID, s.AccountID, s.Mode, s.PartnershipID, s.Direction, s.TransactionSetIdentifier, s.GuideID,
		boolInt(s.FragmentsEnabled), batchSize(s.FragmentsBatchSize), s.FragmentsKeyName,
		boolInt(s.Ack999), boolInt(s.AckTA1), nullString(s.ConnectionID),
		toUS(s.CreatedAt), toUS(updatedAt(s.CreatedAt, s.UpdatedAt)), boolInt(s.PassThrough))
	return mapErr(err)
}

func (q *queries) UpdateTransactionSetting(ctx context.Context, s TransactionSetting) error {
	return affected(q.w.exec(ctx, `UPDATE x12_transaction_settings SET partnership_id = $4, direction = $5,
		transaction_set_identifier = $6, guide_id = $7, fragments_enabled = $8, fragments_batch_size = $9,
		fragments_key_name = $10, ack_999 = $11, ack_ta1 = $12, connection_id = $13, updated_at = $14, pass_through = $15
		WHERE account_id = $1 AND mode = $2 AND id = $3`,
		s.AccountID, s.Mode, s.ID, s.PartnershipID, s.Direction, s.TransactionSetIdentifier, s.GuideID,
		boolInt(s.FragmentsEnabled), batchSize(s.FragmentsBatchSize), s.FragmentsKeyName,
		boolInt(s.Ack999), boolInt(s.AckTA1), nullString(s.ConnectionID), toUS(s.UpdatedAt), boolInt(s.PassThrough)))
}

var transactionSettings = partnerTable[TransactionSetting]{"x12_transaction_settings", settingColumns, scanSetting}

func (q *queries) GetTransactionSetting(ctx context.Context, accountID, mode, id string) (TransactionSetting, error) {
	return transactionSettings.get(ctx, q, accountID, mode, id)
}

func (q *queries) ListTransactionSettings(ctx context.Context, accountID, mode, partnershipID string) ([]TransactionSetting, error) {
	rows, err := q.r.query(ctx, `SELECT `+settingColumns+` FROM x12_transaction_settings
		WHERE account_id = $1 AND mode = $2 AND ($3 = '' OR partnership_id = $3)
		ORDER BY partnership_id, id`, accountID, mode, partnershipID)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanSetting)
}

func (q *queries) DeleteTransactionSetting(ctx context.Context, accountID, mode, id string) error {
	return transactionSettings.delete(ctx, q, accountID, mode, id)
}

func (q *queries) FindTransactionSetting(ctx context.Context, accountID, mode, partnershipID, direction, transactionSetIdentifier, guideID string) (TransactionSetting, error) {
	// The exact guide sorts first (0), then the guide-less setting (1),
	// then, only when no guide was asked for, any other guide (2).
	return scanSetting(q.r.queryRow(ctx, `SELECT `+settingColumns+` FROM x12_transaction_settings
		WHERE account_id = $1 AND mode = $2 AND partnership_id = $3 AND direction = $4
		  AND transaction_set_identifier = $5
		  AND ($6 = '' OR guide_id = $6 OR guide_id = '')
		ORDER BY CASE WHEN guide_id = $6 AND $6 <> '' THEN 0 WHEN guide_id = '' THEN 1 ELSE 2 END, id
		LIMIT 1`, accountID, mode, partnershipID, direction,
		strings.TrimSpace(transactionSetIdentifier), strings.TrimSpace(guideID)))
}

func scanSetting(row scanner) (TransactionSetting, error) {
	var s TransactionSetting
	var fragments, ack999, ackTA1, passThrough int64
	var conn sql.NullString
	var created, updated int64
	if err := row.Scan(&s.ID, &s.AccountID, &s.Mode, &s.PartnershipID, &s.Direction, &s.TransactionSetIdentifier,
		&s.GuideID, &fragments, &s.FragmentsBatchSize, &s.FragmentsKeyName, &ack999, &ackTA1, &conn,
		&created, &updated, &passThrough); err != nil {
		return TransactionSetting{}, mapErr(err)
	}
	s.FragmentsEnabled, s.Ack999, s.AckTA1, s.PassThrough = fragments != 0, ack999 != 0, ackTA1 != 0, passThrough != 0
	s.ConnectionID = conn.String
	s.CreatedAt, s.UpdatedAt = fromUS(created), fromUS(updated)
	return s, nil
}

const connectionColumns = `id, account_id, mode, connection_type, name, settings, sealed_secrets, created_at, updated_at`

func (q *queries) CreateConnection(ctx context.Context, c Connection) error {
	_, err := q.w.exec(ctx, `INSERT INTO x12_connections (`+connectionColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		c.ID, c.AccountID, c.Mode, c.Type, c.Name, settingsJSON(c.Settings), c.SealedSecrets,
		toUS(c.CreatedAt), toUS(updatedAt(c.CreatedAt, c.UpdatedAt)))
	return mapErr(err)
}

func (q *queries) UpdateConnection(ctx context.Context, c Connection) error {
	return affected(q.w.exec(ctx, `UPDATE x12_connections SET connection_type = $4, name = $5, settings = $6,
		sealed_secrets = $7, updated_at = $8 WHERE account_id = $1 AND mode = $2 AND id = $3`,
		c.AccountID, c.Mode, c.ID, c.Type, c.Name, settingsJSON(c.Settings), c.SealedSecrets, toUS(c.UpdatedAt)))
}

var connections = partnerTable[Connection]{"x12_connections", connectionColumns, scanConnection}

func (q *queries) GetConnection(ctx context.Context, accountID, mode, id string) (Connection, error) {
	return connections.get(ctx, q, accountID, mode, id)
}

func (q *queries) ListConnections(ctx context.Context, accountID, mode string) ([]Connection, error) {
	return connections.list(ctx, q, accountID, mode)
}

func (q *queries) DeleteConnection(ctx context.Context, accountID, mode, id string) error {
	return connections.delete(ctx, q, accountID, mode, id)
}

func scanConnection(row scanner) (Connection, error) {
	var c Connection
	var settings string
	var created, updated int64
	if err := row.Scan(&c.ID, &c.AccountID, &c.Mode, &c.Type, &c.Name, &settings, &c.SealedSecrets,
		&created, &updated); err != nil {
		return Connection{}, mapErr(err)
	}
	c.Settings = []byte(settings)
	c.CreatedAt, c.UpdatedAt = fromUS(created), fromUS(updated)
	return c, nil
}

// partnerTable reads and deletes the rows of one partner table, keyed by
// (account_id, mode, id) like all of them.
type partnerTable[T any] struct {
	table, columns string
	scan           func(scanner) (T, error)
}

func (t partnerTable[T]) get(ctx context.Context, q *queries, accountID, mode, id string) (T, error) {
	return t.scan(q.r.queryRow(ctx, `SELECT `+t.columns+` FROM `+t.table+`
		WHERE account_id = $1 AND mode = $2 AND id = $3`, accountID, mode, id))
}

func (t partnerTable[T]) list(ctx context.Context, q *queries, accountID, mode string) ([]T, error) {
	rows, err := q.r.query(ctx, `SELECT `+t.columns+` FROM `+t.table+`
		WHERE account_id = $1 AND mode = $2 ORDER BY id`, accountID, mode)
	if err != nil {
		return nil, err
	}
	return collect(rows, t.scan)
}

func (t partnerTable[T]) delete(ctx context.Context, q *queries, accountID, mode, id string) error {
	return affected(q.w.exec(ctx, `DELETE FROM `+t.table+` WHERE account_id = $1 AND mode = $2 AND id = $3`, accountID, mode, id))
}

// affected maps an UPDATE or DELETE that touched no row to ErrNotFound.
func affected(res sql.Result, err error) error {
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

// updatedAt is a new record's update time: its creation time unless set.
func updatedAt(created, updated time.Time) time.Time {
	if updated.IsZero() {
		return created
	}
	return updated
}

func partnershipType(t string) string {
	if t == "" {
		return PartnershipTypeX12
	}
	return t
}

func batchSize(n int) int {
	if n <= 0 {
		return DefaultFragmentsBatchSize
	}
	return n
}

func settingsJSON(b []byte) string {
	if len(b) == 0 {
		return "{}"
	}
	return string(b)
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
