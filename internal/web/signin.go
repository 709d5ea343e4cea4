package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/httpkit"
)

// signInForm is the sign-in page's data.
type signInForm struct {
	CSRF   string
	Next   string
	Notice string // why the visitor is here (expired, revoked, signed out)
	Error  string // why the key was refused
}

var signInNotices = map[string]string{
	"expired":   "Your session expired. Sign in again to continue.",
	"revoked":   "The API key of your session has been revoked. Sign in with another key.",
	"signedout": "You have signed out.",
}

// signInPage shows the form. A visitor gets an anonymous session cookie
// whose token protects the form (no login CSRF).
func (c *Console) signInPage(w http.ResponseWriter, r *http.Request) {
	sess, err := c.session(r)
	if err == nil && sess.KeyID != "" {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	if err != nil {
		sess = c.sessions.start("", anonymousTTL)
		c.setCookie(w, r, sess)
	}
	c.renderPage(w, r, http.StatusOK, "signin", page{Title: "Sign in", Data: signInForm{
		CSRF: c.sessions.csrfToken(sess), Next: safeNext(r.URL.Query().Get("next")),
		Notice: signInNotices[r.URL.Query().Get("reason")],
	}})
}

// signIn checks the key and starts a signed-in session with a new nonce
// (the anonymous one is discarded: no session fixation).
func (c *Console) signIn(w http.ResponseWriter, r *http.Request) {
	anon, err := c.session(r)
	if err != nil {
		c.forbidden(w, r, "Your browser did not send the sign-in cookie. Allow cookies for this site, reload the sign-in page and try again.")
		return
	}
	if err := c.origin.Check(r); err != nil || !c.sessions.validCSRF(anon, r.PostFormValue("csrf")) {
		c.forbidden(w, r, "This sign-in form has expired or was not sent from this console. Reload the page and try again.")
		return
	}
	form := signInForm{CSRF: c.sessions.csrfToken(anon), Next: safeNext(r.PostFormValue("next"))}
	// Keys tried from one address are limited as the API's are: the form
	// must not be a faster way to guess them.
	addr := httpkit.SourceOf(r)
	if blocked, wait := c.signInFailures.Blocked(addr, time.Now()); blocked {
		w.Header().Set("Retry-After", strconv.Itoa(max(int(wait.Seconds()+0.999), 1)))
		form.Error = fmt.Sprintf("Too many keys that were not accepted were tried from your network. Wait %d seconds, then paste your key again.", max(int(wait.Seconds()+0.999), 1))
		c.renderPage(w, r, http.StatusTooManyRequests, "signin", page{Title: "Sign in", Data: form})
		return
	}
	key := strings.TrimSpace(r.PostFormValue("key"))
	p, err := auth.Authenticator{Keys: c.cfg.Store}.Authenticate(r.Context(), key)
	if err != nil && !errors.Is(err, auth.ErrMissingKey) {
		c.signInFailures.Failed(addr, time.Now())
	}
	if err != nil {
		status := http.StatusUnauthorized
		switch {
		case errors.Is(err, auth.ErrMissingKey):
			form.Error = "Enter your API key."
		case errors.Is(err, auth.ErrMalformedKey):
			form.Error = "This is not an API key: a key starts with test_ or live_ and is one long line. Paste the whole key you were given."
		case errors.Is(err, auth.ErrUnknownKey):
			form.Error = "This API key was not accepted: this server did not issue it, or part of it is missing. Paste it again; if it still fails, ask your administrator for a new key."
		case errors.Is(err, auth.ErrRevokedKey):
			form.Error = "This API key has been revoked. Ask your administrator for a new one."
		default:
			c.fail(w, r, err)
			return
		}
		c.renderPage(w, r, status, "signin", page{Title: "Sign in", Data: form})
		return
	}
	c.sessions.end(anon)
	c.setCookie(w, r, c.sessions.start(p.KeyID, c.cfg.SessionTTL))
	http.Redirect(w, r, form.Next, http.StatusSeeOther)
}

// signOut ends the session on both sides.
func (c *Console) signOut(w http.ResponseWriter, r *http.Request) {
	c.sessions.end(viewerFrom(r.Context()).session)
	c.clearCookie(w, r)
	if isHTMX(r) {
		w.Header().Set("HX-Redirect", "/signin?reason=signedout")
		return
	}
	http.Redirect(w, r, "/signin?reason=signedout", http.StatusSeeOther)
}

// safeNext keeps a post-sign-in destination only if it is a clean path of
// this site; anything else goes to a new check. Browsers forgive a lot in a
// Location header (tabs and newlines are dropped, a backslash reads as a
// slash, "/\t/evil.example" becomes "//evil.example", a host), so the rule
// is strict and checked on the value as sent and after each layer of
// percent-decoding: it starts with one "/", has no "//", no backslash, no
// control, space or invisible character, and parses as a bare path.
func safeNext(next string) string {
	const home = "/checks/new"
	if len(next) > 2048 || !cleanPath(next) {
		return home
	}
	// The path decides where a browser goes; it is checked again after each
	// layer of decoding. The query only has to be free of control
	// characters (checked above), so a filter such as ?payer=Blue%20Cross
	// survives.
	v, _, _ := strings.Cut(next, "?")
	for i := 0; ; i++ {
		decoded, err := url.PathUnescape(v)
		if err != nil || i == 3 {
			return home // malformed, or encoded more deeply than any link of ours
		}
		if decoded == v {
			break
		}
		if !cleanPath(decoded) {
			return home
		}
		v = decoded
	}
	if v == "/signin" || strings.HasPrefix(v, "/signin/") {
		return home
	}
	return next
}

// cleanPath reports whether s is a same-origin path by the rules above.
func cleanPath(s string) bool {
	if !strings.HasPrefix(s, "/") || strings.Contains(s, "//") {
		return false
	}
	for _, r := range s {
		if r == '\\' || r < 0x21 || r == 0x7f || unicode.IsSpace(r) || !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme == "" && u.Host == "" && u.User == nil && u.Opaque == "" && strings.HasPrefix(u.Path, "/")
}
