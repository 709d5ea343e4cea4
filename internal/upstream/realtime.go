package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// Paths under the healthcare API base (the hosted API's, which Clearhouse
// serves under /2024-04-01).
const (
	EligibilityPath = "/change/medicalnetwork/eligibility/v3/raw-x12"
	ClaimStatusPath = "/change/medicalnetwork/claimstatus/v2/raw-x12"
)

// Exchange sends one 270 (or 276) interchange of ours to the upstream's
// raw-x12 endpoint and returns the payer's 271 (or 277) interchange from
// the answer's x12 field, which our own mapping then reads. It satisfies
// payers.Connection.
func (c *Client) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	op, path := "eligibility", EligibilityPath
	if bytes.Contains(request, []byte("ST*276*")) {
		op, path = "claimStatus", ClaimStatusPath
	}
	body, _ := json.Marshal(struct {
		X12 string `json:"x12"`
	}{string(request)})
	status, answer, err := c.do(ctx, op, http.MethodPost, join(c.URL, path), body, nil)
	if err != nil {
		return nil, err
	}
	var out struct {
		X12 string `json:"x12"`
	}
	_ = json.Unmarshal(answer, &out)
	// A 4xx with an X12 answer is the payer's own refusal (a 999 or AAA
	// errors in a 271): that is an answer, which our mapping reads.
	if out.X12 != "" && status < 500 && status != http.StatusUnauthorized && status != http.StatusForbidden {
		return []byte(out.X12), nil
	}
	if status >= 200 && status < 300 {
		return nil, &Error{Connection: c.ID, Op: op, HTTPStatus: status, Message: "the answer carries no x12"}
	}
	return nil, c.statusError(op, status, answer)
}
