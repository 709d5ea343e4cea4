package claims

import "github.com/clearhouse/clearhouse/internal/payers"

// claimKind is what differs between the claim types of the family where
// the shared code needs to know: the X12 form and guide, the directory's
// transaction, and where the outbound file is filed.
type claimKind struct {
	name          string // "dental", as in "does not take dental claims"
	form          string // 837D, 837P, 837I: file names and messages
	version       string // the implementation guide, GS08
	transaction   string // the payer directory's transaction (payers.DentalClaim…)
	sourceDirname string // the outbound execution's source directory
	// anyDelimiters: the raw endpoint takes any delimiters and rewrites the
	// set in ours (the medical examples use > for components); the dental
	// contract limits its raw endpoint to * : ^ ~.
	anyDelimiters bool
	// alsoAccepts are older guide ids the raw endpoint takes and rewrites
	// as version (the contract's raw 837I example is 005010X223A2).
	alsoAccepts []string
}

// dentalKind is the dental claim (api-contract.md §4.1).
var dentalKind = &claimKind{name: "dental", form: "837D", version: Version837D, transaction: payers.DentalClaim,
	sourceDirname: "dental-claims"}
