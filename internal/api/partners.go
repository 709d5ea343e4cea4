package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// Trading partners under /2023-08-01/x12, named as the hosted Partners API
// names them: profiles, partnerships with their inbound and outbound
// transaction settings, and connections. Every record belongs to the
// key's account and mode. The shapes are package partners' (the same as
// `clearhouse partners apply` files); answers add createdAt and updatedAt.

type partnerHandlers struct {
	store store.Store
	box   *secrets.Box
	dirs  *tenantdir.Root
	guard *netguard.Guard
	clock clock.Clock
}

// stamps are the times every answer adds to a record.
type stamps struct {
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type profileRecord struct {
	partners.Profile
	stamps
}

type connectionRecord struct {
	partners.Connection
	stamps
}

type partnershipRecord struct {
	partners.Partnership
	stamps
}

type settingRecord struct {
	partners.TransactionSetting
	PartnershipID string `json:"partnershipId"`
	stamps
}

func profileOut(p store.Profile) profileRecord {
	return profileRecord{partners.ProfileOf(p), stamps{p.CreatedAt, p.UpdatedAt}}
}

func connectionOut(c store.Connection) connectionRecord {
	return connectionRecord{partners.ConnectionOf(c), stamps{c.CreatedAt, c.UpdatedAt}}
}

func partnershipOut(p store.Partnership, settings []store.TransactionSetting) partnershipRecord {
	return partnershipRecord{partners.PartnershipOf(p, settings), stamps{p.CreatedAt, p.UpdatedAt}}
}

func settingOut(s store.TransactionSetting) settingRecord {
	return settingRecord{partners.SettingOf(s), s.PartnershipID, stamps{s.CreatedAt, s.UpdatedAt}}
}

// readRecord reads a body strictly as one record of package partners.
func readRecord[T any](r *http.Request) (T, error) {
	var raw json.RawMessage
	if err := DecodeJSON(r, &raw); err != nil {
		var zero T
		return zero, err
	}
	v, err := partners.Decode[T](raw)
	return v, partnerError(err, "")
}

// partnerError maps package partners' errors to the contract's: problems
// (their paths made relative to the record sent) to 400, conflicts to 409.
func partnerError(err error, prefix string) error {
	var ve *partners.ValidationError
	var ce *partners.ConflictError
	switch {
	case errors.As(err, &ve):
		fields := make([]FieldError, 0, len(ve.Problems))
		for _, p := range ve.Problems {
			path := p.Path
			if prefix != "" && strings.HasPrefix(path, prefix) {
				path = strings.TrimPrefix(path, prefix)
			}
			fields = append(fields, FieldError{Path: path, Message: p.Message})
		}
		return ValidationMore(fields, ve.More)
	case errors.As(err, &ce):
		return Errorf(http.StatusConflict, CodeConflict, "%s.", ce.Message)
	}
	return err
}

// apply writes doc for the caller, expecting the record to exist (update)
// or not (create).
func (h partnerHandlers) apply(ctx context.Context, p partnerOwner, doc partners.Document, expect partners.Expectation, prefix string) error {
	_, err := partners.Apply(ctx, h.store, doc, partners.ApplyOptions{AccountID: p.AccountID, Mode: p.Mode,
		Secrets: h.box, Directories: h.dirs, CheckHost: hostCheck(h.guard), Now: h.clock.Now(), Expect: &expect})
	if errors.Is(err, store.ErrNotFound) {
		return notFound(expect.Kind, expect.ID)
	}
	return partnerError(err, prefix)
}

type partnerOwner struct{ AccountID, Mode string }

func owner(r *http.Request) partnerOwner {
	p := httpkit.PrincipalFrom(r.Context())
	return partnerOwner{p.AccountID, p.Mode}
}

func notFound(kind, id string) error {
	return Errorf(http.StatusNotFound, CodeNotFound, "No %s %q for this API key's account and mode.", kind, id)
}

// found maps ErrNotFound to a 404 naming the record.
func found(err error, kind, id string) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound(kind, id)
	}
	return err
}

// sameID checks that a body's id, when given, is the path's.
func sameID(field, body, path string) error {
	if body != "" && body != path {
		return Validation(FieldError{Path: "/" + field, Message: fmt.Sprintf("%s %q differs from the one in the path (%q); ids do not change", field, body, path)})
	}
	return nil
}

