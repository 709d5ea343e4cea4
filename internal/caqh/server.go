package caqh

import (
	"bytes"
	"context"
	"crypto/subtle"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"
)

// Backend answers one 270 interchange (payers.Connection).
type Backend interface {
	Exchange(ctx context.Context, request []byte) ([]byte, error)
}

// CodedError lets a Backend choose the CORE error code of its failure
// (the mock payers answer PayloadIllegal for a 270 they cannot answer).
type CodedError interface {
	error
	ErrorCode() string
}

// DefaultMaxRequestBytes bounds a request: a real-time 270 is a few
// kilobytes.
const DefaultMaxRequestBytes = 1 << 20

// Handler serves the rule's real-time exchange over both envelopes: a
// request in SOAP is answered in SOAP, a multipart request in multipart.
// It checks the credentials, then the envelope's fields, then hands the
// payload to Backend.
type Handler struct {
	Backend Backend
	// Credentials, when set, are the only accepted username and password;
	// a request without them gets UnAuthorized (HTTP 401).
	Credentials *Credentials
	// ReceiverID, when set, is the only accepted ReceiverID; the answer's
	// SenderID is ReceiverID in any case.
	ReceiverID string
	// Timeout bounds Backend (default 20 s, the rule's real-time limit).
	Timeout time.Duration
	// MaxRequestBytes bounds a request (default DefaultMaxRequestBytes).
	MaxRequestBytes int64
	Now             func() time.Time
	Logger          *slog.Logger
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "CORE real-time exchanges are POSTed", http.StatusMethodNotAllowed)
		return
	}
	limit := h.MaxRequestBytes
	if limit <= 0 {
		limit = DefaultMaxRequestBytes
	}
	ct := r.Header.Get("Content-Type")
	media, _, _ := mime.ParseMediaType(ct)
	raw, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		http.Error(w, "the request could not be read", http.StatusBadRequest)
		return
	}
	multipartRequest := strings.HasPrefix(media, "multipart/")
	if int64(len(raw)) > limit {
		h.answer(w, multipartRequest, &Envelope{}, http.StatusRequestEntityTooLarge, CodeRequestTooLarge, "the request is larger than the limit", nil)
		return
	}
	var env *Envelope
	var cred Credentials
	if multipartRequest {
		env, cred, err = ParseMIME(bytes.NewReader(raw), ct, limit)
		if err != nil {
			h.answer(w, true, &Envelope{}, http.StatusBadRequest, CodeBadEnvelope, err.Error(), nil)
			return
		}
	} else {
		env, cred, err = ParseSOAPRequest(bytes.NewReader(raw))
		if err != nil {
			code := "Sender"
			if errors.Is(err, errNotSOAP12) {
				code = "VersionMismatch"
			}
			w.Header().Set("Content-Type", SOAPContentType)
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(MarshalSOAPFault(code, err.Error()))
			return
		}
	}
	// Credentials first: an unauthenticated sender learns nothing about
	// what else is wrong with its envelope.
	if !h.authorized(cred) {
		h.answer(w, multipartRequest, env, http.StatusUnauthorized, CodeUnAuthorized, "the username or password is not valid", nil)
		return
	}
	if code, msg := h.check(env); code != "" {
		h.answer(w, multipartRequest, env, http.StatusBadRequest, code, msg, nil)
		return
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	answer, err := h.Backend.Exchange(ctx, env.Payload)
	if err != nil {
		code, status := CodeServerError, http.StatusInternalServerError
		var ce CodedError
		switch {
		case errors.As(err, &ce):
			code, status = ce.ErrorCode(), http.StatusOK
		case errors.Is(err, context.DeadlineExceeded):
			code = CodeTimeout
		}
		msg := "the payer could not answer; try again later"
		if ce != nil {
			msg = ce.Error() // the backend's own words, chosen for the sender
		}
		h.logger().Info("caqh: exchange failed", "payloadId", env.PayloadID, "code", code)
		h.answer(w, multipartRequest, env, status, code, msg, nil)
		return
	}
	h.answer(w, multipartRequest, env, http.StatusOK, CodeSuccess, "", answer)
}

// check validates the metadata in the rule's order and returns the error
// code and message of the first problem.
func (h *Handler) check(env *Envelope) (string, string) {
	required := []struct{ name, value string }{
		{"PayloadType", env.PayloadType}, {"ProcessingMode", env.ProcessingMode}, {"PayloadID", env.PayloadID},
		{"TimeStamp", env.TimeStamp}, {"SenderID", env.SenderID}, {"ReceiverID", env.ReceiverID},
		{"CORERuleVersion", env.CORERuleVersion},
	}
	for _, f := range required {
		if f.value == "" {
			return Required(f.name), f.name + " is required"
		}
	}
	switch {
	case env.CORERuleVersion != RuleVersion:
		return CodeVersionMismatch, "this endpoint speaks CORERuleVersion " + RuleVersion
	case env.ProcessingMode != RealTime:
		if env.ProcessingMode == "Batch" {
			return CodeProcessingModeNotSupp, "this endpoint takes real-time exchanges only"
		}
		return Illegal("ProcessingMode"), "ProcessingMode is RealTime or Batch"
	case env.PayloadType != PayloadType270 && env.PayloadType != PayloadType276:
		return CodePayloadTypeNotSupported, "this endpoint takes " + PayloadType270 + " and " + PayloadType276 + " only"
	case !uuidPattern.MatchString(env.PayloadID):
		return Illegal("PayloadID"), "PayloadID must be a UUID (RFC 4122)"
	case h.ReceiverID != "" && env.ReceiverID != h.ReceiverID:
		return CodeReceiverIDNotAuthorized, "this endpoint is ReceiverID " + h.ReceiverID
	case len(env.Payload) == 0:
		return Required("Payload"), "Payload is required"
	}
	if _, err := parseTimeStamp(env.TimeStamp); err != nil {
		return Illegal("TimeStamp"), "TimeStamp must be an xsd:dateTime"
	}
	return "", ""
}

func (h *Handler) authorized(c Credentials) bool {
	if h.Credentials == nil {
		return true
	}
	user := subtle.ConstantTimeCompare([]byte(c.Username), []byte(h.Credentials.Username))
	pass := subtle.ConstantTimeCompare([]byte(c.Password), []byte(h.Credentials.Password))
	return user&pass == 1
}

// answer writes the response envelope in the request's standard.
func (h *Handler) answer(w http.ResponseWriter, multipartAnswer bool, req *Envelope, status int, code, msg string, payload []byte) {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	resp := &Envelope{
		PayloadType: PayloadTypeError, ProcessingMode: RealTime, PayloadID: req.PayloadID,
		TimeStamp: FormatTimeStamp(now()), SenderID: req.ReceiverID, ReceiverID: req.SenderID,
		CORERuleVersion: RuleVersion, ErrorCode: code, ErrorMessage: msg, Payload: payload,
	}
	if h.ReceiverID != "" {
		resp.SenderID = h.ReceiverID
	}
	if payload != nil {
		resp.PayloadType = payloadTypeOf(payload)
		resp.ErrorMessage = "None"
	}
	if multipartAnswer {
		body, ct, err := MarshalMIME(resp, nil, "")
		if err != nil {
			http.Error(w, "the answer could not be written", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return
	}
	w.Header().Set("Content-Type", SOAPContentType)
	w.WriteHeader(status)
	_, _ = w.Write(MarshalSOAPResponse(resp))
}

func (h *Handler) logger() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	return slog.New(slog.DiscardHandler)
}
