package api

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// listQuery holds the paging and time filters the /2023-08-01 lists share:
// pageSize (1–500), pageToken (a previous page's nextPageToken), from and to
// (RFC 3339). Problems are collected as field errors.
type listQuery struct {
	q        url.Values
	PageSize int
	Token    string
	From, To time.Time
	fields   []FieldError
}

func parseListQuery(r *http.Request) *listQuery {
	l := &listQuery{q: r.URL.Query()}
	l.Token = l.q.Get("pageToken")
	if v := l.q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			l.fail("pageSize", "must be a whole number from 1 to 500; got "+strconv.Quote(v))
		}
		l.PageSize = n
	}
	l.From = l.time("from")
	l.To = l.time("to")
	return l
}

func (l *listQuery) time(name string) time.Time {
	v := l.q.Get(name)
	if v == "" {
		return time.Time{}
	}
	at, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		l.fail(name, "must be an ISO 8601 time such as 2024-08-01T00:00:00Z; got "+strconv.Quote(v))
	}
	return at
}

// oneOf reads an optional parameter that must be one of allowed.
func (l *listQuery) oneOf(name string, allowed ...string) string {
	v := l.q.Get(name)
	if v == "" {
		return ""
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	l.fail(name, "must be one of "+quoteList(allowed)+"; got "+strconv.Quote(v))
	return ""
}

func (l *listQuery) fail(name, msg string) {
	l.fields = append(l.fields, FieldError{Path: "/query/" + name, Message: msg})
}

// err is the 400 for the collected problems, nil when there are none.
func (l *listQuery) err() error {
	if len(l.fields) == 0 {
		return nil
	}
	return Validation(l.fields...)
}

func quoteList(vs []string) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += ", "
		}
		out += strconv.Quote(v)
	}
	return out
}

// pageError turns a store's bad-cursor error into the contract's wording
// for pageToken.
func pageError(err error) error {
	if errors.Is(err, store.ErrBadCursor) {
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The pageToken is not valid; pass the nextPageToken of a previous page unchanged.")
	}
	return err
}

// page is the body of every /2023-08-01 list.
type page[T any] struct {
	Items         []T    `json:"items"`
	NextPageToken string `json:"nextPageToken,omitempty"`
}
