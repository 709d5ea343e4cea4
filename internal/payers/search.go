package payers

import (
	"html"
	"math/bits"
	"slices"
	"strings"
)

// MaxQueryLength bounds a search query (the hosted API's maxLength).
const MaxQueryLength = 200

// Query is a directory search: text matched against ids, aliases and
// names (typos tolerated), and the hosted API's filters, all of which a
// payer must pass.
type Query struct {
	Text string
	// Support filters by transactionSupport key: SUPPORTED,
	// NOT_SUPPORTED, ENROLLMENT_REQUIRED, or EITHER (SUPPORTED or
	// ENROLLMENT_REQUIRED).
	Support map[string]string
	// CoverageTypes and OperatingStates: the payer must have every one.
	CoverageTypes   []string
	OperatingStates []string
}

// Either is the search filter value for "SUPPORTED or ENROLLMENT_REQUIRED".
const Either = "EITHER"

// Hit is one payer a search found.
type Hit struct {
	Payer   Payer
	Score   float64
	Matches Matches
	// Fuzzy: the payer matched only with a typo tolerated, never exactly
	// or by a prefix (the console offers it, it never picks it).
	Fuzzy bool
}

// Matches is the hosted search's matches object: the parts of the record
// that matched, the matching text wrapped in <b> tags (the rest HTML
// escaped).
type Matches struct {
	Aliases        []string `json:"aliases,omitempty"`
	DisplayName    string   `json:"displayName,omitempty"`
	Names          []string `json:"names,omitempty"`
	PrimaryPayerID string   `json:"primaryPayerId,omitempty"`
	StediID        string   `json:"stediId,omitempty"`
}

// Search finds payers for a typed id, alias or name, best first (see
// Find); limit <= 0 means no limit. An empty query returns nothing.
func (d *Directory) Search(query string, limit int) []Payer {
	if strings.TrimSpace(query) == "" {
		return nil
	}
	hits := d.Find(Query{Text: query})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Payer, len(hits))
	for i, h := range hits {
		out[i] = h.Payer
	}
	return out
}

