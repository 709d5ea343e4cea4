package connections

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

// Set is the connections of one configuration with their secrets opened.
// Plaintext secrets live only in memory, never in logs or output.
type Set struct {
	defs    map[string]Definition
	secrets map[string]string // SealContext → plaintext
}

// payersFile is the part of the --payers file this package reads.
type payersFile struct {
	Connections []json.RawMessage `json:"connections"`
	Payers      json.RawMessage   `json:"payers"`
}

// LoadFile reads the "connections" of a --payers file and opens their
// secrets with box. A file with secrets and no key is refused (ErrNoKey):
// a server that cannot open its credentials must not start half-working.
// A file without "connections" gives an empty Set.
func LoadFile(path string, box *secrets.Box) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data, box)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Parse is LoadFile on the file's bytes.
func Parse(data []byte, box *secrets.Box) (*Set, error) {
	var f payersFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("connections: %w", err)
	}
	defs := make([]Definition, 0, len(f.Connections))
	for i, raw := range f.Connections {
		var d Definition
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("connections: entry %d: %w", i+1, err)
		}
		defs = append(defs, d)
	}
	return NewSet(defs, box)
}

// NewSet validates defs and opens their secrets with box.
func NewSet(defs []Definition, box *secrets.Box) (*Set, error) {
	s := &Set{defs: map[string]Definition{}, secrets: map[string]string{}}
	for i, d := range defs {
		if err := d.Validate(); err != nil {
			return nil, fmt.Errorf("connections: entry %d (%s): %w", i+1, d.ID, err)
		}
		if _, dup := s.defs[d.ID]; dup {
			return nil, fmt.Errorf("connections: entry %d: id %q is declared twice", i+1, d.ID)
		}
		for field, sealed := range d.SecretFields() {
			if !secrets.IsSealed(sealed) {
				return nil, fmt.Errorf("connections: %s: %s is not sealed; seal it with `clearhouse connections seal --id %s --field %s` (reads the value on stdin) and put the output in the file", d.ID, field, d.ID, field)
			}
			if !box.Configured() {
				return nil, fmt.Errorf("connections: %s has secrets: %w", d.ID, secrets.ErrNoKey)
			}
			plain, err := box.OpenString(sealed, SealContext(d.ID, field))
			if err != nil {
				return nil, fmt.Errorf("connections: %s: %s: %w", d.ID, field, err)
			}
			s.secrets[SealContext(d.ID, field)] = plain
		}
		s.defs[d.ID] = d
	}
	return s, nil
}

// ErrUnknown: no connection has the id.
var ErrUnknown = errors.New("no connection has this id")

// Get returns the definition with id.
func (s *Set) Get(id string) (Definition, error) {
	d, ok := s.defs[id]
	if !ok {
		return Definition{}, fmt.Errorf("%w: %q (declared: %v)", ErrUnknown, id, s.IDs())
	}
	return d, nil
}

// IDs lists the declared ids, sorted.
func (s *Set) IDs() []string {
	ids := make([]string, 0, len(s.defs))
	for id := range s.defs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// secret returns the opened value of a secret field ("" when unset).
func (s *Set) secret(id, field string) string { return s.secrets[SealContext(id, field)] }
