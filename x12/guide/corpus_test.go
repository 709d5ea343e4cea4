package guide_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// corpusCase is what the guide layer must report for one corpus file, read
// with the default options (NPI check on): the distinct "code SEGMENT" pairs
// of its guide findings. why names the defect (SOURCES.md's for INVALID
// files) or, for a VALID file that still has findings, what in the file
// breaks the TR3: the corpus calls a file VALID when its envelopes and
// balances are right, not after a TR3 review.
type corpusCase struct {
	want []string
	why  string
	rep  byte // repetition separator for a bare ST..SE fragment (default "^")
}

var corpusCases = map[string]corpusCase{
	"270/4010_pyx12_repeat_init_seg.txt":                              {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"270/5010_lfh_dependent-inquiry.x12":                              {want: []string{}, why: "clean"},
	"270/5010_lfh_single-line-no-linebreaks.x12":                      {want: []string{}, why: "clean"},
	"270/5010_lfh_subscriber-generic-inquiry.x12":                     {want: []string{}, why: "clean"},
	"270/5010_oop_Example1_IG_segterm-0x1D.txt":                       {want: []string{}, why: "INVALID for the envelope (ISA12 00401 vs GS08); ST03 005010X279 is accepted by the X279A1 guide; body clean"},
	"270/5010_x12org_ex1a_subscriber-request_ST-SE-only.edi":          {want: []string{}, why: "clean"},
	"270/5010_x12org_ex2a_dependent-request_ST-SE-only.edi":           {want: []string{}, why: "clean"},
	"271/4010_oop_Example2_TMHP_segterm-CR.txt":                       {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"271/4010_oop_Example3_CMS_HETS.txt":                              {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"271/5010_lfh_subscriber-AAA-reject.x12":                          {want: []string{}, why: "INVALID for the envelope (SE02 != ST02); the AAA rejection is valid 271 content"},
	"271/5010_lfh_subscriber-benefits.x12":                            {want: []string{}, why: "clean"},
	"271/5010_oop_Example_3_1_2_LS-LE-AAA-all-levels.txt":             {want: []string{"guide.element-invalid-code AAA", "guide.element-not-used NM1", "guide.element-too-many-components EB"}, why: "INVALID: ISA11 == ISA16 == \"^\" so EB03 repetitions read as components; AAA03 80 at 2000A and 51 at 2110C are not codes of those levels; NM106 not used"},
	"271/5010_oop_From_georgiosd.txt":                                 {want: []string{"guide.npi-check-digit NM1"}, why: "placeholder NPI 000000000"},
	"271/5010_oop_ValidationOnAll_AAA.txt":                            {want: []string{"guide.hl-child-code HL"}, why: "INVALID: HL*3 says HL04 0 yet HL*4 hangs under it"},
	"271/5010_x12org_ex1b_subscriber-response_ST-SE-only.edi":         {want: []string{}, rep: '>', why: "EDGE: clean when read with x12.org's repetition separator \">\""},
	"271/5010_x12org_ex1c_AAA-50-provider-ineligible_ST-SE-only.edi":  {want: []string{"guide.hl-child-code HL"}, why: "EDGE: the published example keeps HL04 1 on the rejected receiver level with no subscriber below it"},
	"271/5010_x12org_ex2b_dependent-response_ST-SE-only.edi":          {want: []string{}, rep: '>', why: "EDGE: clean when read with x12.org's repetition separator \">\""},
	"276/5010_lfh_claim-level-status.x12":                             {want: []string{"guide.npi-check-digit NM1"}, why: "synthetic NPIs (1666666661, 166666666) fail the check digit"},
	"276/5010_lfh_info-receiver-level-status.x12":                     {want: []string{"guide.npi-check-digit NM1"}, why: "synthetic NPI 1666666661 fails the check digit"},
	"276/5010_lfh_provider-level-status.x12":                          {want: []string{"guide.npi-check-digit NM1"}, why: "synthetic NPIs fail the check digit"},
	"276/5010_x12org_ex1a_ST-SE-only.edi":                             {want: []string{"guide.npi-check-digit NM1"}, why: "x12.org example NPIs fail the check digit"},
	"277/5010_ims_277_x212_multi-claims.txt":                          {want: []string{"guide.element-not-used STC", "guide.npi-check-digit NM1"}, why: "INVALID for the envelope (IEA02); also STC03/STC12 sent although the X212 map marks them not used at 2200D; NPI 1111111111"},
	"277/5010_lfh_claim-level-status.x12":                             {want: []string{"guide.npi-check-digit NM1"}, why: "synthetic NPIs fail the check digit"},
	"277/5010_lfh_provider-level-status.x12":                          {want: []string{"guide.element-invalid-code STC", "guide.npi-check-digit NM1"}, why: "STC01-3 85 at 2200C, where the guide allows 1P; synthetic NPIs"},
	"277/5010_x12org_ex1b_ST-SE-only.edi":                             {want: []string{"guide.npi-check-digit NM1"}, why: "x12.org example NPIs fail the check digit"},
	"277CA/5010_ims_277CA_accepted.txt":                               {want: []string{"guide.npi-check-digit NM1"}, why: "NPI 1234567890 fails the check digit"},
	"277CA/5010_ims_277CA_rejected_compsep-pipe.txt":                  {want: []string{"guide.npi-check-digit NM1"}, why: "NPI 123456789 (9 digits)"},
	"277CA/5010_oop_FromAlexbrodsky.txt":                              {want: []string{"guide.npi-check-digit NM1"}, why: "NPI 123456789 (9 digits)"},
	"835/4010_oop_Example1_GripElements.txt":                          {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"835/4010_pyx12_835_simple.txt":                                   {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"835/5010_lfh_cob-contractual-adjustment.x12":                     {want: []string{"guide.element-invalid-code SVC", "guide.element-missing BPR", "guide.element-missing SVC", "guide.element-too-long SVC", "guide.segment-missing PER"}, why: "the check date sits in BPR15, so BPR16 is empty; SVC01 uses \">\" while ISA16 is \":\"; 1000A PER*BL (required) absent"},
	"835/5010_lfh_managed-care.x12":                                   {want: []string{"guide.element-invalid-date BPR", "guide.npi-check-digit N1", "guide.segment-missing PER"}, why: "BPR16 20002316 is not a date; 1000A PER*BL absent; payee NPI fails the check digit"},
	"835/5010_lfh_medicare-part-a.x12":                                {want: []string{"guide.element-not-used TS3", "guide.npi-prefix N1", "guide.segment-missing PER"}, why: "TS309/TS311 not used in X221A1; 1000A PER*BL absent; payee NPI 6543210903 has a correct check digit but does not start with 1 or 2 (a warning)"},
	"835/5010_lfh_secondary-payment.x12":                              {want: []string{"guide.element-invalid-code SVC", "guide.element-missing BPR", "guide.element-missing SVC", "guide.element-too-long SVC", "guide.segment-missing PER"}, why: "as cob-contractual-adjustment: date in BPR15, \">\" in SVC01, no PER*BL"},
	"835/5010_moov_sample1_2ST.txt":                                   {want: []string{"guide.npi-check-digit N1", "guide.npi-check-digit NM1"}, why: "INVALID per manifest (verify): BPR02 does balance (-6173.5 = 0 - 6173.5); the NPIs are the text \"NPI Number\""},
	"835/5010_moov_sample2.txt":                                       {want: []string{"guide.element-invalid-date BPR"}, why: "BPR16 20990080 is not a date"},
	"835/5010_pyx12_835_mult_loops.txt":                               {want: []string{}, why: "clean"},
	"837D/4010_oop_Spec_4.1.1_PatientIsNotSubscriber.txt":             {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837D/4010_oop_Spec_4.1.2A_COB.txt":                               {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837D/4010_oop_Spec_4.1.3_Predetermination.txt":                   {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837D/4010_oop_Spec_4.1.4_Orthodontic.txt":                        {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837D/4010_oop_Spec_4.2.1_WorkersComp.txt":                        {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837D/5010_moov_sample_TOO-surfaces.txt":                          {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "manifest: NPIs 1234567890/9876543210 fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837D/5010_x12org_ex2a_claim-to-payerA_ST-SE-only.edi":            {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "manifest: x12.org NPIs fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837D/5010_x12org_ex2b_COB-claim-to-payerB_ST-SE-only.edi":        {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "x12.org NPIs fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837I/5010_lfh_two-claims-single-provider.x12":                    {want: []string{"guide.element-not-used CLM", "guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "837P habits in an 837I: CLM06 (signature indicator, not used in X223A2); 5-digit billing provider ZIP; synthetic NPIs"},
	"837I/5010_oop_Spec_3.1.2_TwoClaims.txt":                          {want: []string{"guide.element-missing CL1", "guide.element-not-used CLM", "guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "as the LFH copy of this example, and CL101 (admission type, required) left empty"},
	"837I/5010_x12org_ex1a_ST-SE-only.edi":                            {want: []string{"guide.element-invalid-code CLM", "guide.element-invalid-date DTP", "guide.element-missing CLM", "guide.element-not-used CLM", "guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "INVALID as crawled: CLM lost a separator (CLM04 holds CLM05's value), DTP*434 RD8 with one date; 5-digit billing ZIP; the example NPI fails the check digit"},
	"837P/4010-body_lfh_patient-is-subscriber.x12":                    {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837P/4010_pyx12_simple_837p.txt":                                 {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"837P/5010_ims_elemsep-tilde_segterm-underscore.txt":              {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "imsweb test data: unbalanced CLM02, HI without qualifiers, HL numbering; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"837P/5010_ims_many-claims_330KB.txt":                             {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID: CLM02 does not balance the lines (SNIP 3); imsweb's data also has HI without qualifiers, HL ids out of sequence, no 2000C though SBR02 is not 18; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"837P/5010_ims_multiple-ISA.txt":                                  {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "imsweb test data: unbalanced CLM02, HI without qualifiers, HL numbering; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"837P/5010_ims_multiple-ST.txt":                                   {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "imsweb test data: unbalanced CLM02, HI without qualifiers, HL numbering; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"837P/5010_lfh_autoaccident.x12":                                  {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "synthetic NPIs fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837P/5010_lfh_cob-example3A.x12":                                 {want: []string{"guide.element-pattern N4", "guide.loop-missing NM1", "guide.npi-check-digit NM1"}, why: "loop 2320 has no 2330B other payer (required); synthetic NPIs; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837P/5010_lfh_example1.x12":                                      {want: []string{}, why: "clean"},
	"837P/5010_lfh_example2.x12":                                      {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "synthetic NPIs fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837P/5010_moov_sample_compsep-lt.txt":                            {want: []string{"guide.npi-check-digit NM1"}, why: "9-digit NPIs"},
	"837P/5010_oop_Example1_2_3_Combined_2ST.txt":                     {want: []string{"guide.element-not-used SBR", "guide.element-pattern N4", "guide.npi-check-digit NM1", "guide.segment-unexpected DMG"}, why: "4010 leftovers: SBR08 and a DMG in 2320; NPIs; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837P/5010_oop_Example3_COB.txt":                                  {want: []string{"guide.element-not-used SBR", "guide.element-pattern N4", "guide.npi-check-digit NM1", "guide.segment-unexpected DMG"}, why: "4010 leftovers: SBR08 and a DMG in 2320; NPIs; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"837P/5010_oop_ST1309_segterm-CR.txt":                             {want: []string{"guide.npi-check-digit NM1"}, why: "manifest: NPIs 9999999999 fail the check digit"},
	"837P/5010_staedi_sample837-original_rep-backtick_segterm-LF.edi": {want: []string{"guide.npi-check-digit NM1"}, why: "9/11-digit NPIs"},
	"837P/5010_x12org_ex3a_claim_ST-SE-only.edi":                      {want: []string{"guide.element-pattern N4", "guide.npi-check-digit NM1"}, why: "x12.org NPIs fail the check digit; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"999/5010_ims_999_accepted.txt":                                   {want: []string{}, why: "clean"},
	"999/5010_ims_999_rejected_compsep-pipe.txt":                      {want: []string{}, why: "clean"},
	"999/5010_oop_DHS_Wisconsin_999.txt":                              {want: []string{"guide.element-invalid-character CTX", "guide.element-not-used CTX", "guide.element-too-short AK2"}, why: "AK202 002 shorter than 4; CTX06-1 holds the composite id C023, not an element number"},
	"999/5010_pyx12_834_ls_le_ls.999.txt":                             {want: []string{}, why: "clean"},
	"999/5010_staedi_simple999_partial.edi":                           {want: []string{"guide.element-not-used CTX"}, why: "CTX01-2 repeats on a SITUATIONAL TRIGGER context, where the guide does not use it"},
	"invalid/271_ims_mixed-4010-envelope-5010-body.txt":               {want: []string{}, why: "clean"},
	"invalid/271_oop_4010_placeholder-values.txt":                     {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/277CA_oop_truncated-no-SE-GE-IEA.txt":                    {want: []string{"guide.hl-child-code HL", "guide.loop-missing HL", "guide.loop-missing NM1", "guide.loop-missing TRN", "guide.segment-missing SE"}, why: "INVALID: the file ends inside the set: SE and the loops below 2000B missing"},
	"invalid/835_x12org_ex5a_whitespace-padded-ISA.edi":               {want: []string{}, why: "clean"},
	"invalid/837P_ims_ISA02-9chars_ISA-not-106.txt":                   {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID for the envelope (ISA width); body as the other imsweb files; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"invalid/837P_ims_ambiguous-loop.txt":                             {want: []string{"guide.balance CLM", "guide.element-pattern N4", "guide.hl-child-code HL", "guide.npi-check-digit NM1", "guide.situational-missing HL"}, why: "imsweb ambiguity test: reads unambiguously here (qualifiers decide); unbalanced CLM02; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"invalid/837P_ims_bad-code-value.txt":                             {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-invalid-code NM1", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID: NM101 117 is no code (IK403 7); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"invalid/837P_ims_bad-segment-identifiers.txt":                    {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.loop-missing NM1", "guide.npi-check-digit NM1", "guide.segment-missing N4", "guide.segment-missing PER", "guide.segment-unrecognized ", "guide.segment-unrecognized NM31", "guide.segment-unrecognized Nd4", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID: unknown segment ids (IK304 1) where PER, N4 and 2010BA belong; LX01 does not restart at 1 in each claim"},
	"invalid/837P_ims_loop-2010AA-exceeds-max.txt":                    {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.loop-over-max NM1", "guide.npi-check-digit NM1", "guide.situational-missing HL"}, why: "INVALID: 2010AA repeats (IK304 4); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"invalid/837P_ims_loop-exceeds-max-multiple-parents.txt":          {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-sequence HL", "guide.loop-over-max NM1", "guide.npi-check-digit NM1", "guide.situational-missing HL"}, why: "INVALID: 2010AA repeats in the second 2000A (IK304 4); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"invalid/837P_ims_missing-2010AA.txt":                             {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.loop-missing NM1", "guide.situational-missing HL"}, why: "INVALID: required loop 2010AA missing (IK304 3)"},
	"invalid/837P_ims_missing-required-elements.txt":                  {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing CLM", "guide.element-missing HI", "guide.element-missing NM1", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID: NM102 and CLM05 missing (IK403 1); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"invalid/837P_ims_no-ISA.txt":                                     {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.situational-missing HL"}, why: "INVALID for the envelope (no ISA); body as the other imsweb files; 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"invalid/837P_ims_segment-errors.txt":                             {want: []string{"guide.balance CLM", "guide.element-pattern N4", "guide.hl-child-code HL", "guide.npi-check-digit NM1", "guide.segment-missing HI", "guide.segment-missing N3", "guide.segment-over-max REF", "guide.situational-missing HL"}, why: "INVALID: N3 and HI missing (IK304 3), REF over max use (IK304 5); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits"},
	"invalid/837P_ims_segments-out-of-order.txt":                      {want: []string{"guide.balance CLM", "guide.element-invalid-code HI", "guide.element-missing HI", "guide.element-pattern N4", "guide.element-too-long HI", "guide.hl-child-code HL", "guide.hl-parent HL", "guide.hl-sequence HL", "guide.npi-check-digit NM1", "guide.segment-out-of-order N3", "guide.segment-out-of-order N4", "guide.sequence LX", "guide.situational-missing HL"}, why: "INVALID: N4 before N3 in 2010AA and 2010AB (IK304 7); 2010AA N403 is a 5-digit ZIP where the guide wants all nine digits; LX01 does not restart at 1 in each claim"},
	"invalid/837P_pyx12_4010_2400-loop-over-max.txt":                  {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_pyx12_4010_PER-over-max-use.txt":                    {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_pyx12_4010_bad-elements.txt":                        {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_pyx12_4010_minimal-missing-BHT-HL.txt":              {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_pyx12_4010_no-IEA.txt":                              {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_pyx12_4010_truncated-no-SE-GE-IEA.txt":              {want: []string{"guide.not-found ST"}, why: "4010: no guide, envelope only (see TestCorpusAgainstNearestGuide)"},
	"invalid/837P_staedi_header-only-BHT-REF.edi":                     {want: []string{"guide.element-invalid-code BHT", "guide.loop-missing HL", "guide.loop-missing NM1", "guide.segment-unexpected REF"}, why: "INVALID: BHT01 DATA, a stray REF, and every required loop missing"},
}

// skippedKinds are corpus folders with no guide of ours (997, TA1, 4010 837I)
// or whose content is the reader's business (UTF-16, hard-wrapped 210).
var skippedFiles = map[string]string{
	"invalid/837P_oop_UTF-16LE-encoded.txt":               "UTF-16 decoding is the reader's job (package x12)",
	"invalid/210_staedi_4010_hard-wrapped-80-columns.edi": "not a health care transaction",
}

func guideKind(kind string) bool {
	switch kind {
	case "270", "271", "276", "277", "277CA", "835", "837", "837D", "837I", "837P", "999":
		return true
	}
	return false
}

// TestCorpus reads every corpus file of a transaction we have a guide for
// and compares the guide findings with the table.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	rows := manifest(t, dir)
	seen := 0
	for _, row := range rows {
		file, kind, txn := row[0], row[1], row[2]
		if kind == "invalid" {
			kind, _, _ = strings.Cut(txn, " ")
		}
		if strings.HasSuffix(file, ".expected-997.txt") || skippedFiles[file] != "" || !guideKind(kind) || strings.Contains(txn, "X096") {
			continue
		}
		tc, ok := corpusCases[file]
		if !ok {
			t.Errorf("%s: not in the corpus table (new corpus file?)", file)
			continue
		}
		seen++
		t.Run(file, func(t *testing.T) {
			d := x12.DefaultDelimiters
			if tc.rep != 0 {
				d.Repetition = tc.rep
			}
			got := findingSet(t, filepath.Join(dir, file), guide.Options{}, x12.WithDelimiters(d))
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("guide findings\n got %q\nwant %q\n(%s)", got, want, tc.why)
			}
		})
	}
	present := 0
	for file := range corpusCases {
		if testenv.CorpusHas(dir, file) {
			present++
		}
	}
	if seen != present {
		t.Errorf("table has %d files in this corpus, the manifest %d of them", present, seen)
	}
}

// TestCorpusValidWithoutNPI: a VALID file whose only findings are NPI check
// digits passes clean once the (configurable) NPI rule is off.
func TestCorpusValidWithoutNPI(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	for file, tc := range corpusCases {
		npiOnly := len(tc.want) > 0
		for _, w := range tc.want {
			npiOnly = npiOnly && strings.HasPrefix(w, string(guide.CodeNPI))
		}
		if !npiOnly || !testenv.CorpusHas(dir, file) {
			continue
		}
		d := x12.DefaultDelimiters
		if got := findingSet(t, filepath.Join(dir, file), guide.Options{SkipNPI: true}, x12.WithDelimiters(d)); len(got) != 0 {
			t.Errorf("%s with SkipNPI: %q, want none", file, got)
		}
	}
}

// findingSet validates a file and returns its distinct guide "code SEG" pairs.
func findingSet(t *testing.T, path string, opts guide.Options, ro ...x12.ReaderOption) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := guide.Validate(bufio.NewReader(f), opts, ro...)
	if err != nil {
		t.Fatal(err)
	}
	return codeSet(rep.All())
}

func codeSet(fs []x12.Finding) []string {
	out := []string{}
	for _, f := range fs {
		if !strings.HasPrefix(string(f.Code), "guide.") {
			continue
		}
		k := string(f.Code) + " " + f.SegmentID
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// manifest returns the rows of manifest.tsv: file, kind, txn, expected.
func manifest(t testing.TB, dir string) [][]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 || len(cols) < 4 || !testenv.CorpusHas(dir, cols[0]) {
			continue // the header, or a file the vendored corpus withholds
		}
		rows = append(rows, cols[:4])
	}
	return rows
}
