package payers

import (
	"slices"
	"strings"
)

// Search finds payers for the console's payer picker: an id or alias equal
// to the query comes first, then ids and names that start with it, then
// names or aliases that contain it; within a rank the directory order
// (by name) holds. Matching ignores case; every word of a multi-word query
// must occur in the name. limit <= 0 means no limit. An empty query
// returns nothing.
func (d *Directory) Search(query string, limit int) []Payer {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil
	}
	words := strings.Fields(q)
	type hit struct {
		rank, pos int
	}
	var hits []hit
	for i, p := range d.payers {
		if r, ok := searchRank(p, q, words); ok {
			hits = append(hits, hit{r, i})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.rank - b.rank })
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Payer, len(hits))
	for i, h := range hits {
		out[i] = d.payers[h.pos].clone()
	}
	return out
}

// searchRank returns 0 for an exact id or alias, 1 for an id or name
// prefix, 2 for a substring of the name or an alias; ok is false when the
// payer does not match.
func searchRank(p Payer, q string, words []string) (rank int, ok bool) {
	ids := append([]string{p.ID}, p.Aliases...)
	name := strings.ToLower(p.Name)
	for _, id := range ids {
		if strings.ToLower(id) == q {
			return 0, true
		}
	}
	if strings.HasPrefix(strings.ToLower(p.ID), q) || strings.HasPrefix(name, q) {
		return 1, true
	}
	allWords := true
	for _, w := range words {
		if !strings.Contains(name, w) {
			allWords = false
			break
		}
	}
	if allWords {
		return 2, true
	}
	for _, id := range ids {
		if strings.Contains(strings.ToLower(id), q) {
			return 2, true
		}
	}
	return 0, false
}
