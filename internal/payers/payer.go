// Package payers is the payer directory (who a tradingPartnerServiceId
// names, what that payer supports, how it answers) and the routing of an
// X12 exchange to the connection that reaches the payer.
//
// The directory is data: an embedded JSON file (directory.json) that an
// operator can extend or override at run time with LoadFile. Connections
// are named; the Router maps (mode, payer) to one of them, and test mode
// always reaches the mock payers while production never does.
package payers

import "slices"

// Transaction codes a payer can support. Eligibility is the 270/271 pair.
const (
	Eligibility        = "270"
	ClaimStatus        = "276"
	Remittance         = "835"
	DentalClaim        = "837D"
	ProfessionalClaim  = "837P"
	InstitutionalClaim = "837I"
)

// knownTransactions lists every code a directory entry may name.
var knownTransactions = []string{Eligibility, ClaimStatus, Remittance, DentalClaim, ProfessionalClaim, InstitutionalClaim}

// Where a payer's 271 reports a dependent the request sent in 2000D.
const (
	// PlacementDependents: the 271 keeps the subscriber in 2100C and answers
	// for the dependent in 2000D/2100D (JSON "dependents").
	PlacementDependents = "dependents"
	// PlacementSubscriber: the 271 has no 2000D; the patient's name and birth
	// date come back in 2100C (JSON "subscriber").
	PlacementSubscriber = "subscriber"
)

// MemberIDFormatMBI marks payers (Medicare) whose member id must be a
// Medicare Beneficiary Identifier.
const MemberIDFormatMBI = "mbi"

// Payer is one directory entry.
type Payer struct {
	// ID is the primary tradingPartnerServiceId, kept as published
	// (leading zeros matter: "00590" is not "590").
	ID   string `json:"id"`
	Name string `json:"name"`
	// Aliases are other ids that name the same payer (older clearinghouse
	// ids, claims ids). Lookup is case-insensitive over ID and Aliases.
	Aliases []string `json:"aliases,omitempty"`
	// Transactions the payer exchanges electronically (Eligibility, ...).
	Transactions []string `json:"transactions"`
	// Connection names the production connection that reaches the payer;
	// "" means not configured.
	Connection string `json:"connection"`
	// Connections names, per transaction type (RouteEligibility, ...),
	// the ordered routes to the payer: the first that answers wins, the
	// next takes over when one is down. It takes precedence over
	// Connection for the types it lists.
	Connections map[string][]string `json:"connections,omitempty"`
	// DependentPlacement is PlacementDependents or PlacementSubscriber.
	DependentPlacement string `json:"dependentPlacement"`
	// Coverage lines of business, for the console's payer picker:
	// "medical", "dental", "vision".
	Coverage []string `json:"coverage,omitempty"`
	// MemberIDFormat is "" or MemberIDFormatMBI.
	MemberIDFormat string `json:"memberIdFormat,omitempty"`
	// Notes for operators (where the id comes from, enrollment needs).
	Notes string `json:"notes,omitempty"`

	// What the operator's directory file (serve --payer-directory) says
	// about the payer, in the hosted Payers API's terms (dirfile.go).

	// StediID is the id the hosted directory gives the payer when it is
	// not ID ("" otherwise); Lookup finds the payer by it too.
	StediID string `json:"stediId,omitempty"`
	// Names are the payer's other names (searched like Name).
	Names []string `json:"names,omitempty"`
	// OperatingStates are US state codes or NATIONAL.
	OperatingStates []string `json:"operatingStates,omitempty"`
	// EnrollmentRequired lists the codes of Transactions the payer takes
	// only from providers enrolled with it (ENROLLMENT_REQUIRED).
	EnrollmentRequired []string `json:"enrollmentRequired,omitempty"`
	// OtherSupport keeps the directory file's values for the hosted
	// transaction types Clearhouse does not exchange
	// (coordinationOfBenefits, unsolicitedClaimAttachment), so an export
	// writes back what an import read; the API shows them NOT_SUPPORTED.
	OtherSupport map[string]string `json:"otherSupport,omitempty"`
	// Enrollment is the hosted record's enrollment process details.
	Enrollment *EnrollmentInfo `json:"enrollment,omitempty"`
	// EmployerIdentificationNumbers, ParentPayerGroupID and Website are
	// carried as the hosted directory has them.
	EmployerIdentificationNumbers []string `json:"employerIdentificationNumbers,omitempty"`
	ParentPayerGroupID            string   `json:"parentPayerGroupId,omitempty"`
	Website                       string   `json:"website,omitempty"`

	// imported: the entry came from a directory file, where a payer may
	// list no transaction Clearhouse exchanges.
	imported bool
}

// Route types: the keys of Payer.Connections.
const (
	RouteEligibility = "eligibility"
	RouteClaims      = "claims"
	RouteClaimStatus = "claimStatus"
)

// routeTypes lists the keys a payer's "connections" may use.
var routeTypes = []string{RouteEligibility, RouteClaims, RouteClaimStatus}

// routeTypeOf maps a transaction code to its route type.
func routeTypeOf(transaction string) string {
	switch transaction {
	case Eligibility:
		return RouteEligibility
	case ClaimStatus:
		return RouteClaimStatus
	case DentalClaim, ProfessionalClaim, InstitutionalClaim:
		return RouteClaims
	}
	return transaction
}

// RoutesFor lists the connections that reach the payer for a transaction
// code, in order: its "connections" entry for the type, else the single
// "connection".
func (p Payer) RoutesFor(transaction string) []string {
	if names := p.Connections[routeTypeOf(transaction)]; len(names) > 0 {
		return slices.Clone(names)
	}
	if p.Connection != "" {
		return []string{p.Connection}
	}
	return nil
}

// Supports reports whether the payer lists the transaction code.
func (p Payer) Supports(transaction string) bool {
	return slices.Contains(p.Transactions, transaction)
}

// Configured reports whether a production connection is named.
func (p Payer) Configured() bool { return p.Connection != "" || len(p.Connections) > 0 }

// WhereToFindPayers is what an answer naming an unknown or unconfigured
// payer says about where the payer ids are.
const WhereToFindPayers = "the payers this server knows, with their ids and transactions, are listed by 'clearhouse payers' " +
	"(shipped list: docs/payers.md; an operator adds payers with serve --payer-directory and connections with serve --payers)"

// ids are the keys Lookup finds the payer by: its id, its hosted id and
// its aliases.
func (p Payer) ids() []string {
	ids := append([]string{p.ID}, p.Aliases...)
	if p.StediID != "" {
		ids = append(ids, p.StediID)
	}
	return ids
}
