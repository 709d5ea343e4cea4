package api

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// payerHandlers: the payer directory in the hosted Payers API's shape. The
// directory is the operator's (the shipped one, the serve
// --payer-directory file and the serve --payers routes), the same for
// every account; it holds no patient data, and the accounts' enrollments
// it records are never shown.
type payerHandlers struct {
	dir *payers.Directory
}

// Page sizes of the hosted API: the list answers everything when no
// pageSize is given (at least 10 when one is); the search answers 20 by
// default, 10 to 100.
const (
	minPayerPage     = 10
	maxPayerListPage = 1000
	maxPayerSearch   = 100
	defPayerSearch   = 20
)

// payerPageSize reads pageSize within [minPayerPage, max]; 0 when absent.
func payerPageSize(l *listQuery, max int) int {
	v := l.q.Get("pageSize")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < minPayerPage || n > max {
		l.fail("pageSize", "must be a whole number from "+strconv.Itoa(minPayerPage)+" to "+strconv.Itoa(max)+"; got "+strconv.Quote(truncate(v, 20)))
	}
	return n
}

// payerListQuery is parseListQuery without its generic pageSize rule.
func payerListQuery(r *http.Request) *listQuery {
	return &listQuery{q: r.URL.Query(), Token: r.URL.Query().Get("pageToken")}
}

// list is GET /2024-04-01/payers: every payer by stediId, all at once or
// paged.
func (h payerHandlers) list(w http.ResponseWriter, r *http.Request) {
	l := payerListQuery(r)
	size := payerPageSize(l, maxPayerListPage)
	offset := payerOffset(l)
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	all := h.dir.Records()
	if size == 0 {
		size = len(all)
	}
	out := page[payers.Record]{Items: []payers.Record{}}
	end := min(offset+size, len(all))
	out.Items = append(out.Items, all[min(offset, len(all)):end]...)
	if end < len(all) {
		out.NextPageToken = payerToken(end)
	}
	WriteJSON(w, http.StatusOK, out)
}

// csv is GET /2024-04-01/payers/csv: every payer as the hosted CSV.
func (h payerHandlers) csv(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	h.dir.WriteCSV(w)
}

// get is GET /2024-04-01/payer/{stediId}: a payer by its id or an alias.
func (h payerHandlers) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("stediId")
	p, ok := h.dir.Lookup(id)
	if !ok {
		id = truncate(id, 60)
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No payer %s in this server's directory.%s",
			strconv.Quote(id), payers.DidYouMean(h.dir.Suggest(id, 3))))
		return
	}
	WriteJSON(w, http.StatusOK, struct {
		Payer payers.Record `json:"payer"`
	}{p.Record()})
}

// searchResult is one hit of a payer search (SearchResult).
type searchResult struct {
	Matches payers.Matches `json:"matches"`
	Payer   payers.Record  `json:"payer"`
	Score   float64        `json:"score"`
}

// search is GET /2024-04-01/payers/search: a query matched against ids,
// aliases and names with typos tolerated, and the hosted filters
// (transaction support, coverage types, operating states), best first.
func (h payerHandlers) search(w http.ResponseWriter, r *http.Request) {
	l := payerListQuery(r)
	size := payerPageSize(l, maxPayerSearch)
	if size == 0 {
		size = defPayerSearch
	}
	offset := payerOffset(l)
	q := payers.Query{Text: strings.TrimSpace(l.q.Get("query")), Support: map[string]string{}}
	if len(q.Text) > payers.MaxQueryLength {
		l.fail("query", "has at most "+strconv.Itoa(payers.MaxQueryLength)+" characters; search by a payer id, alias or a few words of its name")
	}
	filters := []string{payers.Supported, payers.NotSupported, payers.EnrollmentRequired, payers.Either}
	for _, key := range payers.TransactionKeys() {
		if v := l.oneOf(key, filters...); v != "" {
			q.Support[key] = v
		}
	}
	states := payers.OperatingStateCodes()
	q.CoverageTypes = l.values("coverageTypes", 3, oneOfList(payers.CoverageTypes()))
	q.OperatingStates = l.values("operatingStates", len(states), oneOfList(states))
	if q.Text == "" && len(q.Support) == 0 && len(q.CoverageTypes) == 0 && len(q.OperatingStates) == 0 {
		l.fail("query", "is required unless a filter is given: a payer id, alias or part of its name, such as 87726 or united")
	}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	hits := h.dir.Find(q)
	out := struct {
		Items         []searchResult     `json:"items"`
		NextPageToken string             `json:"nextPageToken,omitempty"`
		Stats         payers.SearchStats `json:"stats"`
	}{Items: []searchResult{}, Stats: payers.Stats(hits)}
	end := min(offset+size, len(hits))
	for _, hit := range hits[min(offset, len(hits)):end] {
		rec := hit.Payer.Record()
		// A search hit's record (SearchPayerRecord) has no deprecated
		// claimSubmission.
		rec.TransactionSupport.ClaimSubmission = ""
		out.Items = append(out.Items, searchResult{Matches: hit.Matches, Payer: rec, Score: hit.Score})
	}
	if end < len(hits) {
		out.NextPageToken = payerToken(end)
	}
	WriteJSON(w, http.StatusOK, out)
}

// oneOfList checks each value of a list parameter against allowed.
func oneOfList(allowed []string) func(string) string {
	return func(v string) string {
		if !slices.Contains(allowed, v) {
			return strconv.Quote(truncate(v, 20)) + " is not one of " + strings.Join(allowed, ", ")
		}
		return ""
	}
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
	// Above 1<<31 no list is that long, and offset+pageSize could
	// overflow into a negative slice bound (a panic's 500).
	if err != nil || convErr != nil || !strings.HasPrefix(string(b), tag+":") || n < 0 || n > 1<<31 {
		l.fail("pageToken", "is not valid; pass the nextPageToken of a previous page unchanged")
		return 0
	}
	return n
}

// offsetToken is the token of the page starting at offset n.
func offsetToken(tag string, n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(tag + ":" + strconv.Itoa(n)))
}
