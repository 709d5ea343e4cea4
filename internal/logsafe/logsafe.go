// Package logsafe says what kind of failure an error is, for the log,
// without its text. The text of an error that crossed a connection can
// hold what the other side sent back — an upstream clearinghouse's or a
// payer's message echoing a member's name and id, an SFTP server's file
// names, a webhook receiver's URL with its token — and the log is read by
// people and systems that may see no PHI and no secrets. So the log gets
// the class of the failure (time limit, refused connection, HTTP status,
// the connection and step that failed); the full text stays where the
// tenant reads it (the file's delivery record, the check's answer), under
// the tenant's scope and audit.
package logsafe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"strings"
	"syscall"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

// Describer is an error that can describe itself for the log from what
// it knows is safe (ids, steps, status codes, codes of its own), never
// from text a remote party sent.
type Describer interface {
	LogSafe() string
}

// Error is the log attribute "error" for err (Describe).
func Error(err error) slog.Attr { return slog.String("error", Describe(err)) }

// Describe names the class of err: its own LogSafe when an error in the
// chain has one, else the class of a standard network, TLS, file or
// context error, else only its Go type. Errors joined (errors.Join) are
// described one by one.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var parts []string
		for _, e := range j.Unwrap() {
			if e != nil {
				parts = append(parts, Describe(e))
			}
		}
		return strings.Join(parts, "; ")
	}
	var d Describer
	if errors.As(err, &d) {
		return d.LogSafe()
	}
	return Class(err)
}

// Class is the class of a standard error (Describe without Describers):
// what a Describer uses for the error it wraps.
func Class(err error) string {
	var (
		dns     *net.DNSError
		path    *fs.PathError
		errno   syscall.Errno
		op      *net.OpError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		record  tls.RecordHeaderError
	)
	switch {
	case err == nil:
		return ""
	case errors.Is(err, netguard.ErrBlocked):
		return "address refused by the SSRF guard"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, syscall.ETIMEDOUT):
		return "time limit"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "dns: no such host"
		}
		return "dns: lookup failed"
	case errors.As(err, &path):
		return "file " + path.Op + ": " + Class(path.Err)
	case errors.As(err, &op):
		return "network " + op.Op + ": " + Class(op.Err)
	case errors.As(err, &errno):
		// The operating system's words for its own error number.
		return errno.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &invalid), errors.As(err, &record):
		return "tls: certificate or handshake refused"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return "connection closed"
	}
	var to interface{ Timeout() bool }
	if errors.As(err, &to) && to.Timeout() {
		return "time limit"
	}
	return fmt.Sprintf("error of type %T", innermost(err))
}

// innermost is the last error of err's chain (the one that says what
// failed first).
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
