package payers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

//go:embed directory.json
var embeddedDirectory []byte

// Directory is an immutable set of payers indexed by id and alias. It is
// safe for concurrent use; the methods return copies.
type Directory struct {
	payers []Payer        // sorted by Name, then ID
	index  map[string]int // upper-cased id or alias → position in payers
	// enrolled holds the accounts the operator's directory file records
	// as enrolled with a payer for a transaction (enrollmentKey).
	enrolled    map[string]bool
	enrollments []FileEnrollment // as the directory file listed them, for export

	searchOnce sync.Once
	search     []searchEntry // searchEntries
}

// directoryFile is the shape of directory.json and of operator override
// files.
type directoryFile struct {
	Payers []json.RawMessage `json:"payers"`
	// Connections are read by package connections (the --payers file
	// declares them beside the payers that name them).
	Connections json.RawMessage `json:"connections,omitempty"`
}

var (
	defaultOnce sync.Once
	defaultDir  *Directory
)

// Default returns the directory shipped in the binary. The embedded file is
// checked by the package tests, so a failure here is a build defect.
func Default() *Directory {
	defaultOnce.Do(func() {
		d, err := Parse(embeddedDirectory)
		if err != nil {
			panic("payers: embedded directory.json: " + err.Error())
		}
		defaultDir = d
	})
	return defaultDir
}

// Parse reads a complete directory in the directory.json format.
func Parse(data []byte) (*Directory, error) {
	return (&Directory{}).WithOverrides(data)
}

// Lookup finds a payer by its id or one of its aliases, ignoring case and
// surrounding spaces.
func (d *Directory) Lookup(tradingPartnerServiceID string) (Payer, bool) {
	i, ok := d.index[normalizeID(tradingPartnerServiceID)]
	if !ok {
		return Payer{}, false
	}
	return d.payers[i].clone(), true
}

// Resolve returns the primary id of the payer that id or alias names,
// without copying the entry (for hot paths that only need the id).
func (d *Directory) Resolve(tradingPartnerServiceID string) (string, bool) {
	i, ok := d.index[normalizeID(tradingPartnerServiceID)]
	if !ok {
		return "", false
	}
	return d.payers[i].ID, true
}

// List returns every payer, sorted by name.
func (d *Directory) List() []Payer {
	out := make([]Payer, len(d.payers))
	for i, p := range d.payers {
		out[i] = p.clone()
	}
	return out
}

// Len is the number of payers.
func (d *Directory) Len() int { return len(d.payers) }

func (d *Directory) add(p Payer) error {
	for _, key := range p.ids() {
		k := normalizeID(key)
		if i, dup := d.index[k]; dup {
			return fmt.Errorf("payer %s: id or alias %q already names payer %s", p.ID, key, d.payers[i].ID)
		}
	}
	d.payers = append(d.payers, p)
	d.reindex()
	return nil
}

// reindex sorts the payers and rebuilds the id index.
func (d *Directory) reindex() {
	slices.SortFunc(d.payers, func(a, b Payer) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	d.index = make(map[string]int, len(d.payers)*2)
	for i, p := range d.payers {
		d.index[normalizeID(p.ID)] = i
		if p.StediID != "" {
			d.index[normalizeID(p.StediID)] = i
		}
		for _, a := range p.Aliases {
			d.index[normalizeID(a)] = i
		}
	}
}

func normalizeID(id string) string { return strings.ToUpper(strings.TrimSpace(id)) }

func (p Payer) clone() Payer {
	p.Aliases = slices.Clone(p.Aliases)
	p.Transactions = slices.Clone(p.Transactions)
	p.Coverage = slices.Clone(p.Coverage)
	p.Names = slices.Clone(p.Names)
	p.OperatingStates = slices.Clone(p.OperatingStates)
	p.EnrollmentRequired = slices.Clone(p.EnrollmentRequired)
	p.EmployerIdentificationNumbers = slices.Clone(p.EmployerIdentificationNumbers)
	if p.OtherSupport != nil {
		other := make(map[string]string, len(p.OtherSupport))
		maps.Copy(other, p.OtherSupport)
		p.OtherSupport = other
	}
	if p.Enrollment != nil {
		p.Enrollment = p.Enrollment.clone()
	}
	if p.Connections != nil {
		routes := make(map[string][]string, len(p.Connections))
		for k, v := range p.Connections {
			routes[k] = slices.Clone(v)
		}
		p.Connections = routes
	}
	return p
}

// validate checks one complete entry.
func (p Payer) validate() error {
	if strings.TrimSpace(p.ID) == "" {
		return fmt.Errorf("payer %q: id is empty", p.Name)
	}
	if strings.TrimSpace(p.Name) == "" {
		return fmt.Errorf("payer %s: name is empty", p.ID)
	}
	if len(p.Transactions) == 0 && !p.imported {
		return fmt.Errorf("payer %s: no transactions listed", p.ID)
	}
	for _, t := range p.Transactions {
		if !slices.Contains(knownTransactions, t) {
			return fmt.Errorf("payer %s: unknown transaction %q (known: %s)", p.ID, t, strings.Join(knownTransactions, ", "))
		}
	}
	for typ, names := range p.Connections {
		if !slices.Contains(routeTypes, typ) {
			return fmt.Errorf("payer %s: connections: unknown type %q (known: %s)", p.ID, typ, strings.Join(routeTypes, ", "))
		}
		if len(names) == 0 || len(names) > 8 {
			return fmt.Errorf("payer %s: connections.%s: list 1 to 8 connection ids, in the order to try them", p.ID, typ)
		}
		for i, n := range names {
			if strings.TrimSpace(n) == "" || slices.Contains(names[:i], n) {
				return fmt.Errorf("payer %s: connections.%s: entry %d is empty or repeated", p.ID, typ, i+1)
			}
		}
	}
	switch p.DependentPlacement {
	case PlacementDependents, PlacementSubscriber:
	default:
		return fmt.Errorf("payer %s: dependentPlacement %q is neither %q nor %q", p.ID, p.DependentPlacement, PlacementDependents, PlacementSubscriber)
	}
	switch p.MemberIDFormat {
	case "", MemberIDFormatMBI:
	default:
		return fmt.Errorf("payer %s: memberIdFormat %q is not %q", p.ID, p.MemberIDFormat, MemberIDFormatMBI)
	}
	return nil
}
