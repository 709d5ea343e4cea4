package web

import "testing"

// A claim's page names the X12 claim its file carries: dental, professional
// and institutional files are named by internal/claims as <form>-<id>.x12.
func TestClaimFormOf(t *testing.T) {
	for name, want := range map[string]string{
		"837D-01KHC.x12": "837D", "837P-01KHC.x12": "837P", "837I-01KHC.x12": "837I", "": "837", "upload.x12": "837", "837-x.x12": "837",
	} {
		if got := claimFormOf(name); got != want {
			t.Errorf("claimFormOf(%q) = %q, want %q", name, got, want)
		}
	}
}
