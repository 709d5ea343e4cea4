// Package guide reads X12 transaction sets against their implementation
// guides (TR3s): it validates them and translates them to and from Guide
// JSON. Guides are data: one embedded JSON file per guide under data/,
// generated from the public pyx12, imsweb and StAEDI maps by
// cmd/guidegen (see data/SOURCES.md), so adding a guide or a payer's
// companion guide is adding a file.
//
// The embedded guides are 005010X279A1 270 and 271, 005010X212 276 and
// 277, 005010X214 277CA, 005010X221A1 835, 005010X222A1 837P,
// 005010X224A2 837D and 005010X231A1 999. A set's guide is chosen from its
// ST01 and ST03 (GS08 when ST03 is absent):
//
//	g, ok := guide.For(gs08, st01, st03) // or guide.Lookup("837", "005010X224A2")
//
// # Validation
//
// A Validator follows a set through the guide's loop tree one segment at a
// time (Begin, Step, End). Loops are recognised by their first segment's id
// plus qualifier (NM101, REF01, DTP01, HL03...), with per-loop child tables
// compiled at load; nothing is allocated per segment or element. Each
// problem is an x12.Finding carrying its segment position, loop, element
// and 999 codes (IK304, IK403), so "clearhouse x12 ack" renders them:
// unknown, unexpected, out-of-order or missing segments and loops, repeats
// over the limit, not-used segments and elements, element types, lengths,
// code lists, dates and times, X12 syntax rules, the HL hierarchy, the
// situational rules written in the guide files (REF*F8 for replacement
// claims, the patient loop when the patient is not the subscriber...), and
// the business rules: 837 claim charge = sum of line charges, 835
// BPR02 = ΣCLP04 − ΣPLB, NPI check digits (Options turn these off).
//
//	rep, err := guide.Validate(r, guide.Options{})          // envelopes + guides
//	findings, err := guide.ValidateTransaction(gs08, segs, guide.Options{}) // one ST..SE in memory
//
// NewSetValidator plugs the same checks into x12.Validate.
//
// # Guide JSON
//
// Translate writes X12 as Guide JSON (api-contract §5.4): per set a
// "heading", "detail" and "summary" object; segment keys
// "<usage name>_<SEG>" ("claim_information_CLM"), element keys
// "<name>_<NN>", loop keys "<first segment key>_loop"; arrays for
// repeatable loops and segments, objects for composites, arrays for
// repeated elements; amounts as JSON numbers, dates "YYYY-MM-DD". Output is
// streamed through a JSONEncoder, one segment at a time. DecodeJSON turns
// Guide JSON back into X12: X12 → JSON → X12 gives back the same segments.
package guide
