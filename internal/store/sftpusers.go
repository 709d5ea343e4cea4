package store

import (
	"context"
	"time"
)

// SFTPUser is a login of the embedded SFTP server. Its uploads enter the
// inbound path of AccountID in Mode.
type SFTPUser struct {
	Username  string
	AccountID string
	Mode      string
	// PasswordHash is a bcrypt hash ("" when the user has no password).
	PasswordHash string
	// PublicKeys are OpenSSH authorized_keys lines, one per line.
	PublicKeys string
	CreatedAt  time.Time
}

// SFTPUsers stores the embedded SFTP server's logins. Usernames are unique
// across accounts (they are what a partner types); CreateSFTPUser fails
// with ErrConflict for a taken one.
type SFTPUsers interface {
	CreateSFTPUser(ctx context.Context, u SFTPUser) error
	// GetSFTPUser is the lookup at login, before any account is known.
	GetSFTPUser(ctx context.Context, username string) (SFTPUser, error)
	// ListSFTPUsers lists one account's users; accountID "" lists all.
	ListSFTPUsers(ctx context.Context, accountID string) ([]SFTPUser, error)
	DeleteSFTPUser(ctx context.Context, username string) error
}

const sftpUserColumns = `username, account_id, mode, password_hash, public_keys, created_at`

func (q *queries) CreateSFTPUser(ctx context.Context, u SFTPUser) error {
	_, err := q.w.exec(ctx, `INSERT INTO sftp_users (`+sftpUserColumns+`) VALUES ($1, $2, $3, $4, $5, $6)`,
		u.Username, u.AccountID, u.Mode, u.PasswordHash, u.PublicKeys, toUS(u.CreatedAt))
	return mapErr(err)
}

func (q *queries) GetSFTPUser(ctx context.Context, username string) (SFTPUser, error) {
	return scanSFTPUser(q.r.queryRow(ctx, `SELECT `+sftpUserColumns+` FROM sftp_users WHERE username = $1`, username))
}

func (q *queries) ListSFTPUsers(ctx context.Context, accountID string) ([]SFTPUser, error) {
	rows, err := q.r.query(ctx, `SELECT `+sftpUserColumns+` FROM sftp_users WHERE $1 = '' OR account_id = $1 ORDER BY username`, accountID)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanSFTPUser)
}

func (q *queries) DeleteSFTPUser(ctx context.Context, username string) error {
	res, err := q.w.exec(ctx, `DELETE FROM sftp_users WHERE username = $1`, username)
	if err != nil {
		return mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func scanSFTPUser(row scanner) (SFTPUser, error) {
	var u SFTPUser
	var created int64
	if err := row.Scan(&u.Username, &u.AccountID, &u.Mode, &u.PasswordHash, &u.PublicKeys, &created); err != nil {
		return SFTPUser{}, mapErr(err)
	}
	u.CreatedAt = fromUS(created)
	return u, nil
}
