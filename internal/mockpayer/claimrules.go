package mockpayer

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/clearhouse/clearhouse/internal/claims"
)

// claimRejection is one rule of claimrules/rejections.json.
type claimRejection struct {
	MemberID   string   `json:"memberId"`
	ClaimTypes []string `json:"claimTypes"` // 837D, 837P, 837I
	Category   string   `json:"category"`
	Code       string   `json:"code"`
	Entity     string   `json:"entity"`
	Meaning    string   `json:"meaning"`
}

//go:embed claimrules/rejections.json
var rejectionsJSON []byte

var rejections = sync.OnceValue(func() []claimRejection {
	var f struct {
		Rejections []claimRejection `json:"rejections"`
	}
	if err := json.Unmarshal(rejectionsJSON, &f); err != nil {
		panic(fmt.Sprintf("mockpayer: claimrules/rejections.json: %v", err)) // embedded data, checked by tests
	}
	return f.Rejections
})

// ClaimRejection is a published mock claim rejection: claims of the given
// types whose subscriber has MemberID get Status in the payer's 277CA.
type ClaimRejection struct {
	MemberID   string
	ClaimTypes []string
	Status     claims.Status
	Meaning    string
}

// ClaimRejections lists the mock payers' claim rejections (the data of
// claimrules/rejections.json), for docs, the console and tests.
func ClaimRejections() []ClaimRejection {
	var out []ClaimRejection
	for _, r := range rejections() {
		out = append(out, ClaimRejection{MemberID: r.MemberID, ClaimTypes: r.ClaimTypes, Meaning: r.Meaning,
			Status: claims.Status{Category: r.Category, Code: r.Code, Entity: r.Entity}})
	}
	return out
}

// claimTypeOf names the claim type of a GS08 guide id.
func claimTypeOf(version string) string {
	switch {
	case strings.HasPrefix(version, "005010X224"):
		return "837D"
	case strings.HasPrefix(version, "005010X222"):
		return "837P"
	case strings.HasPrefix(version, "005010X223"):
		return "837I"
	}
	return ""
}

// rejectionFor is the status the mock answers a claim with: a rule's
// rejection, or ok false.
func rejectionFor(claimType, memberID string) (claims.Status, bool) {
	for _, r := range rejections() {
		if strings.EqualFold(r.MemberID, memberID) && slices.Contains(r.ClaimTypes, claimType) {
			return claims.Status{Category: r.Category, Code: r.Code, Entity: r.Entity}, true
		}
	}
	return claims.Status{}, false
}
