package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/httpkit"
)

//go:embed templates
var templateFiles embed.FS

// checkPages are the eligibility pages.
var checkPages = []string{"signin", "check_new", "check_result", "history", "error"}

// pageFiles are the full pages of every family; each is parsed with the
// layout and every partial into its own template set, so their "content"
// blocks never clash. Families declare theirs beside their handlers; this
// is the one place they are gathered (no init() appends to a table).
func pageFiles() []string {
	return slices.Concat(checkPages, ediPages, claimPages, auditPages, practicePages, simulatorPages)
}

// templateFuncs are the template functions of every family.
func templateFuncs() template.FuncMap {
	all := template.FuncMap{}
	for _, family := range []template.FuncMap{formatFuncs, ediFuncs, claimFuncs, auditFuncs, practiceFuncs} {
		maps.Copy(all, family)
	}
	return all
}

// parsePages parses every page. The fragments htmx asks for ("check_form",
// "result", "payer_options", ...) are reachable from any page's set.
func parsePages() (map[string]*template.Template, error) {
	base, err := template.New("").Funcs(templateFuncs()).ParseFS(templateFiles, "templates/partials/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	pages := make(map[string]*template.Template)
	for _, name := range pageFiles() {
		t, err := base.Clone()
		if err == nil {
			t, err = t.ParseFS(templateFiles, "templates/layout.html", "templates/"+name+".html")
		}
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}

// page is what every full page gets.
type page struct {
	Title  string
	Nav    string // "new", "history": the current section
	Viewer *viewer
	Data   any
}

// Test reports whether the signed-in key is a test key.
func (p page) Test() bool { return p.Viewer != nil && p.Viewer.IsTest() }

// renderPage writes a full page, or only its named fragment for htmx.
func (c *Console) renderPage(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	if p.Viewer == nil {
		p.Viewer = viewerFrom(r.Context())
	}
	c.render(w, r, status, name, "layout", p)
}

// render executes template tmpl of page set name into a buffer first, so
// a template error becomes a clean 500 instead of half a page.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name, tmpl string, data any) {
	var buf bytes.Buffer
	if err := c.pages[name].ExecuteTemplate(&buf, tmpl, data); err != nil {
		c.cfg.Logger.Error("web: template failed", "template", name+"/"+tmpl, "error", err.Error())
		http.Error(w, "Internal error rendering the page.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorPage is the body of the error page.
type errorPage struct {
	Status  int
	Heading string
	Message string
}

// showError answers with the error page, or for htmx with the message in
// the page's alert region.
func (c *Console) showError(w http.ResponseWriter, r *http.Request, status int, heading, msg string) {
	e := errorPage{Status: status, Heading: heading, Message: msg}
	if isHTMX(r) {
		w.Header().Set("HX-Retarget", "#alert")
		w.Header().Set("HX-Reswap", "innerHTML")
		c.render(w, r, status, "error", "alert", e)
		return
	}
	c.renderPage(w, r, status, "error", page{Title: heading, Data: e})
}

func (c *Console) forbidden(w http.ResponseWriter, r *http.Request, msg string) {
	c.showError(w, r, http.StatusForbidden, "Request refused", msg)
}

func (c *Console) notFound(w http.ResponseWriter, r *http.Request) {
	c.showError(w, r, http.StatusNotFound, "Not found",
		"There is no such check in this account. It may belong to another account, or the link is mistyped.")
}

// fail logs an unexpected error (never PHI: store and template errors only)
// and shows a generic 500 with the request id to quote.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, err error) {
	httpkit.Logger(r.Context()).Error("web: internal error", "path", r.URL.Path, "error", err.Error())
	c.showError(w, r, http.StatusInternalServerError, "Something went wrong",
		"The console could not complete this request. Quote request id "+httpkit.RequestID(r.Context())+" when reporting it.")
}

//go:embed static
var staticFiles embed.FS

// staticVersions maps each static file to a short hash of its content, so
// asset URLs change when the file does and can be cached for a year.
var staticVersions = func() map[string]string {
	m := map[string]string{}
	entries, _ := fs.ReadDir(staticFiles, "static")
	for _, e := range entries {
		b, _ := fs.ReadFile(staticFiles, "static/"+e.Name())
		m[e.Name()] = contentHash(b)
	}
	return m
}()

// assetURL is the versioned URL of a static file.
func assetURL(name string) string {
	return "/static/" + name + "?v=" + staticVersions[name]
}

// serveFavicon answers browsers that ask for /favicon.ico on their own.
func serveFavicon(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, assetURL("favicon.svg"), http.StatusMovedPermanently)
}

// serveStatic serves the embedded assets. Versioned URLs are immutable.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := path.Base(r.PathValue("file"))
	if _, ok := staticVersions[name]; !ok || strings.HasSuffix(name, ".md") {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("v") == staticVersions[name] {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	http.ServeFileFS(w, r, staticFiles, "static/"+name)
}
