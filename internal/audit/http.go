package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path"
	"strings"
)

// Rule says what a route's requests do to which resource, and where the
// resource's id is: a path value (IDParam), a response header (IDHeader),
// the last segment of the answer's Location (IDFromLocation), or a field
// of the JSON answer (IDFromBody: "id", "executionId" or
// "claimReference.correlationId"). A list names no resource.
type Rule struct {
	Action         string
	ResourceType   string
	IDParam        string
	IDHeader       string
	IDFromLocation bool
	IDFromBody     bool
	// OwnCommit keeps the entry out of the handler's transaction (Join):
	// for a page that answers a redirect, not the status the domain
	// records, the handler's entry would not cover the answer and the
	// request would be recorded twice.
	OwnCommit bool
}

// Caller is who makes the request; ok false when it is not known (the
// request is then served unrecorded: the route's own authentication
// refuses it).
type Caller func(r *http.Request) (accountID, mode, actorType, actorID string, ok bool)

// maxBuffered bounds an answer held back to read its id (IDFromBody).
const maxBuffered = 1 << 20

// Wrap returns h recording rule for every request it serves: the event is
// committed once the handler has chosen its status, and before any byte of
// the answer is written, so no answer leaves without its audit entry. When
// the event cannot be committed, unavailable answers instead (a 503) and
// the handler's answer is dropped.
func (rec *Recorder) Wrap(rule Rule, caller Caller, unavailable http.HandlerFunc, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		account, mode, actorType, actorID, ok := caller(r)
		if !ok {
			h.ServeHTTP(w, r)
			return
		}
		aw := &auditWriter{w: w, r: r, rec: rec, rule: rule, unavailable: unavailable,
			entry: Entry{AccountID: account, Mode: mode, ActorType: actorType, ActorID: actorID,
				RemoteAddr: r.RemoteAddr, Action: rule.Action, ResourceType: rule.ResourceType, Route: r.Pattern}}
		if rule.IDParam != "" {
			aw.entry.ResourceID = r.PathValue(rule.IDParam)
		}
		if !rule.OwnCommit {
			aw.join = Joined{a: aw}
			aw.joined = &aw.join
			aw.ctx = joinContext{Context: r.Context(), j: aw.joined}
			r = r.WithContext(&aw.ctx)
			aw.r = r
		}
		h.ServeHTTP(aw, r)
		aw.finish()
	})
}

// joinContext is context.WithValue(ctx, joinKey{}, j) kept inside the
// auditWriter, not allocated beside it.
type joinContext struct {
	context.Context
	j *Joined
}

func (c *joinContext) Value(key any) any {
	if key == (joinKey{}) {
		return c.j
	}
	return c.Context.Value(key)
}

// auditWriter holds the answer back until its event is committed.
type auditWriter struct {
	w           http.ResponseWriter
	r           *http.Request
	rec         *Recorder
	rule        Rule
	entry       Entry
	unavailable http.HandlerFunc
	joined      *Joined     // the entry as the handler's transaction recorded it (Join); nil for OwnCommit
	join        Joined      // what joined points to: one allocation for both
	ctx         joinContext // the handler's context, carrying joined: in the same allocation

	status   int  // chosen by the handler; 0 until then
	recorded bool // the event is committed (or failed)
	failed   bool // it could not be: the answer is dropped
	buf      bytes.Buffer
}

func (a *auditWriter) Header() http.Header { return a.w.Header() }

// Unwrap lets http.ResponseController reach the connection.
func (a *auditWriter) Unwrap() http.ResponseWriter { return a.w }

func (a *auditWriter) WriteHeader(code int) {
	if a.status != 0 {
		return
	}
	if code >= 100 && code < 200 {
		a.w.WriteHeader(code)
		return
	}
	a.status = code
	if !a.rule.IDFromBody {
		a.commit()
	}
}

func (a *auditWriter) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	if a.failed {
		return len(p), nil
	}
	if !a.recorded {
		if a.buf.Len()+len(p) <= maxBuffered {
			return a.buf.Write(p)
		}
		a.commit() // too large to hold: recorded without the id
		if a.failed {
			return len(p), nil
		}
	}
	return a.w.Write(p)
}

// Flush sends what the handler wrote so far (streamed answers), once the
// event is committed.
func (a *auditWriter) Flush() { a.FlushError() }

// FlushError is Flush for http.ResponseController. The writer below is
// reached through http.ResponseController too: the API's access-log
// writer is no http.Flusher itself, only Unwraps to net/http's.
func (a *auditWriter) FlushError() error {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	if !a.recorded {
		a.commit()
	}
	if a.failed {
		return nil
	}
	return http.NewResponseController(a.w).Flush()
}

// commit records the event, then sends the status and anything held back;
// on failure, the unavailable answer instead.
func (a *auditWriter) commit() {
	if a.recorded {
		return
	}
	a.recorded = true
	a.entry.Status = a.status
	switch {
	case a.rule.IDHeader != "":
		a.entry.ResourceID = a.w.Header().Get(a.rule.IDHeader)
	case a.rule.IDFromLocation:
		if loc := a.w.Header().Get("Location"); loc != "" && a.status < 400 {
			a.entry.ResourceID = path.Base(strings.SplitN(loc, "?", 2)[0])
		}
	case a.rule.IDFromBody && a.status < 400 && a.joined.covers(a.status, a.joined.id):
		a.entry.ResourceID = a.joined.id // the handler named it; no need to parse the answer
	case a.rule.IDFromBody && a.status < 400:
		a.entry.ResourceID = idInBody(a.buf.Bytes())
	}
	// An entry the handler's transaction committed (Join) is not
	// recorded twice.
	if !a.joined.covers(a.status, a.entry.ResourceID) {
		// The answer is being written: the client going away must not
		// stop the record of what it was given.
		ctx := context.WithoutCancel(a.r.Context())
		if _, err := a.rec.Record(ctx, a.entry); err != nil {
			a.failed = true
			for k := range a.w.Header() {
				delete(a.w.Header(), k)
			}
			a.unavailable(a.w, a.r)
			return
		}
	}
	a.w.WriteHeader(a.status)
	if a.buf.Len() > 0 {
		a.w.Write(a.buf.Bytes())
		a.buf.Reset()
	}
}

// finish commits an answer the handler held entirely (or never wrote).
func (a *auditWriter) finish() {
	if a.status == 0 {
		a.WriteHeader(http.StatusOK)
	}
	a.commit()
}

// idInBody reads a created resource's id from a JSON answer.
func idInBody(b []byte) string {
	var v struct {
		ID             string `json:"id"`
		ExecutionID    string `json:"executionId"`
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	switch {
	case v.ClaimReference.CorrelationID != "":
		return v.ClaimReference.CorrelationID
	case v.ExecutionID != "":
		return v.ExecutionID
	}
	return v.ID
}
