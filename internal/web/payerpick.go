package web

import (
	"fmt"
	"strings"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// The payer box takes what a front desk types: a name ("UnitedHealthcare",
// "united healthcare"), an id or alias from the card ("87726", "UHC"), or a
// pick from the list, which fills it with "UnitedHealthcare (87726)". The
// console resolves it to one directory entry before anything is sent; a
// name the directory does not know, or one that fits several payers, is a
// message next to the box, never a check.

// payerLabel is how a payer shows in the box and in the list.
func payerLabel(p payers.Payer) string { return p.Name + " (" + p.ID + ")" }

// squash keeps letters and digits only, lower case: "United Healthcare"
// and "UnitedHealthcare" are the same name to a person.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// resolvePayer finds the one payer the typed text means. It returns the
// payer, or a message saying what to do and up to five candidates.
func resolvePayer(dir *payers.Directory, typed string) (payers.Payer, string, []payers.Payer) {
	typed = strings.TrimSpace(typed)
	if typed == "" {
		return payers.Payer{}, "Choose the patient's insurance company: type its name or the payer ID from the card, then pick it from the list.", nil
	}
	// "Name (ID)", as the list fills it in.
	if open := strings.LastIndexByte(typed, '('); open > 0 && strings.HasSuffix(typed, ")") {
		if p, ok := dir.Lookup(strings.TrimSpace(typed[open+1 : len(typed)-1])); ok {
			return p, "", nil
		}
	}
	if p, ok := dir.Lookup(typed); ok {
		return p, "", nil
	}
	want := squash(typed)
	for _, p := range dir.List() {
		if squash(p.Name) == want {
			return p, "", nil
		}
	}
	// The directory search: ids, aliases, names and other names. A payer
	// found only by tolerating a typo is offered, never picked: a check
	// must not go to a payer the front desk did not name.
	var hits, typos []payers.Payer
	for _, h := range dir.Find(payers.Query{Text: typed}) {
		if h.Fuzzy {
			typos = append(typos, h.Payer)
		} else {
			hits = append(hits, h.Payer)
		}
	}
	if len(hits) == 0 {
		// "United Healthcare" (a space the directory's name lacks) still
		// finds it.
		for _, p := range dir.List() {
			if want != "" && strings.Contains(squash(p.Name), want) {
				hits = append(hits, p)
			}
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0], "", nil
	case len(hits) == 0 && len(typos) > 0:
		names := make([]string, 0, 3)
		for _, p := range typos[:min(3, len(typos))] {
			names = append(names, payerLabel(p))
		}
		return payers.Payer{}, fmt.Sprintf("No payer called %q is in the payer list. Did you mean %s? Pick it from the list, or type the payer ID printed on the insurance card.",
			typed, strings.Join(names, " or ")), nil
	case len(hits) == 0:
		return payers.Payer{}, fmt.Sprintf("No payer called %q is in the payer list. Check the spelling, or type the payer ID printed on the insurance card.", typed), nil
	}
	if len(hits) > 5 {
		hits = hits[:5]
	}
	return payers.Payer{}, fmt.Sprintf("Several payers match %q. Pick the right one from the list.", typed), hits
}

// payerMatches are the payer ids a history filter's text stands for: the
// one payer it names, or every payer whose name or id contains it.
func payerMatches(dir *payers.Directory, typed string) []string {
	if p, msg, _ := resolvePayer(dir, typed); msg == "" {
		return []string{p.ID}
	}
	var ids []string
	for _, p := range dir.Search(typed, 0) {
		ids = append(ids, p.ID)
	}
	return ids
}
