// Package eligibility implements real-time eligibility checks in the shape of
// the legacy JSON eligibility API (POST /change/medicalnetwork/eligibility/v3):
// the request model and its rules, the JSON → X12 270 (005010X279A1) builder,
// the X12 271 → JSON response mapper, and the Service that ties them to a
// payer connection.
//
// The package knows nothing of HTTP. internal/api decodes the body into a
// Request, calls Service.Check (or CheckRawX12) and writes Result.Body()
// with Result.HTTPStatus.
//
// Code → name tables (service types, EB01 eligibility codes, AAA reasons, …)
// are data files under codes/, embedded in the binary; see codes.go.
package eligibility
