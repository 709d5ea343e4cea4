// Package practice keeps a practice's providers: the billing providers
// (the practice as it bills: name, NPI, tax id, taxonomy, address with
// ZIP+4, contact) and the rendering (treating) providers an account saves
// per mode, so a claim or an eligibility check picks them instead of
// typing them again. The rules are the claims' own
// (claims.CheckBillingProvider), so a saved provider never makes a claim
// fail. The API (/2024-04-01/practice/…) and the console share this
// service.
package practice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Roles, as the paths name them.
const (
	Billing   = store.RoleBilling
	Rendering = store.RoleRendering
)

// Provider is a saved provider as the API shows it: its Input, with its
// id and dates.
type Provider struct {
	ID string `json:"id"`
	Input
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Input is what a caller sends to create or replace a provider: the claim's
// own provider fields, and whether it is the default.
type Input struct {
	Default            bool                       `json:"default"`
	OrganizationName   string                     `json:"organizationName,omitempty"`
	LastName           string                     `json:"lastName,omitempty"`
	FirstName          string                     `json:"firstName,omitempty"`
	NPI                string                     `json:"npi,omitempty"`
	EmployerID         string                     `json:"employerId,omitempty"`
	TaxonomyCode       string                     `json:"taxonomyCode,omitempty"`
	Address            *claims.Address            `json:"address,omitempty"`
	ContactInformation *claims.ContactInformation `json:"contactInformation,omitempty"`
}

// Claim is the provider as a claim carries it.
func (p Input) Claim(role string) *claims.Provider {
	t := "BillingProvider"
	if role == Rendering {
		t = "RenderingProvider"
	}
	return &claims.Provider{ProviderType: t, NPI: p.NPI, EmployerID: p.EmployerID, OrganizationName: p.OrganizationName,
		LastName: p.LastName, FirstName: p.FirstName, TaxonomyCode: p.TaxonomyCode, Address: p.Address,
		ContactInformation: p.ContactInformation}
}

// Name is how a person reads the provider in a list.
func (p Input) Name() string {
	if p.OrganizationName != "" {
		return p.OrganizationName
	}
	return strings.TrimSpace(p.FirstName + " " + p.LastName)
}

// Dental reports whether the provider's taxonomy is a dental one (the
// NUCC's 122… "Dental Providers" group and 1223… dentists), which makes
// dental the default kind of check and claim.
func (p Input) Dental() bool { return strings.HasPrefix(p.TaxonomyCode, "122") }

// Invalid lists the problems of an Input.
type Invalid struct{ Fields []problem.Field }

func (e *Invalid) Error() string {
	return fmt.Sprintf("practice: %d problems with the provider", len(e.Fields))
}

// ErrTooMany: the role holds store.MaxPracticeProviders already.
var ErrTooMany = problem.New(problem.Forbidden, "practice",
	fmt.Sprintf("This account keeps at most %d providers of each kind; delete one first.", store.MaxPracticeProviders))

// ValidRole reports whether role names a kind of provider.
func ValidRole(role string) bool { return role == Billing || role == Rendering }

// Check lists the problems of in as a provider of role, by the claims' rules.
func Check(role string, in Input) []problem.Field {
	if role == Billing {
		return claims.CheckBillingProvider(in.Claim(role))
	}
	return claims.CheckRenderingProvider(in.Claim(role))
}

// Service saves and reads providers.
type Service struct {
	Store store.Store
	Clock clock.Clock
}

// List is one role's providers of the tenant, the default first.
func (s *Service) List(ctx context.Context, scope store.Scope, role string) ([]Provider, error) {
	rows, err := store.ForTenant(s.Store, scope).PracticeProviders(ctx, role)
	if err != nil {
		return nil, err
	}
	out := make([]Provider, 0, len(rows))
	for _, r := range rows {
		p, err := decode(r)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Default is the role's default provider (or its first), false when the
// tenant saved none.
func (s *Service) Default(ctx context.Context, scope store.Scope, role string) (Provider, bool, error) {
	list, err := s.List(ctx, scope, role)
	if err != nil || len(list) == 0 {
		return Provider{}, false, err
	}
	return list[0], true, nil
}

// Get is one of the tenant's providers (store.ErrNotFound when it is not).
func (s *Service) Get(ctx context.Context, scope store.Scope, role, id string) (Provider, error) {
	r, err := store.ForTenant(s.Store, scope).PracticeProvider(ctx, role, id)
	if err != nil {
		return Provider{}, err
	}
	return decode(r)
}

// Save creates (id "") or replaces a provider after checking it; the
// first provider of a role is its default.
func (s *Service) Save(ctx context.Context, scope store.Scope, role, id string, in Input) (Provider, error) {
	if fields := Check(role, in); len(fields) > 0 {
		return Provider{}, &Invalid{Fields: fields}
	}
	now := s.Clock.Now().UTC().Truncate(time.Microsecond)
	p := Provider{ID: id, Input: in, CreatedAt: now, UpdatedAt: now}
	err := s.Store.InTx(ctx, func(tx store.Queries) error {
		t := store.ForTenant(tx, scope)
		existing, err := t.PracticeProviders(ctx, role)
		if err != nil {
			return err
		}
		if id == "" {
			if len(existing) >= store.MaxPracticeProviders {
				return ErrTooMany
			}
			p.ID = store.NewID()
			p.Default = p.Default || len(existing) == 0
		} else {
			old, err := t.PracticeProvider(ctx, role, id)
			if err != nil {
				return err
			}
			p.CreatedAt = old.CreatedAt
			p.Default = p.Default || (old.Default && len(existing) == 1)
		}
		body, err := json.Marshal(p)
		if err != nil {
			return err
		}
		return t.PutPracticeProvider(ctx, store.PracticeProvider{ID: p.ID, Role: role, Default: p.Default, Body: body,
			CreatedAt: p.CreatedAt, UpdatedAt: now})
	})
	return p, err
}

// Delete removes a provider; when it was the default, the oldest other
// one becomes the default.
func (s *Service) Delete(ctx context.Context, scope store.Scope, role, id string) error {
	return s.Store.InTx(ctx, func(tx store.Queries) error {
		t := store.ForTenant(tx, scope)
		old, err := t.PracticeProvider(ctx, role, id)
		if err != nil {
			return err
		}
		if err := t.DeletePracticeProvider(ctx, role, id); err != nil {
			return err
		}
		if !old.Default {
			return nil
		}
		rest, err := t.PracticeProviders(ctx, role)
		if err != nil || len(rest) == 0 {
			return err
		}
		next := rest[0]
		next.Default = true
		var p Provider
		if err := json.Unmarshal(next.Body, &p); err != nil {
			return err
		}
		p.Default = true
		if next.Body, err = json.Marshal(p); err != nil {
			return err
		}
		return t.PutPracticeProvider(ctx, next)
	})
}

func decode(r store.PracticeProvider) (Provider, error) {
	var p Provider
	if err := json.Unmarshal(r.Body, &p); err != nil {
		return Provider{}, errors.New("practice: a stored provider is not JSON: " + err.Error())
	}
	p.ID, p.Default, p.CreatedAt, p.UpdatedAt = r.ID, r.Default, r.CreatedAt, r.UpdatedAt
	return p, nil
}
