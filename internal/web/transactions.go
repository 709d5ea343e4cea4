package web

import (
	"errors"
	"net/http"

	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// transactionsPageSize is how many transactions one page lists.
const transactionsPageSize = 50

// maxShownFragments bounds the fragments a transaction's page opens.
const maxShownFragments = 20

type txFilter struct {
	Set, Identifier, Partnership, From, To string
}

func (f txFilter) Any() bool {
	return f.Set != "" || f.Identifier != "" || f.Partnership != "" || f.From != "" || f.To != ""
}

type transactionsData struct {
	Filter txFilter
	Errors map[string]string
	Rows   []store.Transaction
	Next   string
	Sets   []option
}

// txSetOptions are the transaction sets the filter offers.
func txSetOptions() []option {
	out := []option{{"", "Any transaction"}}
	for _, id := range []string{"835", "837", "277", "999", "270", "271", "276"} {
		out = append(out, option{id, txSetName(id)})
	}
	return out
}

// transactionsPage lists the account's transactions, newest first,
// filtered by set, business identifier (a patient control number, a check
// number…), partnership and date.
func (c *Console) transactionsPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	f := txFilter{Set: q.Get("set"), Identifier: strings.TrimSpace(q.Get("identifier")),
		Partnership: strings.TrimSpace(q.Get("partnership")), From: q.Get("from"), To: q.Get("to")}
	data := transactionsData{Filter: f, Errors: map[string]string{}, Sets: txSetOptions()}
	sf := store.TransactionFilter{Mode: v.Mode, TransactionSetID: f.Set, BusinessIdentifier: f.Identifier,
		PartnershipID: f.Partnership, Limit: transactionsPageSize, Cursor: q.Get("cursor")}
	if !validOption(data.Sets, f.Set) {
		data.Errors["set"] = "Pick a transaction from the list."
	}
	if len(f.Identifier) > 80 {
		data.Errors["identifier"] = "Type at most 80 characters."
	}
	sf.From, sf.To = dayRange(f.From, f.To, data.Errors)
	status := http.StatusOK
	if len(data.Errors) > 0 {
		status = http.StatusBadRequest
	} else {
		rows, next, err := c.tenant(v).Transactions(r.Context(), sf)
		if err != nil {
			c.listFailed(w, r, err)
			return
		}
		data.Rows = rows
		if next != "" {
			nq := r.URL.Query()
			nq.Set("cursor", next)
			data.Next = "/transactions?" + nq.Encode()
		}
	}
	c.renderPage(w, r, status, "transactions", page{Title: "Transactions", Nav: "transactions", Data: data})
}

// transactionData is a transaction's page.
type transactionData struct {
	T         store.Transaction
	File      store.Execution
	Guide     *jsonNode // the Guide JSON as a tree
	GuideNote string    // why the tree is not shown in full
	EDI       *ediText
	Fragments []fragmentView
}

type fragmentView struct {
	Index int
	Size  int64
	Tree  *jsonNode
	Note  string
}

// transactionPage shows one transaction: its Guide JSON as a tree that
// opens branch by branch, its EDI, its fragments, and links to its file
// and events.
func (c *Console) transactionPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	ctx := r.Context()
	t, err := c.tenant(v).Transaction(ctx, r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "transaction", err)
		return
	}
	data := transactionData{T: t}
	if data.File, err = c.tenant(v).Execution(ctx, t.ExecutionID); err != nil && !errors.Is(err, store.ErrNotFound) {
		c.fail(w, r, err)
		return
	}
	if data.Guide, data.GuideNote, err = c.readTree(r, t.Output.Key); err != nil {
		c.fail(w, r, err)
		return
	}
	if data.EDI, err = c.readEDI(ctx, t.Input, nil); err != nil {
		c.fail(w, r, err)
		return
	}
	for i, f := range t.Fragments {
		fv := fragmentView{Index: f.Index + 1, Size: f.Output.Size}
		if i < maxShownFragments {
			if fv.Tree, fv.Note, err = c.readTree(r, f.Output.Key); err != nil {
				c.fail(w, r, err)
				return
			}
		} else {
			fv.Note = "Not opened here: only the first " + plural(maxShownFragments, "fragment") + " are."
		}
		data.Fragments = append(data.Fragments, fv)
	}
	c.renderPage(w, r, http.StatusOK, "transaction", page{Title: txSetName(t.TransactionSetID) + " " + t.ControlNumber, Nav: "transactions", Data: data})
}

// readTree reads a stored JSON document as a tree, or says why not.
func (c *Console) readTree(r *http.Request, key string) (*jsonNode, string, error) {
	b, truncated, err := c.readBounded(r.Context(), key)
	if err != nil || b == nil {
		return nil, "", err
	}
	if truncated {
		return nil, "This document is larger than " + formatBytes(maxShownBytes) + "; download it through the API to read it whole.", nil
	}
	tree, err := parseTree(b)
	if err != nil {
		return nil, "This document could not be read as JSON.", nil
	}
	return tree, "", nil
}
