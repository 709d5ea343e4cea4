package guide

import "github.com/clearhouse/clearhouse/x12"

// Finding codes of the guide layer. Each constant's comment names the 999
// code it carries: IK304 for segment problems, IK403 for element problems
// (with IK304 "8").
const (
	// Segments and loops.

	// CodeUnrecognized: not a segment id, or one no guide knows. IK304 1.
	CodeUnrecognized x12.Code = "guide.segment-unrecognized"
	// CodeUnexpected: a segment of the guide where it cannot stand. IK304 2.
	CodeUnexpected x12.Code = "guide.segment-unexpected"
	// CodeSegmentMissing: a required segment is missing. IK304 3.
	CodeSegmentMissing x12.Code = "guide.segment-missing"
	// CodeLoopMissing: a required loop is missing (reported at its first
	// segment). IK304 3.
	CodeLoopMissing x12.Code = "guide.loop-missing"
	// CodeLoopOverMax: a loop repeats more than its limit. IK304 4.
	CodeLoopOverMax x12.Code = "guide.loop-over-max"
	// CodeSegmentOverMax: a segment repeats more than its max use. IK304 5.
	CodeSegmentOverMax x12.Code = "guide.segment-over-max"
	// CodeNotInSet: a segment of another transaction set. IK304 6.
	CodeNotInSet x12.Code = "guide.segment-not-in-set"
	// CodeOutOfOrder: a segment after siblings that should follow it. IK304 7.
	CodeOutOfOrder x12.Code = "guide.segment-out-of-order"
	// CodeSegmentNotUsed: a segment the guide marks "not used". IK304 I4.
	CodeSegmentNotUsed x12.Code = "guide.segment-not-used"

	// Elements (IK403).

	// CodeElementMissing: a required element is empty. IK403 1.
	CodeElementMissing x12.Code = "guide.element-missing"
	// CodeConditional: an X12 syntax rule (P, R, C, L) wants an element that
	// is empty. IK403 2.
	CodeConditional x12.Code = "guide.element-conditional-missing"
	// CodeTooManyElements: data past the last element the guide defines. IK403 3.
	CodeTooManyElements x12.Code = "guide.too-many-elements"
	// CodeTooShort and CodeTooLong: length outside min/max. IK403 4 and 5.
	CodeTooShort x12.Code = "guide.element-too-short"
	CodeTooLong  x12.Code = "guide.element-too-long"
	// CodeBadCharacter: a value that does not fit its data type (a letter in
	// a number, a control character in text). IK403 6.
	CodeBadCharacter x12.Code = "guide.element-invalid-character"
	// CodeBadCode: a value outside the guide's code list. IK403 7.
	CodeBadCode x12.Code = "guide.element-invalid-code"
	// CodeBadDate: not a real calendar date (or a range that ends before it
	// starts). IK403 8.
	CodeBadDate x12.Code = "guide.element-invalid-date"
	// CodeBadTime: not a real time of day. IK403 9.
	CodeBadTime x12.Code = "guide.element-invalid-time"
	// CodeExclusion: an X12 exclusion rule (E) saw more than one element. IK403 10.
	CodeExclusion x12.Code = "guide.element-exclusion"
	// CodeTooManyRepeats: more repetitions than allowed. IK403 12.
	CodeTooManyRepeats x12.Code = "guide.element-too-many-repetitions"
	// CodeTooManyComponents: more components than the composite has, or
	// components in a simple element. IK403 13.
	CodeTooManyComponents x12.Code = "guide.element-too-many-components"
	// CodeElementNotUsed: a value in an element the guide marks "not used".
	// IK403 I10.
	CodeElementNotUsed x12.Code = "guide.element-not-used"
	// CodePattern: a value that does not match the guide's pattern. IK403 I12.
	CodePattern x12.Code = "guide.element-pattern"
	// CodeAdvisoryCode: a value outside an external list we keep only as an
	// old snapshot (CARC, RARC, claim status, place of service...). Warning,
	// not acknowledged.
	CodeAdvisoryCode x12.Code = "guide.code-not-in-snapshot"

	// Hierarchy (HL).

	// CodeHLParent: HL02 does not name the enclosing level. IK403 7 on HL02.
	CodeHLParent x12.Code = "guide.hl-parent"
	// CodeHLSequence: HL01 does not count up by one. IK403 7 on HL01.
	CodeHLSequence x12.Code = "guide.hl-sequence"
	// CodeHLChild: HL04 disagrees with the levels that follow. IK403 7
	// when a child level's parent says it has none; HL04 = 1 with no child
	// level is a Warning (the standard's own examples do it).
	CodeHLChild x12.Code = "guide.hl-child-code"

	// Situational and business rules.

	// CodeRuleMissing: a situational rule requires a segment or loop that is
	// absent. IK304 I6 (implementation dependent segment missing).
	CodeRuleMissing x12.Code = "guide.situational-missing"
	// CodeRuleForbidden: a situational rule forbids a segment or loop that is
	// present. IK304 I9 (implementation dependent "not used" segment present).
	CodeRuleForbidden x12.Code = "guide.situational-not-used"
	// CodeBalance: amounts do not add up (837 CLM02 vs service lines, 835
	// BPR02 vs CLP04 and PLB). IK403 I12 on the total.
	CodeBalance x12.Code = "guide.balance"
	// CodeNPI: an NPI whose check digit is wrong. IK403 I12.
	CodeNPI x12.Code = "guide.npi-check-digit"
	// CodeSequence: a numbered segment out of sequence (LX01 must count 1,
	// 2, 3... within each claim). IK403 7.
	CodeSequence x12.Code = "guide.sequence"
	// CodeNPIPrefix: an NPI with a correct check digit that does not start
	// with 1 or 2, as registry-issued NPIs do. Warning (registry practice,
	// not a guide rule).
	CodeNPIPrefix x12.Code = "guide.npi-prefix"

	// CodeNoGuide: no embedded guide matches the set's ST01 and ST03/GS08;
	// only the envelope was checked. Info, not acknowledged.
	CodeNoGuide x12.Code = "guide.not-found"
)
