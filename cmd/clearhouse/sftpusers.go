package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/store"
)

const sftpUsage = `Usage: clearhouse sftp users <create|list|delete> [options]

  users create --account NAME --mode test|production --username USER
               [--password-stdin] [--public-key FILE]
               adds a login of serve --sftp-listen: its uploads to inbound/
               enter that account's inbound path; give a password (read on
               stdin, stored as a bcrypt hash) and/or OpenSSH public keys
  users list   [--account NAME]   lists users (never secrets)
  users delete USER               removes a login

Every subcommand takes --data DIR and --database URL like 'clearhouse serve'.`

func runSFTP(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) < 2 || args[0] != "users" {
		fmt.Fprintln(stderr, sftpUsage)
		if len(args) > 0 && isHelp(args[len(args)-1]) {
			return errHelpShown
		}
		return &exitError{code: 2}
	}
	switch args[1] {
	case "create":
		return sftpUsersCreate(ctx, args[2:], os.Stdin, stdout, stderr)
	case "list":
		return sftpUsersList(ctx, args[2:], stdout, stderr)
	case "delete":
		return sftpUsersDelete(ctx, args[2:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stderr, sftpUsage)
		return errHelpShown
	}
	fmt.Fprintln(stderr, sftpUsage)
	return &exitError{code: 2, err: fmt.Errorf("unknown sftp users subcommand %q", args[1])}
}

func sftpUsersCreate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var db storeFlags
	var account, mode, username, keyFile string
	var passwordStdin bool
	fs := newFlagSet("sftp users create", "sftp users create --account NAME --mode MODE --username USER [options]",
		"Adds a login of the embedded SFTP server.", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "the account whose inbound path the uploads enter (required)")
	fs.StringVar(&mode, "mode", "", "test or production (required)")
	fs.StringVar(&username, "username", "", "login name: lower-case letters, digits, '.', '_', '-' (required)")
	fs.BoolVar(&passwordStdin, "password-stdin", false, "read the password from the first line of stdin")
	fs.StringVar(&keyFile, "public-key", "", "file of OpenSSH public keys (authorized_keys format) the user may log in with")
	commandLineOnly(fs, "account", "mode", "username", "password-stdin", "public-key")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	if account == "" || username == "" {
		return &exitError{code: 2, err: usageError(fs.Name(), "--account, --mode test|production and --username are required")}
	}
	if err := checkMode(mode); err != nil {
		return &exitError{code: 2, err: usageError(fs.Name(), err.Error())}
	}
	if !sftpUserPattern(username) {
		return &exitError{code: 2, err: fmt.Errorf("--username %q: use 1–64 lower-case letters, digits, '.', '_' or '-'", username)}
	}
	u := store.SFTPUser{Username: username, Mode: mode, CreatedAt: time.Now().UTC()}
	if passwordStdin {
		line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
		pw := strings.TrimRight(line, "\r\n")
		if (err != nil && err != io.EOF) || len(pw) < 12 {
			return &exitError{code: 2, err: errors.New("the password (first line of stdin) must have at least 12 characters")}
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
		if err != nil {
			return err
		}
		u.PasswordHash = string(hash)
	}
	if keyFile != "" {
		keys, err := readAuthorizedKeys(keyFile)
		if err != nil {
			return &exitError{code: 2, err: err}
		}
		u.PublicKeys = keys
	}
	if u.PasswordHash == "" && u.PublicKeys == "" {
		return &exitError{code: 2, err: errors.New("give --password-stdin and/or --public-key: a user needs a way to log in")}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	acc, err := st.GetAccountByName(ctx, account)
	if errors.Is(err, store.ErrNotFound) {
		return &exitError{code: 1, err: fmt.Errorf("no account named %q (create it with clearhouse keys create)", account)}
	} else if err != nil {
		return err
	}
	u.AccountID = acc.ID
	if err := st.CreateSFTPUser(ctx, u); errors.Is(err, store.ErrConflict) {
		return &exitError{code: 1, err: fmt.Errorf("the username %q is taken", username)}
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created SFTP user %s for account %q (%s): uploads to inbound/ enter its inbound path.\n", username, account, mode)
	return nil
}

// readAuthorizedKeys checks every key in the file and returns them, one
// per line.
func readAuthorizedKeys(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var keys []string
	for rest := data; len(strings.TrimSpace(string(rest))) > 0; {
		key, _, _, r, err := ssh.ParseAuthorizedKey(rest)
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		keys = append(keys, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))))
		rest = r
	}
	if len(keys) == 0 {
		return "", fmt.Errorf("%s holds no public key", path)
	}
	return strings.Join(keys, "\n"), nil
}

func sftpUserPattern(u string) bool {
	if len(u) == 0 || len(u) > 64 || strings.Contains(u, "..") {
		return false
	}
	for i, r := range u {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || (i > 0 && (r == '.' || r == '_' || r == '-'))
		if !ok {
			return false
		}
	}
	return true
}

func sftpUsersList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	var account string
	fs := newFlagSet("sftp users list", "sftp users list [--account NAME]", "Lists the SFTP users (never secrets).", stderr)
	db.add(fs)
	fs.StringVar(&account, "account", "", "list only this account's users")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	accountID := ""
	names := map[string]string{}
	accounts, err := st.ListAccounts(ctx)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		names[a.ID] = a.Name
		if a.Name == account {
			accountID = a.ID
		}
	}
	if account != "" && accountID == "" {
		return &exitError{code: 1, err: fmt.Errorf("no account named %q", account)}
	}
	users, err := st.ListSFTPUsers(ctx, accountID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "USERNAME\tACCOUNT\tMODE\tLOGIN\tCREATED\tFOLDER")
	for _, u := range users {
		var login []string
		if u.PasswordHash != "" {
			login = append(login, "password")
		}
		if n := len(strings.Fields(strings.ReplaceAll(u.PublicKeys, "\n", " | "))); u.PublicKeys != "" && n > 0 {
			login = append(login, fmt.Sprintf("%d key(s)", strings.Count(u.PublicKeys, "\n")+1))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", u.Username, names[u.AccountID], u.Mode, strings.Join(login, ", "),
			u.CreatedAt.Format(time.RFC3339), "sftp/"+u.AccountID+"/"+u.Mode+"/"+u.Username)
	}
	return tw.Flush()
}

func sftpUsersDelete(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var db storeFlags
	fs := newFlagSet("sftp users delete", "sftp users delete USER", "Removes an SFTP login.", stderr)
	db.add(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return &exitError{code: 2, err: errors.New("want one username")}
	}
	st, err := db.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.DeleteSFTPUser(ctx, rest[0]); errors.Is(err, store.ErrNotFound) {
		return &exitError{code: 1, err: fmt.Errorf("no SFTP user %q", rest[0])}
	} else if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Deleted SFTP user %s.\n", rest[0])
	return nil
}
