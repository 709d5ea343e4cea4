package api

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// storedHeaders are the request headers handlers read as text that reaches
// the database.
var storedHeaders = []string{"Idempotency-Key", "Service-Transaction-Setting-Id"}

// unstorable says s is text no record can hold: not UTF-8, or with a NUL
// character. PostgreSQL refuses both (SQLite stores them), so such a path,
// filter or header reached the database and answered 500 or 503 there —
// "retry shortly" for a request that can never succeed.
func unstorable(s string) bool { return !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 }

// checkRequestText refuses, before any handler runs, a request whose path,
// query parameters or stored headers are unstorable, naming which.
func checkRequestText(r *http.Request) *Error {
	const fix = "is not UTF-8 text or holds a NUL character; send UTF-8 text (percent-encoded in a URL)"
	if unstorable(r.URL.Path) {
		return Validation(FieldError{Path: "/path", Message: "the path " + fix})
	}
	var query map[string][]string // url.Values; parsing an empty query still makes a map
	if r.URL.RawQuery != "" {
		query = r.URL.Query()
	}
	for name, values := range query {
		if unstorable(name) {
			return Validation(FieldError{Path: "/query/" + strconv.QuoteToASCII(name), Message: "the parameter's name " + fix})
		}
		for _, v := range values {
			if unstorable(v) {
				return Validation(FieldError{Path: "/query/" + name, Message: fix})
			}
		}
	}
	for _, h := range storedHeaders {
		if unstorable(r.Header.Get(h)) {
			return Validation(FieldError{Path: h, Message: "the header " + fix})
		}
	}
	return nil
}
