package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Probe checks the key and the path with a call that sends no patient
// data, costs nothing and leaves no record: a raw-x12 eligibility request
// whose body is not even an object, which an upstream refuses (400) after
// it has checked the key and before it reads anything. It
// returns the step that failed ("auth" or "path") with what to fix, or
// "" with what it found.
func (c *Client) Probe(ctx context.Context) (step, detail string) {
	status, body, err := c.do(ctx, "probe", http.MethodPost, join(c.URL, EligibilityPath), []byte(`[]`), nil)
	var ue *Error
	switch {
	case errors.As(err, &ue):
		return "path", fmt.Sprintf("%v — is url the upstream's healthcare API base (…/2024-04-01)?", ue)
	case err != nil:
		return "path", err.Error()
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "auth", c.statusError("probe", status, body).Error()
	case status == http.StatusBadRequest:
		return "", fmt.Sprintf("the key is accepted and %s answers (a probe without content, refused as malformed: nothing was sent to a payer)", join(c.URL, EligibilityPath))
	}
	return "path", fmt.Sprintf("%s answered HTTP %d to an empty probe; want 400 — check url (the healthcare API base, such as https://healthcare.example/2024-04-01)", join(c.URL, EligibilityPath), status)
}
