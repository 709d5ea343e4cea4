package api

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// payerHandlers: the payer directory in the hosted Payers API's shape. The
// directory is the operator's (the shipped one with serve --payers
// applied), the same for every account; it holds no patient data.
type payerHandlers struct {
	dir *payers.Directory
}

// maxPayerQuery bounds a search query.
const maxPayerQuery = 200

// list is GET /2024-04-01/payers: every payer by name, paged.
func (h payerHandlers) list(w http.ResponseWriter, r *http.Request) {
	l := parseListQuery(r)
	offset := payerOffset(l)
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	all := h.dir.List()
	out := page[payers.Record]{Items: []payers.Record{}}
	end := min(offset+pageSizeOr(l, 100), len(all))
	for _, p := range all[min(offset, len(all)):end] {
		out.Items = append(out.Items, p.Record())
	}
	if end < len(all) {
		out.NextPageToken = payerToken(end)
	}
	WriteJSON(w, http.StatusOK, out)
}

// get is GET /2024-04-01/payer/{stediId}: a payer by its id or an alias.
func (h payerHandlers) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("stediId")
	p, ok := h.dir.Lookup(id)
	if !ok {
		msg := "No payer " + strconv.Quote(truncate(id, 60)) + " in this server's directory."
		if like := h.dir.Search(id, 3); len(like) > 0 {
			var names []string
			for _, s := range like {
				names = append(names, s.ID+" ("+s.Name+")")
			}
			msg += " Did you mean " + strings.Join(names, ", ") + "?"
		}
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "%s", msg))
		return
	}
	WriteJSON(w, http.StatusOK, struct {
		Payer payers.Record `json:"payer"`
	}{p.Record()})
}

// searchResult is one hit of a payer search.
type searchResult struct {
	Payer payers.Record `json:"payer"`
	Score float64       `json:"score"`
}

// search is GET /2024-04-01/payers/search?query=…: ids, aliases and names,
// best first (an exact id or alias, then a prefix, then every word in
// the name).
func (h payerHandlers) search(w http.ResponseWriter, r *http.Request) {
	l := parseListQuery(r)
	offset := payerOffset(l)
	q := strings.TrimSpace(l.q.Get("query"))
	if q == "" {
		l.fail("query", "is required: a payer id, alias or part of its name, such as 87726 or united")
	} else if len(q) > maxPayerQuery {
		l.fail("query", "has at most 200 characters")
	}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	hits := h.dir.Search(q, 0)
	type stats struct {
		Total int `json:"total"`
	}
	out := struct {
		Items         []searchResult `json:"items"`
		NextPageToken string         `json:"nextPageToken,omitempty"`
		Stats         stats          `json:"stats"`
	}{Items: []searchResult{}, Stats: stats{Total: len(hits)}}
	end := min(offset+pageSizeOr(l, 100), len(hits))
	for i, p := range hits[min(offset, len(hits)):end] {
		// Scores fall with the rank: 1 for the best hit.
		out.Items = append(out.Items, searchResult{Payer: p.Record(), Score: 1 / float64(offset+i+1)})
	}
	if end < len(hits) {
		out.NextPageToken = payerToken(end)
	}
	WriteJSON(w, http.StatusOK, out)
}

func pageSizeOr(l *listQuery, def int) int {
	if l.PageSize == 0 {
		return def
	}
	return l.PageSize
}

func payerOffset(l *listQuery) int { return pageOffset(l, "p") }

func payerToken(n int) string { return offsetToken("p", n) }

// pageOffset reads the page token of a list built whole and sliced (the
// payer directory, a claim's timeline): the offset of the next item,
// behind its list's tag.
func pageOffset(l *listQuery, tag string) int {
	tok := l.pageToken()
	if tok == "" {
		return 0
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	n, convErr := strconv.Atoi(strings.TrimPrefix(string(b), tag+":"))
	if err != nil || convErr != nil || !strings.HasPrefix(string(b), tag+":") || n < 0 {
		l.fail("pageToken", "is not valid; pass the nextPageToken of a previous page unchanged")
		return 0
	}
	return n
}

// offsetToken is the token of the page starting at offset n.
func offsetToken(tag string, n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(tag + ":" + strconv.Itoa(n)))
}
