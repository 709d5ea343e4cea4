package x12

// Finding codes of the reader and the envelope validator. Each constant's
// comment names the acknowledgment code it carries.
const (
	// Reading and encoding.

	// CodeNoInterchange: the input does not start with an ISA header and no
	// delimiters were supplied for a bare ST..SE fragment. Fatal.
	CodeNoInterchange Code = "input.no-isa"
	// CodeUTF16: the input was UTF-16 and has been decoded (Warning).
	CodeUTF16 Code = "input.utf16-decoded"
	// CodeSegmentTooLong: a segment exceeded the reader's maximum size. Fatal.
	CodeSegmentTooLong Code = "input.segment-too-long"
	// CodeUnterminated: the input ended inside a segment, i.e. the last
	// segment has no terminator (Info: many editors drop it).
	CodeUnterminated Code = "segment.unterminated"

	// ISA header (TA1 note codes per field, see isaFields).

	// CodeISAMalformed: the ISA could not be read at all. Fatal; TA1 022.
	CodeISAMalformed Code = "isa.malformed"
	// CodeISAWidth: an ISA field does not have its fixed width, so the ISA
	// is not 106 characters. Error; TA1 code of the field.
	CodeISAWidth Code = "isa.field-width"
	// CodeISALineBreak: the ISA contains line breaks (hard-wrapped file)
	// that were removed. Warning.
	CodeISALineBreak Code = "isa.line-break"
	// CodeISAValue: an ISA field has an invalid value (date, time, control
	// number, qualifier...). Error; TA1 code of the field.
	CodeISAValue Code = "isa.field-invalid"
	// CodeDelimiters: the delimiters are not distinct or not usable. Fatal;
	// TA1 026 (element), 027 (component) or 004 (segment terminator).
	CodeDelimiters Code = "isa.delimiters-invalid"
	// CodeRepetitionIgnored: ISA11 cannot be a repetition separator (a
	// letter or digit in 5010, or equal to ISA16), so repetitions are not
	// split. Warning.
	CodeRepetitionIgnored Code = "isa.repetition-separator-ignored"
	// CodeISADuplicate: ISA13 repeats an earlier interchange's. Error; TA1 025.
	CodeISADuplicate Code = "isa.control-number-duplicate"

	// IEA trailer.

	// CodeIEAMissing: the input ended before the IEA. Error; TA1 023.
	CodeIEAMissing Code = "iea.missing"
	// CodeIEAControl: IEA02 differs from ISA13. Error; TA1 001 (018 when
	// IEA02 is not a 9-digit number).
	CodeIEAControl Code = "iea.control-number-mismatch"
	// CodeIEACount: IEA01 differs from the number of groups. Error; TA1 021.
	CodeIEACount Code = "iea.group-count-mismatch"
	// CodeInterchangeContent: a segment is not allowed where it stands in
	// the interchange (e.g. ST outside a group, IEA without ISA, data after
	// IEA). Error; TA1 024.
	CodeInterchangeContent Code = "interchange.invalid-content"
	// CodeTA1Segment: a TA1 segment inside the interchange is malformed.
	// Error; TA1 024.
	CodeTA1Segment Code = "ta1.invalid"

	// GS/GE functional group (999 AK905).

	// CodeGSValue: a GS element is missing or invalid. Error; AK905 1
	// (GS01-GS03), 6 (GS06) or 2 (GS08); no acknowledgment code for GS04,
	// GS05 and GS07, which the 999 has no code for (see checkGS).
	CodeGSValue Code = "gs.field-invalid"
	// CodeGEMissing: the group has no GE. Error; AK905 3.
	CodeGEMissing Code = "ge.missing"
	// CodeGEControl: GE02 differs from GS06. Error; AK905 4.
	CodeGEControl Code = "ge.control-number-mismatch"
	// CodeGECount: GE01 differs from the number of sets. Error; AK905 5.
	CodeGECount Code = "ge.set-count-mismatch"
	// CodeGSDuplicate: GS06 repeats within the interchange. Error; AK905 19.
	CodeGSDuplicate Code = "gs.control-number-duplicate"
	// CodeVersionMismatch: ISA12 and GS08 name different versions (e.g.
	// 00401 around 005010X279A1). Warning: the envelope and the body are
	// read with their own versions.
	CodeVersionMismatch Code = "envelope.version-mismatch"

	// ST/SE transaction set (999 IK502).

	// CodeSEMissing: the set has no SE. Error; IK502 2.
	CodeSEMissing Code = "se.missing"
	// CodeSEControl: SE02 differs from ST02. Error; IK502 3.
	CodeSEControl Code = "se.control-number-mismatch"
	// CodeSECount: SE01 differs from the number of segments ST..SE. Error;
	// IK502 4.
	CodeSECount Code = "se.segment-count-mismatch"
	// CodeSTID: ST01 is missing or not a transaction set id, or does not
	// belong in the group's GS01. Error; IK502 6.
	CodeSTID Code = "st.id-invalid"
	// CodeSTControl: ST02 is not 4-9 characters without spaces. Error; IK502 7.
	CodeSTControl Code = "st.control-number-invalid"
	// CodeSTDuplicate: ST02 repeats within the group. Error; IK502 23.
	CodeSTDuplicate Code = "st.control-number-duplicate"
	// CodeSTReference: ST03 differs from GS08. Warning (the set is read
	// with ST03, which names the guide more precisely); IK502 19, so a 999
	// reports the set as accepted with errors (IK501 E).
	CodeSTReference Code = "st.implementation-reference-mismatch"

	// Segment syntax (999 IK304/IK403).

	// CodeSegmentID: a segment id is not 2-3 upper-case letters or digits.
	// Error; IK304 1.
	CodeSegmentID Code = "segment.id-invalid"
	// CodeTrailingSeparator: a segment ends with an empty element (trailing
	// element separators). Error; IK304 8.
	CodeTrailingSeparator Code = "segment.trailing-separators"
	// CodeEmptySegment: a segment has an id but no elements. Error; IK304 8.
	CodeEmptySegment Code = "segment.empty"
)
