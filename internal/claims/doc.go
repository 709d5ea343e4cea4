// Package claims is the claims family: it turns a claim in the contract's
// JSON into an 837 for the payer, records it as an outbound file and
// answers with the contract's 200 body.
//
// What every claim type shares lives in files of its own:
//
//	parties.go     submitter, receiver, subscriber, patient, providers, addresses, COB (the JSON model)
//	rules.go       the rules on those parts: names, NPI check digits, EINs, dates, money, code lists
//	x12writer.go   the envelope and the loops before the claim (1000A–2010CA), the same in every 837
//	flow.go        the claim flow: edits, route, build, our 277CA, record, answer (and validation only)
//	service.go     routing to the payer's partnership, Idempotency-Key, recording the outbound file
//	guidejson.go   the claim's Guide JSON (validated against the guide) and outbound fragments
//	ack277.go      277CA writing (our clearinghouse acknowledgment and the mock payer's)
//
// Each claim type adds its request model, rules, writer and flow beside
// them: dental (api-contract.md §4.1, 005010X224A2) is dental_request.go,
// dental_validate.go, build837.go (DN1, DN2, TOO, SV3) and dental.go;
// professional (005010X222A1) the professional_*.go files and
// build837p.go; institutional (005010X223A3) the institutional_*.go files
// and build837i.go. raw.go is the raw-X12 endpoint of every type.
//
//	var req claims.Request                  // the request model; its decoders accept the aliases
//	err := claims.Validate(&req)             // *ValidationError: every problem, by JSON pointer
//	built, err := claims.Build837D(&req, claims.BuildOptions{...})
//	resp := claims.NewResponse(&req, built, ...)
//
// The rules run before anything is sent: required fields, NPI check
// digits, EINs, real dates, code lists (gender, relationship, place of
// service, frequency, filing code, tooth numbers and surfaces, oral cavity
// areas), the claim charge equal to the sum of the line charges, diagnosis
// pointers that point at a diagnosis, at most 50 service lines, and the X12
// character set (x12text.go). Every 837 the writers produce passes the
// x12/guide validator for its guide (tests).
//
// The package knows nothing of HTTP: the API layer decodes and calls a
// Service, which validates, builds and records the claim with the EDI
// core's one outbound-file recorder (core.RecordOutbound); delivery and the
// payer's answers (999, 277CA) travel through the EDI core.
package claims
