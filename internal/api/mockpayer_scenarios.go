package api

import (
	"errors"
	"net/http"
	"reflect"
	"regexp"
	"strings"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/store"
)

// mockScenarioHandlers serve the account's payer simulator scenario file
// (GET/PUT/DELETE /2024-04-01/mock-payer/scenarios). The file belongs to
// the key's account and mode; only test mode has one, since only test mode
// reaches the mock payer.
type mockScenarioHandlers struct {
	store store.Queries
	clock clock.Clock
}

func (h mockScenarioHandlers) files(r *http.Request) scenario.Files {
	return scenario.Files{Tenant: tenant(r, h.store), Now: h.clock.Now}
}

func (h mockScenarioHandlers) testModeOnly(r *http.Request, status int) error {
	if httpkit.PrincipalFrom(r.Context()).Mode == store.ModeTest {
		return nil
	}
	if status == http.StatusNotFound {
		return Errorf(status, CodeNotFound, "Production mode has no payer simulator scenarios: the simulator answers test API keys only.")
	}
	return Errorf(status, CodeForbidden, "The payer simulator answers test mode only; upload scenarios with a test API key.")
}

// get is GET …/mock-payer/scenarios: the file as uploaded, JSON or YAML.
func (h mockScenarioHandlers) get(w http.ResponseWriter, r *http.Request) {
	if err := h.testModeOnly(r, http.StatusNotFound); err != nil {
		WriteError(w, r, err)
		return
	}
	f, err := tenant(r, h.store).MockScenarios(r.Context()) // as uploaded, not parsed again
	if errors.Is(err, store.ErrNotFound) {
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No scenario file was uploaded for this account in test mode; PUT one to this path."))
		return
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	ct := "application/json"
	if scenario.IsYAML(f.Body) {
		ct = "application/yaml"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Last-Modified", f.UpdatedAt.UTC().Format(http.TimeFormat))
	w.WriteHeader(http.StatusOK)
	w.Write(f.Body)
}

// put is PUT …/mock-payer/scenarios: validate the whole file (JSON or
// YAML, whatever the Content-Type says: the loader tells them apart), then
// replace the stored one. A file with a problem changes nothing.
func (h mockScenarioHandlers) put(w http.ResponseWriter, r *http.Request) {
	if err := h.testModeOnly(r, http.StatusForbidden); err != nil {
		WriteError(w, r, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			WriteError(w, r, tooLarge(mb.Limit))
			return
		}
		WriteError(w, r, err)
		return
	}
	set, err := h.files(r).Put(r.Context(), body)
	var se *scenario.Error
	if errors.As(err, &se) {
		WriteError(w, r, scenarioProblem(se, unknownScenarioField(body, se)))
		return
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	type item struct {
		Name string `json:"name"`
		Line int    `json:"line"`
	}
	items := []item{}
	for _, s := range set.Scenarios {
		items = append(items, item{s.Name, s.Line})
	}
	WriteJSON(w, http.StatusOK, map[string]any{"scenarios": items})
}

// delete is DELETE …/mock-payer/scenarios: back to the published mocks.
func (h mockScenarioHandlers) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.testModeOnly(r, http.StatusNotFound); err != nil {
		WriteError(w, r, err)
		return
	}
	if err := h.files(r).Delete(r.Context()); errors.Is(err, store.ErrNotFound) {
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No scenario file was uploaded for this account in test mode."))
		return
	} else if err != nil {
		WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

var scenarioIndex = regexp.MustCompile(`\[(\d+)\]`)

// unknownScenarioField is the JSON Pointer of the field an unknown-field
// error is about, "" when it is not one or cannot be found (a YAML file).
// encoding/json names the field alone ("delay"), which is not where it is
// (/scenarios/0/eligibility/delay).
func unknownScenarioField(body []byte, e *scenario.Error) string {
	if e.Field == "" || !strings.HasPrefix(e.Message, "is not a known field") {
		return ""
	}
	for _, u := range unknownFields(body, reflect.TypeFor[scenario.File]()) {
		if u.More == 0 && strings.EqualFold(u.Pointer[strings.LastIndexByte(u.Pointer, '/')+1:], e.Field) {
			return u.Pointer
		}
	}
	return ""
}

// scenarioProblem is a scenario file error in the contract's format: the
// field as a JSON Pointer (pointer, when known, else from the error), the
// line in the message.
func scenarioProblem(e *scenario.Error, pointer string) *Error {
	path := "/"
	switch {
	case pointer != "":
		path = pointer
	case e.Field != "":
		path = "/" + strings.ReplaceAll(scenarioIndex.ReplaceAllString(e.Field, ".$1"), ".", "/")
	}
	msg := e.Message
	if e.Line > 0 {
		msg = "line " + itoa(e.Line) + ": " + msg
	}
	v := Validation(FieldError{Path: path, Message: msg})
	v.Message = "The scenario file is not valid: " + e.Error() + " (schema: internal/mockpayer/scenario/schema.json)."
	return v
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