func respond(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	WriteJSON(w, status, v)
}

func (h partnerHandlers) delete(kind, param string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o, id := owner(r), r.PathValue(param)
		if err := partners.Delete(r.Context(), h.store, o.AccountID, o.Mode, kind, id); err != nil {
			WriteError(w, r, partnerError(found(err, kind, id), ""))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

func (h partnerHandlers) listProfiles(w http.ResponseWriter, r *http.Request) {
	o := owner(r)
	list, err := h.store.ListProfiles(r.Context(), o.AccountID, o.Mode)
	items := make([]profileRecord, 0, len(list))
	for _, p := range list {
		items = append(items, profileOut(p))
	}
	respond(w, r, http.StatusOK, page[profileRecord]{Items: items}, err)
}

func (h partnerHandlers) getProfile(w http.ResponseWriter, r *http.Request) {
	o, id := owner(r), r.PathValue("profileId")
	p, err := h.store.GetProfile(r.Context(), o.AccountID, o.Mode, id)
	respond(w, r, http.StatusOK, profileOut(p), found(err, partners.KindProfile, id))
}

func (h partnerHandlers) createProfile(w http.ResponseWriter, r *http.Request) {
	h.writeProfile(w, r, "", http.StatusCreated)
}

func (h partnerHandlers) updateProfile(w http.ResponseWriter, r *http.Request) {
	h.writeProfile(w, r, r.PathValue("profileId"), http.StatusOK)
}

func (h partnerHandlers) writeProfile(w http.ResponseWriter, r *http.Request, pathID string, status int) {
	writeRecord(h, w, r, recordKind[partners.Profile]{
		kind: partners.KindProfile, idField: "profileId", prefix: "/profiles/0",
		id:  func(p *partners.Profile) *string { return &p.ProfileID },
		doc: func(p partners.Profile) partners.Document { return partners.Document{Profiles: []partners.Profile{p}} },
		read: func(ctx context.Context, o partnerOwner, id string) (any, error) {
			p, err := h.store.GetProfile(ctx, o.AccountID, o.Mode, id)
			return profileOut(p), err
		},
	}, pathID, status)
}

// recordKind is what writeRecord needs to know of one kind of record.
type recordKind[T any] struct {
	kind, idField, prefix string
	id                    func(*T) *string
	newID                 bool // generate an id when a create gives none
	doc                   func(T) partners.Document
	read                  func(ctx context.Context, o partnerOwner, id string) (any, error)
}

// writeRecord creates (pathID "") or updates one record and answers it as
// stored.
func writeRecord[T any](h partnerHandlers, w http.ResponseWriter, r *http.Request, k recordKind[T], pathID string, status int) {
	o := owner(r)
	v, err := readRecord[T](r)
	id := k.id(&v)
	switch {
	case err != nil:
	case pathID != "":
		err = sameID(k.idField, *id, pathID)
		*id = pathID
	case *id == "" && k.newID:
		*id = strings.ToLower(store.NewID())
	}
	if err == nil {
		err = h.apply(r.Context(), o, k.doc(v), partners.Expectation{Kind: k.kind, ID: *id, Exists: pathID != ""}, k.prefix)
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	rec, err := k.read(r.Context(), o, *id)
	respond(w, r, status, rec, err)
}

func (h partnerHandlers) listConnections(w http.ResponseWriter, r *http.Request) {
	o := owner(r)
	list, err := h.store.ListConnections(r.Context(), o.AccountID, o.Mode)
	items := make([]connectionRecord, 0, len(list))
	for _, c := range list {
		items = append(items, connectionOut(c))
	}
	respond(w, r, http.StatusOK, page[connectionRecord]{Items: items}, err)
}

func (h partnerHandlers) getConnection(w http.ResponseWriter, r *http.Request) {
	o, id := owner(r), r.PathValue("connectionId")
	c, err := h.store.GetConnection(r.Context(), o.AccountID, o.Mode, id)
	respond(w, r, http.StatusOK, connectionOut(c), found(err, partners.KindConnection, id))
}

func (h partnerHandlers) createConnection(w http.ResponseWriter, r *http.Request) {
	h.writeConnection(w, r, "", http.StatusCreated)
}

func (h partnerHandlers) updateConnection(w http.ResponseWriter, r *http.Request) {
	h.writeConnection(w, r, r.PathValue("connectionId"), http.StatusOK)
}

func (h partnerHandlers) writeConnection(w http.ResponseWriter, r *http.Request, pathID string, status int) {
	writeRecord(h, w, r, recordKind[partners.Connection]{
		kind: partners.KindConnection, idField: "connectionId", prefix: "/connections/0", newID: true,
		id: func(c *partners.Connection) *string { return &c.ConnectionID },
		doc: func(c partners.Connection) partners.Document {
			return partners.Document{Connections: []partners.Connection{c}}
		},
		read: func(ctx context.Context, o partnerOwner, id string) (any, error) {
			c, err := h.store.GetConnection(ctx, o.AccountID, o.Mode, id)
			return connectionOut(c), err
		},
	}, pathID, status)
}

func (h partnerHandlers) listPartnerships(w http.ResponseWriter, r *http.Request) {
	o := owner(r)
	list, err := h.store.ListPartnerships(r.Context(), o.AccountID, o.Mode)
	var settings []store.TransactionSetting
	if err == nil {
		settings, err = h.store.ListTransactionSettings(r.Context(), o.AccountID, o.Mode, "")
	}
	items := make([]partnershipRecord, 0, len(list))
	for _, p := range list {
		items = append(items, partnershipOut(p, settings))
	}
	respond(w, r, http.StatusOK, page[partnershipRecord]{Items: items}, err)
}

func (h partnerHandlers) getPartnership(w http.ResponseWriter, r *http.Request) {
	o, id := owner(r), r.PathValue("partnershipId")
	rec, err := h.partnership(r.Context(), o, id)
	respond(w, r, http.StatusOK, rec, err)
}

func (h partnerHandlers) partnership(ctx context.Context, o partnerOwner, id string) (partnershipRecord, error) {
	p, err := h.store.GetPartnership(ctx, o.AccountID, o.Mode, id)
	if err != nil {
		return partnershipRecord{}, found(err, partners.KindPartnership, id)
	}
	settings, err := h.store.ListTransactionSettings(ctx, o.AccountID, o.Mode, id)
	return partnershipOut(p, settings), err
}

func (h partnerHandlers) createPartnership(w http.ResponseWriter, r *http.Request) {
	h.writePartnership(w, r, "", http.StatusCreated)
}

func (h partnerHandlers) updatePartnership(w http.ResponseWriter, r *http.Request) {
	h.writePartnership(w, r, r.PathValue("partnershipId"), http.StatusOK)
}

// writePartnership creates or updates a partnership; settings listed in
// the body are created or updated with it, others are kept.
func (h partnerHandlers) writePartnership(w http.ResponseWriter, r *http.Request, pathID string, status int) {
	writeRecord(h, w, r, recordKind[partners.Partnership]{
		kind: partners.KindPartnership, idField: "partnershipId", prefix: "/partnerships/0",
		id: func(p *partners.Partnership) *string { return &p.PartnershipID },
		doc: func(p partners.Partnership) partners.Document {
			return partners.Document{Partnerships: []partners.Partnership{p}}
		},
		read: func(ctx context.Context, o partnerOwner, id string) (any, error) {
			return h.partnership(ctx, o, id)
		},
	}, pathID, status)
}

// settingHandlers serve one direction's transaction settings of a
// partnership.
type settingHandlers struct {
	partnerHandlers
	direction string
}

func (s settingHandlers) listName() string {
	if s.direction == store.DirectionInbound {
		return "inboundTransactions"
	}
	return "outboundTransactions"
}

// setting reads a setting of the path's partnership and direction.
func (s settingHandlers) setting(r *http.Request) (store.TransactionSetting, error) {
	o, ship, id := owner(r), r.PathValue("partnershipId"), r.PathValue("transactionSettingId")
	rec, err := s.store.GetTransactionSetting(r.Context(), o.AccountID, o.Mode, id)
	if err == nil && (rec.PartnershipID != ship || rec.Direction != s.direction) {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		return rec, Errorf(http.StatusNotFound, CodeNotFound, "Partnership %q has no %s transaction setting %q for this API key's account and mode.",
			ship, strings.ToLower(s.direction), id)
	}
	return rec, err
}

func (s settingHandlers) list(w http.ResponseWriter, r *http.Request) {
	o, ship := owner(r), r.PathValue("partnershipId")
	if _, err := s.store.GetPartnership(r.Context(), o.AccountID, o.Mode, ship); err != nil {
		WriteError(w, r, found(err, partners.KindPartnership, ship))
		return
	}
	list, err := s.store.ListTransactionSettings(r.Context(), o.AccountID, o.Mode, ship)
	items := make([]settingRecord, 0, len(list))
	for _, t := range list {
		if t.Direction == s.direction {
			items = append(items, settingOut(t))
		}
	}
	respond(w, r, http.StatusOK, page[settingRecord]{Items: items}, err)
}

func (s settingHandlers) get(w http.ResponseWriter, r *http.Request) {
	rec, err := s.setting(r)
	respond(w, r, http.StatusOK, settingOut(rec), err)
}

func (s settingHandlers) delete(w http.ResponseWriter, r *http.Request) {
	o := owner(r)
	rec, err := s.setting(r)
	if err == nil {
		err = partners.Delete(r.Context(), s.store, o.AccountID, o.Mode, partners.KindSetting, rec.ID)
	}
	if err != nil {
		WriteError(w, r, partnerError(err, ""))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s settingHandlers) create(w http.ResponseWriter, r *http.Request) { s.write(w, r, false) }

func (s settingHandlers) update(w http.ResponseWriter, r *http.Request) { s.write(w, r, true) }

// write creates or updates a setting: the partnership goes along
// unchanged, so Apply checks the setting against it and its siblings.
func (s settingHandlers) write(w http.ResponseWriter, r *http.Request, exists bool) {
	o, shipID := owner(r), r.PathValue("partnershipId")
	t, err := readRecord[partners.TransactionSetting](r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	ship, err := s.store.GetPartnership(r.Context(), o.AccountID, o.Mode, shipID)
	if err != nil {
		WriteError(w, r, found(err, partners.KindPartnership, shipID))
		return
	}
	switch {
	case exists:
		if _, err := s.setting(r); err != nil {
			WriteError(w, r, err)
			return
		}
		pathID := r.PathValue("transactionSettingId")
		if err := sameID("transactionSettingId", t.TransactionSettingID, pathID); err != nil {
			WriteError(w, r, err)
			return
		}
		t.TransactionSettingID = pathID
	case t.TransactionSettingID == "":
		t.TransactionSettingID = strings.ToLower(store.NewID())
	}
	doc := partners.Document{Partnerships: []partners.Partnership{partners.PartnershipOf(ship, nil)}}
	if s.direction == store.DirectionInbound {
		doc.Partnerships[0].InboundTransactions = []partners.TransactionSetting{t}
	} else {
		doc.Partnerships[0].OutboundTransactions = []partners.TransactionSetting{t}
	}
	err = s.apply(r.Context(), o, doc, partners.Expectation{Kind: partners.KindSetting, ID: t.TransactionSettingID, Exists: exists},
		"/partnerships/0/"+s.listName()+"/0")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	rec, err := s.store.GetTransactionSetting(r.Context(), o.AccountID, o.Mode, t.TransactionSettingID)
	status := http.StatusCreated
	if exists {
		status = http.StatusOK
	}
	respond(w, r, status, settingOut(rec), err)
}

// hostCheck asks guard about a connection host that is a literal address
// or localhost (names are checked where it counts, when they are dialled
// and resolved); nil without a guard.
func hostCheck(guard *netguard.Guard) func(string) error {
	if guard == nil {
		return nil
	}
	return func(host string) error {
		if strings.EqualFold(host, "localhost") {
			host = "127.0.0.1"
		}
		addr, err := netip.ParseAddr(strings.Trim(host, "[]"))
		if err != nil {
			return nil
		}
		network := "tcp6" // as the dialer names it to the guard
		if addr.Unmap().Is4() {
			network, addr = "tcp4", addr.Unmap()
		}
		return guard.Check(network, netip.AddrPortFrom(addr, 22).String(), nil)
	}
}
