// Package claimstatus follows a dental claim after it is sent: it links the
// payer's answers to the claims they are about, while the EDI core records
// them (core.InboundHook, in the same database transaction), and says what
// they mean in words.
//
//   - A 999 points at a claim's 837D by control numbers: AK1-02 is the
//     group's GS06 and AK2-02 the set's ST02. IK5 A or E acknowledges it; R,
//     M, W or X rejects it.
//   - A 277CA (and a 277) carries each claim in a patient level (HL03 PT):
//     TRN-02 is the claim's patient control number (CLM01), REF*D9 our
//     claim id when the payer echoes it, and STC the claim's status: a
//     category (A2 accepted, A7 rejected for invalid information, ...), a
//     status code and the entity it is about.
//   - An 835 pays (or denies) a claim in a CLP whose CLP01 is the claim's
//     patient control number; CLP02 4 is a denial, 22 a reversal.
//
// Matching by patient control number takes the account's newest claim
// with that number in the same mode; REF*D9, when present, names the claim
// exactly. The claim's status is the latest answer, an 835 outranking a
// 277CA, which outranks a 999 (store.ClaimStatus).
package claimstatus
