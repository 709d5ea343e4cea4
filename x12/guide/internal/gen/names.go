package gen

import (
	"fmt"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// hostedNames are the envelope and header element names the hosted
// service's Guide JSON uses, where the source maps differ:
//   - ST03 is "implementation_guide_version_name_03" in the API contract's
//     837P sample (pyx12 says Implementation Convention Reference, imsweb's
//     277 maps Version, Release, or Industry Identifier);
//   - SE01 is "number_of_included_segments_01" in the contract's samples
//     (pyx12 says Transaction Segment Count);
//   - ISA and GS follow the 005010 data element dictionary, as the hosted
//     service's own X12 JSON does: ISA11 is the repetition separator in
//     00501 (pyx12's control map keeps 4010's Interchange Control Standards
//     Identifier), ISA05/ISA07 are both Interchange ID Qualifier, ISA12/14/15
//     carry "Code", and GS04/GS05 are plain Date and Time.
var hostedNames = map[string]map[int]string{
	"ST": {3: "Implementation Guide Version Name"},
	"SE": {1: "Number of Included Segments"},
	"ISA": {
		5: "Interchange ID Qualifier", 7: "Interchange ID Qualifier", 11: "Repetition Separator",
		12: "Interchange Control Version Number Code", 14: "Acknowledgment Requested Code",
		15: "Interchange Usage Indicator Code",
	},
	"GS": {4: "Date", 5: "Time"},
}

// applyHostedNames renames the envelope and header elements of a guide.
func applyHostedNames(f *spec.File) {
	renamed := 0
	walkSegments(f.Root, func(_, seg *spec.Node) {
		names := hostedNames[seg.Seg]
		for i := range seg.Elements {
			if n, ok := names[seg.Elements[i].Pos]; ok && seg.Elements[i].Name != n {
				seg.Elements[i].Name = n
				renamed++
			}
		}
	})
	if renamed > 0 {
		f.Provenance.Fixes = append(f.Provenance.Fixes,
			fmt.Sprintf("%d envelope/header element names set to the hosted service's Guide JSON names (ST03 Implementation Guide Version Name, SE01 Number of Included Segments, ISA/GS per the 005010 dictionary)", renamed))
	}
}
