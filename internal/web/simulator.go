package web

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/store"
)

// The payer simulator page: the account's test-mode scenario file
// (docs/guides/payer-simulator.md) to read, replace (pasted or uploaded,
// JSON or YAML) and reset, through scenario.Files as the API's
// /2024-04-01/mock-payer/scenarios does. Replacing a file and resetting
// ask first; production sessions are told the simulator is test-only.

var simulatorPages = []string{"simulator"}

type simulatorData struct {
	Body      string // the stored file, or the refused text to correct
	Scenarios []*scenario.Scenario
	Stored    bool
	Notice    string
	Error     string
}

func (c *Console) simulatorPage(w http.ResponseWriter, r *http.Request) {
	c.showSimulator(w, r, http.StatusOK, simulatorData{})
}

func (c *Console) simulatorFiles(r *http.Request) (scenario.Files, bool) {
	v := viewerFrom(r.Context())
	return scenario.Files{Tenant: c.tenant(v), Now: c.cfg.Clock.Now}, v.IsTest()
}

// showSimulator renders the page with the stored file (unless data holds
// a refused text to correct).
func (c *Console) showSimulator(w http.ResponseWriter, r *http.Request, status int, data simulatorData) {
	files, test := c.simulatorFiles(r)
	if !test {
		c.forbidden(w, r, "The payer simulator answers test mode only. Sign in with a test key to see or change its scenarios.")
		return
	}
	file, set, err := files.Get(r.Context())
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil && file.Body == nil:
		c.fail(w, r, err)
		return
	default: // a stored file that no longer parses is still shown
		data.Stored = true
		if data.Error == "" {
			data.Body = string(file.Body)
		}
		if set != nil {
			data.Scenarios = set.Scenarios
		}
	}
	c.renderPage(w, r, status, "simulator", page{Title: "Payer simulator", Nav: "simulator", Data: data})
}

// uploadScenarios replaces the file with the pasted text or the chosen
// file, once confirmed when there is one to replace.
func (c *Console) uploadScenarios(w http.ResponseWriter, r *http.Request) {
	files, test := c.simulatorFiles(r)
	if !test {
		c.forbidden(w, r, "The payer simulator answers test mode only; upload scenarios signed in with a test key.")
		return
	}
	body := r.PostFormValue("body")
	if r.MultipartForm != nil && len(r.MultipartForm.File["file"]) > 0 {
		f, err := r.MultipartForm.File["file"][0].Open()
		if err != nil {
			c.fail(w, r, err)
			return
		}
		b, err := io.ReadAll(io.LimitReader(f, scenario.MaxFileBytes+1))
		f.Close()
		if err != nil {
			c.fail(w, r, err)
			return
		}
		body = string(b)
		r.PostForm.Set("body", body) // the confirmation posts the text again
	}
	if strings.TrimSpace(body) == "" {
		c.showSimulator(w, r, http.StatusBadRequest, simulatorData{Error: "Paste a scenario file or choose one to upload."})
		return
	}
	set, err := scenario.Parse([]byte(body))
	var se *scenario.Error
	if errors.As(err, &se) {
		c.showSimulator(w, r, http.StatusBadRequest, simulatorData{Body: body, Error: "Not saved: " + se.Error() + ". Nothing changed."})
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if _, _, err := files.Get(r.Context()); err == nil && !c.confirmed(w, r, confirmData{
		Heading: "Replace the scenario file?", Button: "Replace the scenarios", Cancel: "/simulator",
		Question:    "Replace this account's test-mode scenarios with the " + strconv.Itoa(len(set.Scenarios)) + " of the new file?",
		Consequence: "The scenarios there now are removed; test checks and claims are answered by the new file from the next request."}) {
		return
	}
	if _, err := files.Put(r.Context(), []byte(body)); err != nil {
		c.fail(w, r, err)
		return
	}
	c.showSimulator(w, r, http.StatusOK, simulatorData{Notice: "Saved: " + strconv.Itoa(len(set.Scenarios)) + " scenarios answer this account's test checks and claims."})
}

// resetScenarios deletes the file once confirmed: the published mocks
// answer alone again.
func (c *Console) resetScenarios(w http.ResponseWriter, r *http.Request) {
	files, test := c.simulatorFiles(r)
	if !test {
		c.forbidden(w, r, "The payer simulator answers test mode only.")
		return
	}
	if !c.confirmed(w, r, confirmData{Heading: "Reset the payer simulator?", Button: "Remove the scenarios", Cancel: "/simulator",
		Question:    "Remove this account's test-mode scenario file?",
		Consequence: "Test checks and claims are answered by the published mocks alone again. Keep a copy of the file if you want it back."}) {
		return
	}
	if err := files.Delete(r.Context()); err != nil && !errors.Is(err, store.ErrNotFound) {
		c.fail(w, r, err)
		return
	}
	c.showSimulator(w, r, http.StatusOK, simulatorData{Notice: "Scenarios removed: the published mocks answer alone."})
}

// simulatedBy names the scenario that produced the signed-in tenant's
// answers about subject (a check id, or store.ClaimSubject of a claim):
// "" when none did; false after answering an error.
func (c *Console) simulatedBy(w http.ResponseWriter, r *http.Request, subject string) (string, bool) {
	v := viewerFrom(r.Context())
	if !v.IsTest() {
		return "", true
	}
	sims, err := c.tenant(v).SimulatedAnswers(r.Context(), subject)
	if err != nil {
		c.fail(w, r, err)
		return "", false
	}
	var names []string
	for _, s := range sims {
		if !slices.Contains(names, s.Scenario) {
			names = append(names, s.Scenario)
		}
	}
	return strings.Join(names, ", "), true
}
