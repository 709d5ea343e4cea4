// Package x12 reads, checks and writes ANSI X12 EDI, the format of HIPAA
// healthcare transactions (270/271, 837, 835, 999...). It knows envelopes
// and syntax, not implementation guides: x12/guide layers guides on top.
//
// # Document model
//
//	file
//	└── interchange   ISA ... IEA      (delimiters, sender, receiver, ISA13)
//	    ├── TA1, ISB/ISE               (interchange-level segments)
//	    └── group     GS ... GE        (GS01 functional id, GS06, GS08 version)
//	        └── set   ST ... SE        (ST01 id, ST02 control number, ST03 guide)
//	            └── segments           (id, elements, components, repetitions)
//
// # Reading
//
// Reader is a pull parser: Next returns one *Segment at a time, a view into
// a reused buffer (valid until the next call; Clone keeps one). Memory is
// bounded by the largest segment, not the file. Segments know their byte
// offset; Reader.LineCol turns an offset into line and column only when a
// message needs it. Elements are split lazily and without allocation
// (ElementBytes, ComponentBytes, IDBytes); the string accessors allocate.
//
// The delimiters of every interchange come from its ISA: element separator
// (byte 3), repetition separator (ISA11, from version 00402), component
// separator (ISA16) and segment terminator (the byte after ISA16). Any byte
// may serve, CR, LF and control characters included. An ISA is recognised
// only at the start of a segment ("ISA" followed by a non-alphanumeric byte),
// never as a substring, so data such as "LISA" is safe.
//
// # Validation
//
// Validate streams an input through the envelope checks and returns a
// Report: each interchange, group and set with its findings. A Finding
// carries severity, offset, line/column, segment and element position, and
// the acknowledgment codes it maps to (TA1 note code, 999 AK905, IK502,
// IK304, IK403), so WriteAcks renders TA1 and 999 acknowledgments from
// findings alone. Guide validators implement SetValidator to add their
// findings in the same pass, or file them later with Report.Add.
//
// Severity policy: Error and Fatal reject their envelope in the
// acknowledgments; Warning is reported but accepts (IK501/AK901 "E" when it
// carries a 999 code); Info is a remark. A corpus file the manifest calls
// VALID yields no Error or Fatal finding and no Warning other than those the
// corpus test lists with a reason.
//
// # Policy for unusual input (the corpus's EDGE files)
//
//   - UTF-8 BOM: skipped silently; offsets still count its 3 bytes.
//   - UTF-16 (BOM or a NUL beside every ASCII byte): decoded to UTF-8;
//     Warning input.utf16-decoded; offsets then refer to the decoded bytes.
//   - Line breaks, spaces and tabs between segments (after a terminator,
//     indentation): skipped silently.
//   - Line breaks inside a segment (hard-wrapped files): removed, since CR
//     and LF are never X12 data; inside the ISA also Warning isa.line-break.
//   - CR or LF as the segment terminator: accepted; blanks right before it
//     are dropped as line padding. Control-character terminators (0x1D):
//     accepted silently.
//   - A last segment without terminator: read; Info segment.unterminated.
//   - A 106-character ISA is read at fixed positions. Otherwise (relaxed
//     mode, the default) the fields are found by counting separators,
//     tolerating spaces after "ISA" ("ISA *00 *...") and padding; the first
//     field with a wrong width is an Error isa.field-width carrying that
//     field's TA1 note code. WithStrictISA refuses such headers instead.
//   - ISA11 in 00501 and later that cannot be a separator (a letter or digit
//     such as the 4010 habit "U"), or that equals ISA16: Warning
//     isa.repetition-separator-ignored; repetitions are not split.
//   - ISA12 and GS08 of different versions (00401 around 005010X..., 00402
//     around 5010): Warning envelope.version-mismatch. ST03 different from
//     GS08: Warning st.implementation-reference-mismatch (IK502 19).
//   - ISB/ISE/TA3 between ISA and the first GS: accepted silently.
//   - A bare ST..SE fragment (no ISA): read only with caller-supplied
//     delimiters (WithDelimiters); its sets are checked (SE01, SE02, ST02)
//     without envelope findings, but it cannot be acknowledged (no sender).
//     Without delimiters: Fatal input.no-isa.
//   - Not supported: multi-byte segment terminators (e.g. UTF-8 "…"); the
//     first byte of such a sequence would be taken as the terminator.
//
// # Writing
//
// Writer writes segments with chosen delimiters, refusing data that contains
// a delimiter (DataError names the segment and element) and omitting trailing
// empty elements, so output is deterministic. InterchangeWriter adds the
// envelopes and computes SE01, GE01, IEA01 and all control numbers from a
// ControlNumbers source the caller supplies.
package x12
