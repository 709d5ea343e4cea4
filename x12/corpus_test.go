package x12_test

import (
	"github.com/clearhouse/clearhouse/internal/testenv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// corpusCase is what the envelope validator must report for one INVALID or
// EDGE corpus file: exactly these distinct finding codes. guide names the
// file's defects that only an implementation-guide or balancing validator
// (x12/guide) can see; for those the envelope layer must stay quiet or
// report only the envelope defects listed.
type corpusCase struct {
	codes []x12.Code
	guide string
}

// corpusExpect covers every INVALID and EDGE file of the manifest. EDGE
// results follow the policy in doc.go.
var corpusExpect = map[string]corpusCase{
	// Relabelled 2026-11-25 after the independent validators' run: the envelope is
	// right, the defect is at the guide level (x12/guide's corpus test checks it).
	"271/5010_oop_From_georgiosd.txt":                                 {codes: []x12.Code{}, guide: "NM109 000000000 with XX is no NPI; segments indented"},
	"837D/5010_moov_sample_TOO-surfaces.txt":                          {codes: []x12.Code{}, guide: "5-digit billing ZIP, NPIs fail the check digit"},
	"837P/5010_lfh_example2.x12":                                      {codes: []x12.Code{}, guide: "2010AA N403 5-digit ZIP (X222A1 wants 9); NPIs fail the check digit"},
	"837P/5010_lfh_cob-example3A.x12":                                 {codes: []x12.Code{}, guide: "2330B Other Payer Name missing"},
	"837P/5010_lfh_autoaccident.x12":                                  {codes: []x12.Code{}, guide: "2010AA N403 5-digit ZIP; NPIs fail the check digit"},
	"837P/5010_oop_Example1_2_3_Combined_2ST.txt":                     {codes: []x12.Code{}, guide: "4010 leftovers (SBR08, DMG in 2320), 5-digit billing ZIP"},
	"837P/5010_oop_Example3_COB.txt":                                  {codes: []x12.Code{}, guide: "4010 leftovers (SBR08, DMG in 2320), 5-digit billing ZIP"},
	"837P/5010_moov_sample_compsep-lt.txt":                            {codes: []x12.Code{}, guide: "NM108 XX with the 9-digit 123456789: not an NPI"},
	"837I/5010_lfh_two-claims-single-provider.x12":                    {codes: []x12.Code{}, guide: "N403 5-digit, CLM06 not used in 837I (pyx12 837I map agrees)"},
	"837I/5010_oop_Spec_3.1.2_TwoClaims.txt":                          {codes: []x12.Code{x12.CodeSTReference}, guide: "N403 5-digit, CLM06 not used in 837I"},
	"835/5010_lfh_medicare-part-a.x12":                                {codes: []x12.Code{}, guide: "1000A PER*BL required and missing; TS309/TS311 not used"},
	"835/5010_lfh_secondary-payment.x12":                              {codes: []x12.Code{}, guide: "BPR16 required and missing; PER*BL missing"},
	"835/5010_lfh_cob-contractual-adjustment.x12":                     {codes: []x12.Code{}, guide: "BPR16 required and missing; PER*BL missing"},
	"835/5010_lfh_managed-care.x12":                                   {codes: []x12.Code{}, guide: "BPR16 20002316 is no date; PER*BL missing"},
	"835/5010_moov_sample2.txt":                                       {codes: []x12.Code{}, guide: "BPR16 20990080 is no date"},
	"277CA/5010_ims_277CA_accepted.txt":                               {codes: []x12.Code{}, guide: "NPI 1234567890 fails the check digit"},
	"277CA/5010_ims_277CA_rejected_compsep-pipe.txt":                  {codes: []x12.Code{}, guide: "NM108 XX with 9-digit 123456789"},
	"277CA/5010_oop_FromAlexbrodsky.txt":                              {codes: []x12.Code{}, guide: "9-digit NPI; segments indented"},
	"276/5010_lfh_claim-level-status.x12":                             {codes: []x12.Code{}, guide: "NPIs 1666666661 and 166666666 fail the NPI rules"},
	"276/5010_lfh_provider-level-status.x12":                          {codes: []x12.Code{}, guide: "NPIs fail the check digit"},
	"276/5010_lfh_info-receiver-level-status.x12":                     {codes: []x12.Code{}, guide: "NPI 1666666661 fails the check digit"},
	"277/5010_lfh_claim-level-status.x12":                             {codes: []x12.Code{}, guide: "NPIs fail the NPI rules"},
	"277/5010_lfh_provider-level-status.x12":                          {codes: []x12.Code{}, guide: "NPIs fail; STC01-3 85 unresolved against X212"},
	"999/5010_staedi_simple999_partial.edi":                           {codes: []x12.Code{}, guide: "CTX01-2 not used in X231"},
	"999/5010_oop_DHS_Wisconsin_999.txt":                              {codes: []x12.Code{}, guide: "AK202 shorter than 4, CTX06 malformed"},
	"270/5010_x12org_ex1a_subscriber-request_ST-SE-only.edi":          {codes: []x12.Code{}},
	"270/5010_x12org_ex2a_dependent-request_ST-SE-only.edi":           {codes: []x12.Code{}},
	"270/5010_oop_Example1_IG_segterm-0x1D.txt":                       {codes: []x12.Code{x12.CodeVersionMismatch}},
	"271/5010_lfh_subscriber-AAA-reject.x12":                          {codes: []x12.Code{x12.CodeSEControl}},
	"271/5010_x12org_ex1b_subscriber-response_ST-SE-only.edi":         {codes: []x12.Code{}},
	"271/5010_x12org_ex1c_AAA-50-provider-ineligible_ST-SE-only.edi":  {codes: []x12.Code{}},
	"271/5010_x12org_ex2b_dependent-response_ST-SE-only.edi":          {codes: []x12.Code{}},
	"271/5010_oop_Example_3_1_2_LS-LE-AAA-all-levels.txt":             {codes: []x12.Code{x12.CodeISAValue, x12.CodeRepetitionIgnored, x12.CodeSECount, x12.CodeSTID}, guide: "ISA fields padded with \".\""},
	"271/5010_oop_ValidationOnAll_AAA.txt":                            {codes: []x12.Code{x12.CodeISAValue, x12.CodeRepetitionIgnored, x12.CodeSECount, x12.CodeSTID}, guide: "ISA fields padded with \".\""},
	"837D/5010_x12org_ex2a_claim-to-payerA_ST-SE-only.edi":            {codes: []x12.Code{}},
	"837D/5010_x12org_ex2b_COB-claim-to-payerB_ST-SE-only.edi":        {codes: []x12.Code{}},
	"837P/4010-body_lfh_patient-is-subscriber.x12":                    {codes: []x12.Code{x12.CodeVersionMismatch}},
	"837P/5010_oop_ST1309_segterm-CR.txt":                             {codes: []x12.Code{x12.CodeUnterminated}},
	"837P/5010_staedi_sample837-original_rep-backtick_segterm-LF.edi": {codes: []x12.Code{x12.CodeISAValue, x12.CodeVersionMismatch}}, // ISA01 01: HIPAA allows only 00 and 03
	"837P/5010_x12org_ex3a_claim_ST-SE-only.edi":                      {codes: []x12.Code{}},
	"837P/5010_ims_multiple-ISA.txt":                                  {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}},
	"837P/5010_ims_multiple-ST.txt":                                   {codes: []x12.Code{x12.CodeGECount, x12.CodeRepetitionIgnored, x12.CodeSECount, x12.CodeSTDuplicate}},
	"837P/5010_ims_elemsep-tilde_segterm-underscore.txt":              {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}},
	"837P/5010_ims_many-claims_330KB.txt":                             {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "CLM02 does not balance lines (SNIP 3)"},
	"837P/4010_pyx12_simple_837p.txt":                                 {codes: []x12.Code{}, guide: "CLM02 does not balance the SV1 lines (SNIP 3)"},
	"837I/5010_x12org_ex1a_ST-SE-only.edi":                            {codes: []x12.Code{x12.CodeSECount}},
	"835/5010_moov_sample1_2ST.txt":                                   {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeTrailingSeparator}, guide: "BPR02 balance (SNIP 3)"},
	"835/4010_pyx12_835_simple.txt":                                   {codes: []x12.Code{}, guide: "BPR02 does not balance CLP04/PLB (SNIP 3)"},
	"835/4010_oop_Example1_GripElements.txt":                          {codes: []x12.Code{}, guide: "BPR02 does not balance CLP04/PLB (SNIP 3)"},
	"276/5010_x12org_ex1a_ST-SE-only.edi":                             {codes: []x12.Code{}},
	"277/5010_ims_277_x212_multi-claims.txt":                          {codes: []x12.Code{x12.CodeIEAControl}},
	"277/5010_x12org_ex1b_ST-SE-only.edi":                             {codes: []x12.Code{}},
	"999/5010_ims_999_accepted.txt":                                   {codes: []x12.Code{x12.CodeGSValue, x12.CodeIEAControl}},
	"997/4010_staedi_997_with-ISB-ISE.edi":                            {codes: []x12.Code{x12.CodeISAValue, x12.CodeVersionMismatch}}, // ISA01 01: HIPAA allows only 00 and 03
	"TA1/4010_oop_TA1_two-TA1.txt":                                    {codes: []x12.Code{x12.CodeTA1Segment}},
	"TA1/5010_oop_TA1_elemsep-gt_compsep-plus_segterm-CR.txt":         {codes: []x12.Code{x12.CodeISAValue, x12.CodeUnterminated, x12.CodeTA1Segment}},
	"TA1/5010_staedi_TA1_accepted.txt":                                {codes: []x12.Code{x12.CodeIEACount}},
	"invalid/837P_ims_ISA02-9chars_ISA-not-106.txt":                   {codes: []x12.Code{x12.CodeISAWidth, x12.CodeRepetitionIgnored, x12.CodeSECount}},
	"invalid/837P_ims_no-ISA.txt":                                     {codes: []x12.Code{x12.CodeNoInterchange}},
	"invalid/837P_ims_bad-segment-identifiers.txt":                    {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount, x12.CodeSegmentID}, guide: "unknown segments in their loops (IK304 2)"},
	"invalid/837P_ims_bad-code-value.txt":                             {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "invalid qualifier (IK403 7)"},
	"invalid/837P_ims_segment-errors.txt":                             {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "N3/HI missing, REF over max use (IK304 3, 5)"},
	"invalid/837P_ims_missing-required-elements.txt":                  {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "NM102, CLM05 missing (IK403 1)"},
	"invalid/837P_ims_loop-2010AA-exceeds-max.txt":                    {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "2010AA over max (IK304 4)"},
	"invalid/837P_ims_loop-exceeds-max-multiple-parents.txt":          {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "2010AA over max (IK304 4)"},
	"invalid/837P_ims_missing-2010AA.txt":                             {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "2010AA missing (IK304 3)"},
	"invalid/837P_ims_segments-out-of-order.txt":                      {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount}, guide: "N4 before N3 (IK304 7)"},
	"invalid/837P_ims_ambiguous-loop.txt":                             {codes: []x12.Code{x12.CodeRepetitionIgnored, x12.CodeSECount, x12.CodeTrailingSeparator}, guide: "ambiguous loop"},
	"invalid/271_ims_mixed-4010-envelope-5010-body.txt":               {codes: []x12.Code{x12.CodeIEAControl, x12.CodeSECount, x12.CodeTrailingSeparator, x12.CodeSTReference}},
	"invalid/837P_pyx12_4010_bad-elements.txt":                        {codes: []x12.Code{x12.CodeSECount}, guide: "code values, lengths, dates (IK403 5, 7, 8)"},
	"invalid/837I_pyx12_4010_blank-composite.txt":                     {codes: []x12.Code{}, guide: "blank composite components SV201/SVD03 (IK403 7, 1)"},
	"invalid/837I_pyx12_4010_bad-ISA-time-3339.txt":                   {codes: []x12.Code{x12.CodeGSValue, x12.CodeISAValue, x12.CodeSEControl, x12.CodeSTControl}},
	"invalid/837P_pyx12_4010_truncated-no-SE-GE-IEA.txt":              {codes: []x12.Code{x12.CodeGEMissing, x12.CodeIEAMissing, x12.CodeSEMissing}},
	"invalid/837P_pyx12_4010_no-IEA.txt":                              {codes: []x12.Code{x12.CodeIEAMissing, x12.CodeSECount}},
	"invalid/837P_pyx12_4010_2400-loop-over-max.txt":                  {codes: []x12.Code{}, guide: "loop 2400 over its maximum (IK304 4)"},
	"invalid/837P_pyx12_4010_PER-over-max-use.txt":                    {codes: []x12.Code{}, guide: "PER over its maximum use (IK304 5)"},
	"invalid/837P_pyx12_4010_minimal-missing-BHT-HL.txt":              {codes: []x12.Code{}, guide: "BHT and HL missing (IK304 3)"},
	"invalid/837I_pyx12_4010_trailer-count-errors.txt":                {codes: []x12.Code{x12.CodeGEControl, x12.CodeIEAControl, x12.CodeIEACount, x12.CodeSECount}},
	"invalid/837I_pyx12_4010_trailing-separators.txt":                 {codes: []x12.Code{x12.CodeTrailingSeparator}},
	"invalid/997_staedi_invalid-GS-date-and-GE02.edi":                 {codes: []x12.Code{x12.CodeGEControl, x12.CodeGSValue}},
	"invalid/997_staedi_empty-no-AK1-AK9.edi":                         {codes: []x12.Code{x12.CodeVersionMismatch, x12.CodeSTReference}, guide: "required AK1/AK9 missing (IK304 3)"},
	"invalid/997_staedi_repetitions-not-allowed.edi":                  {codes: []x12.Code{}, guide: "repetitions in non-repeating AK3/AK4 elements (IK403 12)"},
	"invalid/837P_staedi_header-only-BHT-REF.edi":                     {codes: []x12.Code{}, guide: "required loops missing, BHT01 code (IK304 3, IK403 7)"},
	"invalid/210_staedi_4010_hard-wrapped-80-columns.edi":             {codes: []x12.Code{x12.CodeISALineBreak}},
	"invalid/837P_oop_UTF-16LE-encoded.txt":                           {codes: []x12.Code{x12.CodeGEMissing, x12.CodeIEAMissing, x12.CodeUTF16, x12.CodeSEMissing, x12.CodeSegmentID, x12.CodeUnterminated}},
	"invalid/277CA_oop_truncated-no-SE-GE-IEA.txt":                    {codes: []x12.Code{x12.CodeGEMissing, x12.CodeIEAMissing, x12.CodeSEMissing}},
	"invalid/271_oop_4010_placeholder-values.txt":                     {codes: []x12.Code{x12.CodeSTID}, guide: "placeholder text in data (DMG02 \"Birth Date\")"},
	"invalid/TA1_uhin_ISA-not-fixed-width.txt":                        {codes: []x12.Code{x12.CodeIEACount, x12.CodeISAWidth}},
	"invalid/835_x12org_ex5a_whitespace-padded-ISA.edi":               {codes: []x12.Code{x12.CodeISAWidth}},
}

