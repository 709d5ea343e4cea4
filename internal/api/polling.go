package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// pollTransactions is GET /2023-08-01/polling/transactions (the hosted
// API's Polling API): the key's transactions processed after
// startDateTime, oldest first, so a client (another Clearhouse in front of
// this one) resumes where it stopped. Either startDateTime or pageToken is
// required; nextPageToken is there while more results are.
func (h fileHandlers) pollTransactions(w http.ResponseWriter, r *http.Request) {
	p := httpkit.PrincipalFrom(r.Context())
	l := parseListQuery(r)
	start := l.time("startDateTime")
	switch {
	case l.Token == "" && l.q.Get("startDateTime") == "":
		l.fail("startDateTime", "send startDateTime (an ISO 8601 time such as 2024-08-01T00:00:00Z: transactions processed after it) or the pageToken of a previous answer")
	case !start.IsZero() && start.After(time.Now()):
		l.fail("startDateTime", "is in the future ("+strconv.Quote(l.q.Get("startDateTime"))+"); send a time in the past")
	case len(l.Token) > 1024:
		l.fail("pageToken", "is longer than 1024 characters; send the nextPageToken of a previous answer unchanged")
	}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	f := store.TransactionFilter{Mode: p.Mode, From: start, Limit: l.PageSize, Cursor: l.Token, Ascending: true}
	h.writeTransactions(w, r, f)
}
