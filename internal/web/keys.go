package web

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store"
)

// The API keys page: the signed-in account's keys, a new key (shown once)
// and revocation. Another account's keys are never listed nor revoked.

type keysData struct {
	Keys   []store.APIKey
	NewKey string // shown once, after create
	Notice string
	Error  string
}

func (c *Console) keysPage(w http.ResponseWriter, r *http.Request) {
	c.showKeys(w, r, http.StatusOK, keysData{})
}

func (c *Console) showKeys(w http.ResponseWriter, r *http.Request, status int, data keysData) {
	v := viewerFrom(r.Context())
	keys, err := c.cfg.Store.ListAPIKeys(r.Context(), v.AccountID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	data.Keys = keys
	c.renderPage(w, r, status, "keys", page{Title: "API keys", Nav: "keys", Data: data})
}

// createKey issues a key of the signed-in key's mode for its account.
func (c *Console) createKey(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	label := strings.TrimSpace(r.PostFormValue("label"))
	if label == "" || len(label) > 80 {
		c.showKeys(w, r, http.StatusBadRequest, keysData{Error: "Name the key (at most 80 characters), for example the system or person that uses it."})
		return
	}
	plain, _, err := auth.CreateKey(r.Context(), c.cfg.Store, v.AccountName, v.Mode, label, time.Now())
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.showKeys(w, r, http.StatusOK, keysData{NewKey: plain, Notice: "Key created."})
}

// revokeKey revokes one of the account's keys at once, once confirmed.
// A session of a test key revokes test keys only: a production key runs
// real claims, and test keys are the ones handed out freely.
func (c *Console) revokeKey(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	k, err := c.cfg.Store.GetAPIKey(r.Context(), r.PathValue("id"))
	if err == nil && k.AccountID != v.AccountID {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		c.missing(w, r, "key")
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if !canRevoke(v.Mode, k.Mode) {
		c.forbidden(w, r, "You are signed in with a test key, which cannot revoke production keys. Sign in with a production key of this account to revoke "+k.ID+".")
		return
	}
	if k.Revoked() {
		c.showKeys(w, r, http.StatusOK, keysData{Notice: "Key " + k.ID + " was already revoked."})
		return
	}
	if !c.confirmed(w, r, confirmData{Heading: "Revoke key " + k.ID + "?", Button: "Revoke key " + k.ID, Cancel: "/keys",
		Question:    "Revoke the " + k.Mode + " key " + k.ID + keyLabel(k) + "?",
		Consequence: "Every system that uses it is refused from the next request, and every console session signed in with it ends. This cannot be undone."}) {
		return
	}
	if err := c.cfg.Store.RevokeAPIKey(r.Context(), k.ID, time.Now()); err != nil {
		c.fail(w, r, err)
		return
	}
	c.showKeys(w, r, http.StatusOK, keysData{Notice: "Key " + k.ID + " revoked: it no longer works."})
}

// canRevoke says whether a session of a key of mode may revoke a key of
// target mode.
func canRevoke(mode, target string) bool {
	return mode == store.ModeProduction || target == store.ModeTest
}

func keyLabel(k store.APIKey) string {
	if k.Name == "" {
		return ""
	}
	return " (“" + k.Name + "”)"
}