// validWarnings lists the warnings VALID files may carry: real
// inconsistencies the corpus's own checks did not look at.
var validWarnings = map[string][]x12.Code{
	// GS08 says 005010X222 (837P) while ST03 says 005010X223 (837I).
	"837I/5010_oop_Spec_3.1.2_TwoClaims.txt": {x12.CodeSTReference},
	// The last segment (IEA) has no terminator: Info, not a warning.
	"271/4010_oop_Example2_TMHP_segterm-CR.txt": {x12.CodeUnterminated},
}

// corpusOptions reads bare ST..SE fragments with the default delimiters,
// as the EDGE policy says callers must supply them.
func corpusOptions(path string) x12.ValidateOptions {
	if strings.Contains(path, "ST-SE-only") {
		return x12.ValidateOptions{Reader: []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}}
	}
	return x12.ValidateOptions{}
}

func validateCorpusFile(t *testing.T, dir, path string) *x12.Report {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := x12.Validate(f, corpusOptions(path))
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return rep
}

func distinctCodes(rep *x12.Report) []x12.Code {
	var out []x12.Code
	for _, f := range rep.All() {
		if !slices.Contains(out, f.Code) {
			out = append(out, f.Code)
		}
	}
	slices.Sort(out)
	return out
}

func TestCorpus(t *testing.T) {
	dir, files := loadManifest(t)
	counts := map[string][2]int{} // class -> {passed, total}
	seen := map[string]bool{}
	for _, cf := range files {
		if cf.Expected == "EXPECTED-ACK" {
			continue
		}
		seen[cf.Path] = true
		ok := t.Run(cf.Path, func(t *testing.T) {
			rep := validateCorpusFile(t, dir, cf.Path)
			got := distinctCodes(rep)
			switch cf.Expected {
			case "VALID":
				for _, f := range rep.All() {
					if f.Severity >= x12.Error || (f.Severity >= x12.Info && !slices.Contains(validWarnings[cf.Path], f.Code)) {
						t.Errorf("VALID file has finding: %s", f)
					}
				}
			case "INVALID", "EDGE":
				want, ok := corpusExpect[cf.Path]
				if !ok {
					t.Fatalf("no expectation for %s file (add it to corpusExpect); got %v", cf.Expected, got)
				}
				wantCodes := slices.Sorted(slices.Values(want.codes))
				if !slices.Equal(got, wantCodes) {
					t.Errorf("codes = %v\nwant    %v\nnote: %s", got, wantCodes, cf.Note)
				}
				if cf.Expected == "INVALID" && len(want.codes) == 0 && want.guide == "" {
					t.Errorf("INVALID file without an envelope finding must name its guide-level defect")
				}
				if cf.Expected == "EDGE" && rep.Count(x12.Fatal) > 0 {
					t.Errorf("EDGE file must be read to the end: %v", rep.All())
				}
			default:
				t.Fatalf("unknown expected class %q", cf.Expected)
			}
		})
		c := counts[cf.Expected]
		c[1]++
		if ok {
			c[0]++
		}
		counts[cf.Expected] = c
	}
	for path := range corpusExpect {
		if !seen[path] && testenv.CorpusHas(dir, path) {
			t.Errorf("corpusExpect names %s, which is not in the manifest", path)
		}
	}
	for _, class := range []string{"VALID", "INVALID", "EDGE"} {
		t.Logf("%s: %d/%d as expected", class, counts[class][0], counts[class][1])
	}
}

// TestCorpusBareFragmentsNeedDelimiters pins the EDGE policy: without
// supplied delimiters a bare ST..SE is not X12 and yields input.no-isa.
func TestCorpusBareFragmentsNeedDelimiters(t *testing.T) {
	dir, files := loadManifest(t)
	for _, cf := range files {
		if !strings.Contains(cf.Path, "ST-SE-only") {
			continue
		}
		f, err := os.Open(filepath.Join(dir, cf.Path))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := x12.Validate(f, x12.ValidateOptions{})
		f.Close()
		if err != nil || !slices.Equal(distinctCodes(rep), []x12.Code{x12.CodeNoInterchange}) {
			t.Errorf("%s: got %v, %v; want only %s", cf.Path, distinctCodes(rep), err, x12.CodeNoInterchange)
		}
	}
}