// Find runs a search. Text is cut to MaxQueryLength. Scores: an id, stediId
// or alias equal to the text 100, starting with it 80, holding it 60, one
// typo away 40; a name whose words hold every word of the text (exactly,
// as a prefix, inside a longer word, or with a typo) up to 60. Best
// first, then by name; without text every payer that passes the filters,
// by name.
func (d *Directory) Find(q Query) []Hit {
	text := q.Text
	if len(text) > MaxQueryLength {
		text = text[:MaxQueryLength]
	}
	tokens := wordsOf(strings.ToLower(text))
	entries := d.searchEntries()
	squashed := squashID(text)
	var hits []Hit
	for i, p := range d.payers {
		if !q.passes(p) {
			continue
		}
		if len(tokens) == 0 {
			hits = append(hits, Hit{Payer: p.clone()})
			continue
		}
		if h, ok := match(p, &entries[i], squashed, tokens); ok {
			hits = append(hits, h)
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return hits
}

// passes applies the filters.
func (q Query) passes(p Payer) bool {
	for key, want := range q.Support {
		got := p.apiSupport(key)
		if want == Either {
			if got != Supported && got != EnrollmentRequired {
				return false
			}
		} else if got != want {
			return false
		}
	}
	for _, c := range q.CoverageTypes {
		if !slices.Contains(p.Coverage, c) {
			return false
		}
	}
	for _, s := range q.OperatingStates {
		if !slices.Contains(p.OperatingStates, s) {
			return false
		}
	}
	return true
}

// match scores one payer against the query (q: the query squashed as an
// id, tokens: its words); e is the payer prepared for searching.
func match(p Payer, e *searchEntry, q string, tokens []string) (Hit, bool) {
	h := Hit{Payer: p, Fuzzy: true}
	better := func(score float64, fuzzy bool) {
		if score > h.Score || (score == h.Score && !fuzzy) {
			h.Score, h.Fuzzy = score, fuzzy
		}
	}
	// Ids: the whole query, letters and digits only ("87-726" is 87726).
	idMatch := func(id, squashed string) (string, bool) {
		score, fuzzy, lo, hi := idScore(squashed, q)
		if score == 0 {
			return "", false
		}
		better(score, fuzzy)
		return highlightRange(id, lo, hi, squashed == strings.ToLower(id)), true
	}
	if s, ok := idMatch(p.ID, e.ids[0]); ok {
		h.Matches.PrimaryPayerID = s
	}
	if p.StediID != "" {
		if s, ok := idMatch(p.StediID, e.ids[1]); ok {
			h.Matches.StediID = s
		}
	} else {
		h.Matches.StediID = h.Matches.PrimaryPayerID
	}
	for i, a := range p.Aliases {
		if s, ok := idMatch(a, e.ids[2+i]); ok {
			h.Matches.Aliases = append(h.Matches.Aliases, s)
		}
	}
	// Names: every word of the query in one name.
	for i, n := range e.names {
		s, score, fuzzy, ok := nameMatch(n, tokens)
		if !ok {
			continue
		}
		if i == 0 {
			h.Matches.DisplayName = s
		} else {
			h.Matches.Names = append(h.Matches.Names, s)
		}
		better(score, fuzzy)
	}
	if h.Score == 0 {
		return Hit{}, false
	}
	h.Payer = p.clone()
	return h, true
}

// idScore compares a squashed id with the squashed query; lo:hi is the
// matched part of the id (the whole id for a typo).
func idScore(id, q string) (score float64, fuzzy bool, lo, hi int) {
	switch {
	case q == "" || id == "":
		return 0, false, 0, 0
	case id == q:
		return 100, false, 0, len(id)
	case len(q) >= 2 && strings.HasPrefix(id, q):
		return 80, false, 0, len(q)
	case len(q) >= 3 && strings.Contains(id, q):
		i := strings.Index(id, q)
		return 60, false, i, i + len(q)
	case len(q) >= 4 && withinEdits(id, q, 1):
		return 40, true, 0, len(id)
	}
	return 0, false, 0, 0
}

// nameMatch: every token must match a word of name. Each scores 1 for
// the word itself, 0.8 for a prefix, 0.6 inside a longer word
// ("healthcare" in "UnitedHealthcare"), 0.5 with a typo; the name scores
// 50 × their mean, 5 more when it starts with the first token's match,
// and up to 5 more by the share of its words the query has.
func nameMatch(n searchName, tokens []string) (string, float64, bool, bool) {
	name, lower, words := n.name, n.lower, n.words
	var total float64
	fuzzy := false
	var marks [][2]int
	for _, tok := range tokens {
		best, bestFuzzy, mark := 0.0, false, [2]int{}
		tokMask := charMask(tok)
		for wi, w := range words {
			word := lower[w[0]:w[1]]
			s, f, lo, hi := tokenScore(word, tok, bits.OnesCount64(tokMask&^n.masks[wi]))
			if s > best {
				best, bestFuzzy, mark = s, f, [2]int{w[0] + lo, w[0] + hi}
			}
		}
		if best == 0 {
			return "", 0, false, false
		}
		total += best
		fuzzy = fuzzy || bestFuzzy
		marks = append(marks, mark)
	}
	score := 50 * total / float64(len(tokens))
	if marks[0][0] == 0 {
		score += 5 // the name starts with the query
	}
	// A name the query covers more of ranks first ("UnitedHealthcare"
	// before "Oxford Health Plans (UnitedHealthcare)").
	score += 5 * float64(min(len(tokens), len(words))) / float64(len(words))
	return highlight(name, marks), score, fuzzy, true
}

// tokenScore matches one query word against one name word; lo:hi is the
// matched part of the word.
// missing counts the characters of tok that word lacks: each needs an
// edit, so a word missing more than a typo allows is not compared.
func tokenScore(word, tok string, missing int) (float64, bool, int, int) {
	switch {
	case word == tok:
		return 1, false, 0, len(word)
	case strings.HasPrefix(word, tok):
		return 0.8, false, 0, len(tok)
	case len(tok) >= 3 && strings.Contains(word, tok):
		i := strings.Index(word, tok)
		return 0.6, false, i, i + len(tok)
	}
	edits := 0
	switch {
	case len(tok) >= 8:
		edits = 2
	case len(tok) >= 4:
		edits = 1
	default:
		return 0, false, 0, 0
	}
	if missing > edits {
		return 0, false, 0, 0
	}
	if withinEdits(word, tok, edits) {
		return 0.5, true, 0, len(word)
	}
	// A typo in the start of a longer word ("unitd" for "unitedhealthcare").
	for n := len(tok) - 1; n <= len(tok)+1 && len(word) > len(tok)+1; n++ {
		if n < len(word) && withinEdits(word[:n], tok, edits) {
			return 0.4, true, 0, n
		}
	}
	return 0, false, 0, 0
}

// withinEdits reports whether a and b are at most k edits apart
// (insertions, deletions, substitutions and swaps of neighbours: the
// optimal string alignment distance).
func withinEdits(a, b string, k int) bool {
	if d := len(a) - len(b); d > k || -d > k {
		return false
	}
	// Three rows on the stack for the usual word (a search runs this for
	// every word of every name).
	var rows [3][40]int
	prev2, prev, cur := rows[0][:], rows[1][:], rows[2][:]
	if len(b)+1 > len(prev) {
		prev2, prev, cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > k {
			return false
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)] <= k
}

// wordsOf splits lower-cased text into its runs of letters and digits.
func wordsOf(s string) []string {
	var out []string
	for _, w := range wordSpans(s) {
		out = append(out, s[w[0]:w[1]])
	}
	return out
}

// wordSpans are the byte ranges of the runs of ASCII letters and digits.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(s); i++ {
		alnum := i < len(s) && isAlnum(s[i])
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	return out
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// squashID keeps an id's letters and digits, lower case.
func squashID(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isAlnum(s[i]) {
			b.WriteByte(s[i])
		}
	}
	return strings.ToLower(b.String())
}

// highlightRange bolds lo:hi of an id; when the id has characters besides
// letters and digits the squashed offsets do not map back, so the whole id
// is bolded.
func highlightRange(id string, lo, hi int, exact bool) string {
	if !exact {
		lo, hi = 0, len(id)
	}
	return highlight(id, [][2]int{{lo, hi}})
}

// highlight wraps the marked byte ranges of s in <b> tags, merging
// overlaps, and escapes the rest for HTML.
func highlight(s string, marks [][2]int) string {
	slices.SortFunc(marks, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	at := 0
	for _, m := range marks {
		lo, hi := max(m[0], at), min(m[1], len(s))
		if lo >= hi {
			continue
		}
		b.WriteString(html.EscapeString(s[at:lo]))
		b.WriteString("<b>" + html.EscapeString(s[lo:hi]) + "</b>")
		at = hi
	}
	b.WriteString(html.EscapeString(s[at:]))
	return b.String()
}

// searchName is a name prepared for matching: lower-cased and split into
// words once per directory, not once per search.
type searchName struct {
	name, lower string
	words       [][2]int
	masks       []uint64 // charMask of each word
}

// charMask has a bit for each letter and digit s holds.
func charMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			m |= 1 << (c - 'a')
		case c >= '0' && c <= '9':
			m |= 1 << (26 + c - '0')
		}
	}
	return m
}

// searchEntry is a payer prepared for searching: its names (display name
// first) and its ids squashed (id, stediId or "", aliases).
type searchEntry struct {
	names []searchName
	ids   []string
}

// searchEntries are the payers prepared, in the order of d.payers, built
// on the first search (a directory does not change once built).
func (d *Directory) searchEntries() []searchEntry {
	d.searchOnce.Do(func() {
		d.search = make([]searchEntry, len(d.payers))
		for i, p := range d.payers {
			e := &d.search[i]
			for _, n := range append([]string{p.Name}, p.Names...) {
				lower := strings.ToLower(n)
				sn := searchName{name: n, lower: lower, words: wordSpans(lower)}
				for _, w := range sn.words {
					sn.masks = append(sn.masks, charMask(lower[w[0]:w[1]]))
				}
				e.names = append(e.names, sn)
			}
			e.ids = append(e.ids, squashID(p.ID), squashID(p.StediID))
			for _, a := range p.Aliases {
				e.ids = append(e.ids, squashID(a))
			}
		}
	})
	return d.search
}
