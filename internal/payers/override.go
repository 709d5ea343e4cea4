package payers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
)

// payerPatch is one entry of an override file. A field left out keeps the
// directory's value, so an operator configures a connection with just
// {"id": "87726", "connection": "uhc-core"}. An id the directory does not
// know adds a payer, which then needs at least a name and transactions.
type payerPatch struct {
	ID                 string               `json:"id"`
	Name               *string              `json:"name"`
	Aliases            *[]string            `json:"aliases"`
	Transactions       *[]string            `json:"transactions"`
	Connection         *string              `json:"connection"`
	Connections        *map[string][]string `json:"connections"`
	DependentPlacement *string              `json:"dependentPlacement"`
	Coverage           *[]string            `json:"coverage"`
	MemberIDFormat     *string              `json:"memberIdFormat"`
	Notes              *string              `json:"notes"`
}

func (pp payerPatch) apply(p *Payer) {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	setList := func(dst *[]string, src *[]string) {
		if src != nil {
			*dst = slices.Clone(*src)
		}
	}
	set(&p.Name, pp.Name)
	setList(&p.Aliases, pp.Aliases)
	setList(&p.Transactions, pp.Transactions)
	set(&p.Connection, pp.Connection)
	if pp.Connections != nil {
		p.Connections = (Payer{Connections: *pp.Connections}).clone().Connections
	}
	set(&p.DependentPlacement, pp.DependentPlacement)
	setList(&p.Coverage, pp.Coverage)
	set(&p.MemberIDFormat, pp.MemberIDFormat)
	set(&p.Notes, pp.Notes)
}

// WithOverrides returns a new directory: d with the entries of data (the
// directory.json format, {"payers": [...]}) applied as patches. An entry
// whose id (or alias) is already known updates that payer; any other entry
// adds one. d itself is unchanged.
func (d *Directory) WithOverrides(data []byte) (*Directory, error) {
	var file directoryFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		return nil, fmt.Errorf("payer directory: %w", err)
	}
	out := &Directory{payers: make([]Payer, 0, len(d.payers)+len(file.Payers)), enrolled: maps.Clone(d.enrolled),
		enrollments: slices.Clone(d.enrollments)}
	for _, p := range d.payers {
		out.payers = append(out.payers, p.clone())
	}
	out.reindex()
	for n, raw := range file.Payers {
		var patch payerPatch
		pdec := json.NewDecoder(bytes.NewReader(raw))
		pdec.DisallowUnknownFields()
		if err := pdec.Decode(&patch); err != nil {
			return nil, fmt.Errorf("payer directory: entry %d: %w", n+1, err)
		}
		if err := out.applyPatch(patch); err != nil {
			return nil, fmt.Errorf("payer directory: entry %d: %w", n+1, err)
		}
	}
	out.joinRoutes()
	return out, nil
}

func (d *Directory) applyPatch(patch payerPatch) error {
	if i, ok := d.index[normalizeID(patch.ID)]; ok {
		p := d.payers[i]
		patch.apply(&p)
		if err := p.validate(); err != nil {
			return err
		}
		// Remove and re-add so changed aliases are checked for clashes.
		d.payers = slices.Delete(d.payers, i, i+1)
		d.reindex()
		return d.add(p)
	}
	p := Payer{ID: patch.ID, DependentPlacement: PlacementDependents}
	patch.apply(&p)
	if err := p.validate(); err != nil {
		return err
	}
	return d.add(p)
}

// LoadFile returns the default directory with the override file at path
// applied (see WithOverrides). Operators use it to name production
// connections and to add payers without rebuilding.
func LoadFile(path string) (*Directory, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := Default().WithOverrides(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
