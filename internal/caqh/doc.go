// Package caqh speaks the CAQH CORE Connectivity Rule vC2.2.0 (Phase II
// CORE 270) for real-time X12 exchanges: one 270 interchange in, one 271
// (or a 999 rejecting it) out, in the same HTTP exchange.
//
// The rule defines two envelopes, and a server must accept both:
//
//   - SOAP 1.2: a COREEnvelopeRealTimeRequest in the body, credentials in a
//     WS-Security UsernameToken (PasswordText) in the header;
//   - HTTP MIME multipart (multipart/form-data): one form part per
//     metadata field, credentials in the UserName and Password parts.
//
// Both carry the same metadata (PayloadType, ProcessingMode, PayloadID,
// TimeStamp, SenderID, ReceiverID, CORERuleVersion, Payload); a response
// adds ErrorCode and ErrorMessage. Client sends an exchange and maps every
// way it can fail to an *Error naming the CORE error code; Handler serves
// the rule on top of any payers.Connection (the mock payers, in
// `clearhouse mockpayer serve`).
package caqh
