// Package claims turns a dental claim in the contract's JSON
// (api-contract.md §4.1, DentalClaimsSubmissionRequestContent) into a
// 005010X224A2 837D, and answers with the contract's 200 body (§4.2).
//
//	req, err := claims.Decode(body)        // the request model, aliases accepted
//	err = claims.Validate(req)             // *ValidationError: every problem, by JSON pointer
//	built, err := claims.Build837D(req, claims.BuildOptions{...})
//	resp := claims.NewResponse(req, built, ...)
//
// The rules run before anything is sent: required fields, NPI check
// digits, EINs, real dates, code lists (gender, relationship, place of
// service, frequency, filing code, tooth numbers and surfaces, oral cavity
// areas), the claim charge equal to the sum of the line charges, diagnosis
// pointers that point at a diagnosis, at most 50 service lines, and the X12
// character set (x12text.go). Every 837D the builder writes passes the
// x12/guide validator for 005010X224A2 (tests).
//
// The package knows nothing of HTTP or storage: the API layer decodes,
// validates, builds and persists; delivery and the payer's answers
// (999, 277CA) travel through the EDI core.
package claims
