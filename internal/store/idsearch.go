package store

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
)

// The search by business identifier (ListTransactions' businessIdentifier)
// since migration 00450: one narrow key per distinct value of a
// transaction's element, and the transaction and element named once per
// transaction and element instead of once per claim.
//
//   - identifier_groups: one row per transaction and element (CLP-01 of a
//     set), its id a small integer.
//   - identifier_keys: (value, grp), the value's group; the primary key is
//     the whole row (on SQLite WITHOUT ROWID: one B-tree, no table beside
//     the index), about 20 bytes a claim where identifier_values kept a
//     table row of about 70 bytes and an index entry.
//   - identifier_values: a view of the two, the search rows as
//     identifier_values held them (value, transaction_id, element,
//     element_id), which the search reads.
//
// A value stored twice for the same transaction and element is one key
// (the search answers transactions, not rows), so storing a batch again
// changes nothing: a rerun after a killed attempt inserts what the attempt
// stored, and the keys already there are kept (INSERT OR IGNORE, ON
// CONFLICT DO NOTHING) instead of deleted and inserted again.
const (
	// upsertIdentifierGroupSQL returns the id of the group of a
	// transaction and element, made when it is new (DO UPDATE, not DO
	// NOTHING: RETURNING answers only rows the statement wrote).
	upsertIdentifierGroupSQL = `INSERT INTO identifier_groups (transaction_id, element, element_id) VALUES ($1, $2, $3)
	ON CONFLICT (transaction_id, element, element_id) DO UPDATE SET element = excluded.element RETURNING id`
	// The keys of a batch of several groups travel as one JSON object
	// {"value": group, …} in key order (json_each on SQLite and json, not
	// jsonb, on PostgreSQL keep a member name given twice, and the order):
	// one statement and one walk down the key B-tree for a batch of many
	// groups (sets of 1,000 claims), not one a group.
	insertIdentifierKeysSQLite = `INSERT OR IGNORE INTO identifier_keys (value, grp)
	SELECT e.key, e.value FROM json_each($1) AS e`
	insertIdentifierKeysPostgres = `INSERT INTO identifier_keys (value, grp)
	SELECT e.key, e.value::bigint FROM json_each_text($1::json) AS e(key, value) ON CONFLICT DO NOTHING`
	// The values of one group: a plain JSON array.
	insertGroupKeysSQLite = `INSERT OR IGNORE INTO identifier_keys (value, grp)
	SELECT e.value, $1 FROM json_each($2) AS e`
	insertGroupKeysPostgres = `INSERT INTO identifier_keys (value, grp)
	SELECT e.v, $1 FROM jsonb_array_elements_text($2::jsonb) AS e(v) ON CONFLICT DO NOTHING`
)

// IdentifierValues are search rows to store: Values of Element (its id
// ElementID) in transaction TransactionID.
type IdentifierValues struct {
	TransactionID, Element, ElementID string
	Values                            []string
}

// searchIdentifierSQL is the condition of ListTransactions' search by
// value (argument $%[1]d), scoped by the outer query's account.
const searchIdentifierSQL = `id IN (SELECT g.transaction_id FROM identifier_keys k JOIN identifier_groups g ON g.id = k.grp
	WHERE k.value = $%[1]d`

// searchIdentifierElementSQL narrows it to an element or element id
// (argument $%[1]d).
const searchIdentifierElementSQL = ` AND (g.element = $%[1]d OR g.element_id = $%[1]d)`

func (q *queries) InsertIdentifierValues(ctx context.Context, groups []IdentifierValues) error {
	return q.atomic(ctx, func(q *queries) error { return q.insertSearchKeys(ctx, groups) })
}

// searchKey is one row of identifier_keys.
type searchKey struct {
	value string
	grp   int64
}

// insertSearchKeys stores groups' values (sorting each group's Values in
// place), in key order: consecutive inserts land on neighbouring pages of
// the key B-tree instead of one random page each. The values of a single
// group go as a plain JSON array with the group bound once; several groups
// (sets of 1,000 claims) as one JSON object of value: group, one statement
// and one walk down the B-tree for the batch (an array of "group:value"
// strings cut in two by the statement cost about 3,000 instructions a row).
func (q *queries) insertSearchKeys(ctx context.Context, groups []IdentifierValues) error {
	n, nonEmpty := 0, 0
	for _, g := range groups {
		n += len(g.Values)
		if len(g.Values) > 0 {
			nonEmpty++
		}
	}
	if n == 0 {
		return nil
	}
	grps := make([]int64, len(groups))
	for i, g := range groups {
		if len(g.Values) == 0 {
			continue
		}
		if err := q.w.queryRow(ctx, upsertIdentifierGroupSQL, g.TransactionID, g.Element, g.ElementID).Scan(&grps[i]); err != nil {
			return mapErr(err)
		}
	}
	if nonEmpty == 1 {
		for i, g := range groups {
			if len(g.Values) > 0 {
				slices.Sort(g.Values)
				return q.insertGroupKeys(ctx, grps[i], string(appendJSONStrings(make([]byte, 0, n*16), g.Values)))
			}
		}
	}
	keys := make([]searchKey, 0, n)
	for i, g := range groups {
		for _, v := range g.Values {
			keys = append(keys, searchKey{v, grps[i]})
		}
	}
	slices.SortFunc(keys, func(a, b searchKey) int { return cmp.Or(strings.Compare(a.value, b.value), cmp.Compare(a.grp, b.grp)) })
	doc := make([]byte, 0, n*24)
	doc = append(doc, '{')
	for i, k := range keys {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = appendJSONString(doc, k.value)
		doc = strconv.AppendInt(append(doc, ':'), k.grp, 10)
	}
	doc = append(doc, '}')
	insert := insertIdentifierKeysPostgres
	if q.w.sqlite {
		insert = insertIdentifierKeysSQLite
	}
	_, err := q.w.exec(ctx, insert, string(doc))
	return mapErr(err)
}

// insertGroupKeys stores doc, a JSON array of values in key order, in
// group grp.
func (q *queries) insertGroupKeys(ctx context.Context, grp int64, doc string) error {
	insert := insertGroupKeysPostgres
	if q.w.sqlite {
		insert = insertGroupKeysSQLite
	}
	_, err := q.w.exec(ctx, insert, grp, doc)
	return mapErr(err)
}

func (q *queries) DeleteIdentifierValues(ctx context.Context, transactionID string, values []string) error {
	if len(values) == 0 {
		return nil
	}
	expand := `SELECT e.v FROM jsonb_array_elements_text($2::jsonb) AS e(v)`
	if q.w.sqlite {
		expand = `SELECT e.value FROM json_each($2) AS e`
	}
	_, err := q.w.exec(ctx, `DELETE FROM identifier_keys WHERE value IN (`+expand+`)
		AND grp IN (SELECT id FROM identifier_groups WHERE transaction_id = $1)`,
		transactionID, string(appendJSONStrings(nil, values)))
	return mapErr(err)
}

// deleteIdentifierGroups removes the groups of the transactions ids, once
// their keys are gone.
func (q *queries) deleteIdentifierGroups(ctx context.Context, ids []string) error {
	list, args := inList(nil, ids)
	_, err := q.w.exec(ctx, `DELETE FROM identifier_groups WHERE transaction_id IN `+list, args...)
	return mapErr(err)
}

func (q *queries) DeleteIdentifierGroups(ctx context.Context, transactionID string) error {
	return q.deleteIdentifierGroups(ctx, []string{transactionID})
}
