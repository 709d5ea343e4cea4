package web

import (
	"net/http"
	"net/url"
	"slices"
)

// Destructive console actions (revoking a key, disabling a webhook,
// rotating its secret) ask first. The confirmation is the server's: the
// action's POST without confirm=yes answers a page that says what will
// happen and posts the same form again with confirm=yes, so no script is
// needed and a stray click, or a form submitted from another page that
// got past CSRF somehow, changes nothing on its own.

type confirmData struct {
	Heading     string
	Question    string
	Consequence string
	Action      string // the path the confirmed form posts to
	Button      string
	Cancel      string // where "Keep it" leads
	Fields      url.Values
}

// confirmed reports whether r carries confirm=yes; when not, it answers the
// confirmation page (status 200) for the same action and form fields.
func (c *Console) confirmed(w http.ResponseWriter, r *http.Request, d confirmData) bool {
	if r.PostFormValue("confirm") == "yes" {
		return true
	}
	d.Action = r.URL.Path
	d.Fields = url.Values{}
	for name, values := range r.PostForm {
		if !slices.Contains([]string{"csrf", "confirm"}, name) {
			d.Fields[name] = values
		}
	}
	c.renderPage(w, r, http.StatusOK, "confirm", page{Title: d.Heading, Data: d})
	return false
}
