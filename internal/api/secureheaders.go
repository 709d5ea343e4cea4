package api

import "net/http"

// apiContentSecurityPolicy is on every response the server sends (the
// console's pages replace it with their own): an API answer is data, so a
// browser that is tricked into opening one must run nothing, load nothing
// and show it in no frame.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox"

// documentContentSecurityPolicy is on every stored document served: it runs
// in a sandbox (an opaque origin, no scripts) with nothing loaded.
const documentContentSecurityPolicy = "sandbox; default-src 'none'"

// setSecurityHeaders sets the headers every response carries, and the
// request's id, before any handler runs; a handler (the console) may
// replace them. Their values share one array (Header.Set allocates a
// slice for each, on every request); each header's slice ends where its
// value does, so an Add to one never writes into the next.
func setSecurityHeaders(h http.Header, requestID string) {
	v := []string{requestID, "nosniff", apiContentSecurityPolicy, "DENY", "no-referrer"}
	h["X-Request-Id"] = v[0:1:1]
	h["X-Content-Type-Options"] = v[1:2:2]
	h["Content-Security-Policy"] = v[2:3:3]
	h["X-Frame-Options"] = v[3:4:4]
	h["Referrer-Policy"] = v[4:5:5]
}

// inertDocument sets the headers of a stored document (a file's contents,
// Guide JSON, an artifact, a PDF): saved, never rendered. contentType must
// come from a fixed list (core.ServedContentType); fileName must be plain
// (letters, digits, '.', '-', '_').
func inertDocument(h http.Header, contentType, fileName string) {
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", `attachment; filename="`+fileName+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", documentContentSecurityPolicy)
	h.Set("Cache-Control", "private, no-store")
}
