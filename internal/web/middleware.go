package web

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/textproto"
	"net/url"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// viewer is who is signed in, as the pages show it.
type viewer struct {
	auth.Principal
	AccountName string
	KeyName     string
	CSRF        string
	EDI         bool // the server runs the EDI core: files, transactions, webhooks
	session     session
}

type viewerKey struct{}

func viewerFrom(ctx context.Context) *viewer {
	v, _ := ctx.Value(viewerKey{}).(*viewer)
	return v
}

// contentSecurityPolicy allows only the console's own scripts and styles:
// no inline script, no eval (htmx is configured not to need them).
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// secure sets the headers every console page carries. Pages hold PHI, so
// nothing is cached.
func (c *Console) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		h.Add("Vary", "HX-Request")
		if msg := queryTooLong(r); msg != "" {
			c.showError(w, r, http.StatusBadRequest, "Search too long", msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// A page's address carries its filters and searches, which the page shows
// back in its form. No filter needs more than a few dozen characters (the
// longest value is sign-in's next, a page address, cut at 2,048 by
// safeNext): past these bounds the request is refused, so a crafted link
// cannot make a page echo hundreds of kilobytes.
const (
	maxQueryValue = 2048
	maxQuery      = 8 << 10
)

// queryTooLong says, in plain words, what is too long in r's address, or
// "" when nothing is.
func queryTooLong(r *http.Request) string {
	const msg = "What was searched for or filtered on is too long (over %s characters). Shorten it and try again."
	if len(r.URL.RawQuery) > maxQuery {
		return fmt.Sprintf(msg, "8,000")
	}
	for _, vs := range r.URL.Query() {
		for _, v := range vs {
			if len(v) > maxQueryValue {
				return fmt.Sprintf(msg, "2,000")
			}
		}
	}
	return ""
}

// session returns the request's verified session cookie.
func (c *Console) session(r *http.Request) (session, error) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return session{}, errNoSession
	}
	return c.sessions.decode(ck.Value)
}

// requireSession lets signed-in people through with their viewer in the
// context, after checking that their key still exists and is not revoked.
// Everyone else is sent to sign in.
func (c *Console) requireSession(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess, err := c.session(r)
		if err == nil && sess.KeyID == "" {
			err = errNoSession
		}
		var key store.APIKey
		if err == nil {
			key, err = c.cfg.Store.GetAPIKey(r.Context(), sess.KeyID)
			switch {
			case errors.Is(err, store.ErrNotFound):
				err = auth.ErrUnknownKey
			case err != nil:
				c.fail(w, r, err)
				return
			case key.Revoked():
				err = auth.ErrRevokedKey
			}
		}
		if err != nil {
			c.toSignIn(w, r, err)
			return
		}
		acct, err := c.cfg.Store.GetAccount(r.Context(), key.AccountID)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		v := &viewer{
			Principal:   auth.Principal{AccountID: key.AccountID, KeyID: key.ID, Mode: key.Mode},
			AccountName: acct.Name, KeyName: key.Name,
			CSRF: c.sessions.csrfToken(sess), session: sess, EDI: c.cfg.Core != nil,
		}
		ctx := httpkit.WithPrincipal(r.Context(), v.Principal) // names the account in the access log
		c.audited(r.Pattern, next)(w, r.WithContext(context.WithValue(ctx, viewerKey{}, v)))
	}
}

// toSignIn ends an unusable session and sends the visitor to sign in,
// saying why when there is something to say.
func (c *Console) toSignIn(w http.ResponseWriter, r *http.Request, why error) {
	if !errors.Is(why, errNoSession) {
		c.clearCookie(w, r)
	}
	q := url.Values{}
	switch {
	case errors.Is(why, auth.ErrRevokedKey):
		q.Set("reason", "revoked")
	case errors.Is(why, errExpiredSession):
		q.Set("reason", "expired")
	}
	if r.Method == http.MethodGet && r.URL.Path != "/" && len(r.URL.RequestURI()) <= maxQueryValue {
		q.Set("next", r.URL.RequestURI()) // longer, safeNext would drop it
	}
	target := "/signin"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	if isHTMX(r) {
		w.Header().Set("HX-Redirect", target)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// checkCSRF guards every POST: the browser must say the request comes from
// our own origin (Sec-Fetch-Site or Origin, via CrossOriginProtection), and
// the form must carry the session's synchronizer token.
func (c *Console) checkCSRF(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := viewerFrom(r.Context())
		if err := c.origin.Check(r); err != nil {
			c.forbidden(w, r, "This form was sent from another site, so it was refused.")
			return
		}
		if msg := unreadableForm(r); msg != "" {
			c.showError(w, r, http.StatusBadRequest, "Form not accepted", msg)
			return
		}
		if v == nil || !c.sessions.validCSRF(v.session, csrfFromRequest(r)) {
			c.forbidden(w, r, "This form has expired or was not sent from this console. Reload the page and try again.")
			return
		}
		next(w, r)
	}
}

// unreadableForm parses a multipart form (an upload) before its token is
// read from it, and says in plain words what is wrong when a part's header
// cannot be read: a file name with a NUL or another control character, which
// Go's MIME reader refuses. The token inside is then unreadable too, and
// without this the form was refused as expired, which it was not. Other
// errors are left to the token check, as before.
func unreadableForm(r *http.Request) string {
	if r.Header.Get("X-CSRF-Token") != "" {
		return ""
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return ""
	}
	var pe textproto.ProtocolError
	if err := r.ParseMultipartForm(maxFormMemory); errors.As(err, &pe) {
		return "The file's name contains a character that cannot be sent in a form (such as NUL or another control character). Rename the file with letters, digits, dots, dashes or underscores and upload it again."
	}
	return ""
}

// maxFormMemory is how much of a multipart form is held in memory, the
// rest in temporary files: net/http's own default, which PostFormValue
// used when it parsed the form here.
const maxFormMemory = 32 << 20

// csrfFromRequest reads the token from the form or the X-CSRF-Token header.
func csrfFromRequest(r *http.Request) string {
	if t := r.Header.Get("X-CSRF-Token"); t != "" {
		return t
	}
	return r.PostFormValue("csrf")
}

// setCookie sends the session cookie: HttpOnly, SameSite=Lax (a link from
// elsewhere opens a page signed in, but no other site can post), Secure
// when the browser reached us over HTTPS (directly or via a proxy).
func (c *Console) setCookie(w http.ResponseWriter, r *http.Request, sess session) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: c.sessions.encode(sess), Path: "/",
		Expires: sess.Expires, MaxAge: int(sess.Expires.Sub(c.cfg.Clock.Now()).Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overHTTPS(r),
	})
}

func (c *Console) clearCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overHTTPS(r),
	})
}

// overHTTPS: a proxy's X-Forwarded-Proto may only make the cookie stricter,
// so trusting it is safe.
func overHTTPS(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
}

func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// tenant is the store as the signed-in viewer sees it: its account in
// its mode. Pages read tenant records only through it (store.Tenant).
func (c *Console) tenant(v *viewer) store.Tenant {
	return store.ForTenant(c.cfg.Store, store.Scope{AccountID: v.AccountID, Mode: v.Mode})
}
