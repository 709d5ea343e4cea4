-- The users of the embedded SFTP server (serve --sftp-listen): a login name
-- unique across the installation, the account and mode whose inbound path
-- its uploads enter, and how it logs in: a bcrypt hash of its password
-- and/or OpenSSH public keys (authorized_keys lines). No plaintext secret
-- is stored.

-- +goose Up
CREATE TABLE sftp_users (
    username      TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    mode          TEXT NOT NULL CHECK (mode IN ('test', 'production')),
    password_hash TEXT NOT NULL DEFAULT '',
    public_keys   TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE INDEX sftp_users_account ON sftp_users (account_id, mode);

-- +goose Down
DROP TABLE sftp_users;
