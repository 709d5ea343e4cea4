package caqh

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"strings"
)

// mimeFields are the form parts of a request, in the rule's order.
var mimeFields = []string{"PayloadType", "ProcessingMode", "PayloadID", "TimeStamp", "UserName", "Password",
	"SenderID", "ReceiverID", "CORERuleVersion", "Payload"}

// MarshalMIME writes a request (cred set) or a response (ErrorCode and
// ErrorMessage added) as multipart/form-data and returns the body and its
// Content-Type. boundary "" picks a random one.
func MarshalMIME(env *Envelope, cred *Credentials, boundary string) ([]byte, string, error) {
	var b bytes.Buffer
	b.Grow(len(env.Payload) + 1024)
	w := multipart.NewWriter(&b)
	if boundary != "" {
		if err := w.SetBoundary(boundary); err != nil {
			return nil, "", err
		}
	}
	values := map[string][]byte{
		"PayloadType": []byte(env.PayloadType), "ProcessingMode": []byte(env.ProcessingMode),
		"PayloadID": []byte(env.PayloadID), "TimeStamp": []byte(env.TimeStamp),
		"SenderID": []byte(env.SenderID), "ReceiverID": []byte(env.ReceiverID),
		"CORERuleVersion": []byte(env.CORERuleVersion), "Payload": env.Payload,
	}
	fields := mimeFields
	if cred != nil {
		values["UserName"], values["Password"] = []byte(cred.Username), []byte(cred.Password)
	} else {
		fields = append(without(mimeFields, "UserName", "Password"), "ErrorCode", "ErrorMessage")
		values["ErrorCode"], values["ErrorMessage"] = []byte(env.ErrorCode), []byte(env.ErrorMessage)
	}
	for _, name := range fields {
		pw, err := w.CreateFormField(name)
		if err != nil {
			return nil, "", err
		}
		if _, err := pw.Write(values[name]); err != nil {
			return nil, "", err
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return b.Bytes(), w.FormDataContentType(), nil
}

func without(list []string, drop ...string) []string {
	var out []string
	for _, s := range list {
		keep := true
		for _, d := range drop {
			keep = keep && s != d
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}

// ParseMIME reads a multipart/form-data message (request or response) of
// the given Content-Type. Each part may hold at most maxPart bytes; a part
// named twice or a part that is not a form field is refused. Unknown parts
// are skipped, so a sender's extra metadata does not fail the exchange.
func ParseMIME(r io.Reader, contentType string, maxPart int64) (*Envelope, Credentials, error) {
	media, params, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.HasPrefix(media, "multipart/") || params["boundary"] == "" {
		return nil, Credentials{}, fmt.Errorf("content type %q is not multipart with a boundary", contentType)
	}
	mr := multipart.NewReader(r, params["boundary"])
	env := &Envelope{}
	var cred Credentials
	seen := map[string]bool{}
	for parts := 0; ; parts++ {
		if parts > 32 {
			return nil, Credentials{}, errors.New("too many parts")
		}
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, Credentials{}, fmt.Errorf("unreadable multipart: %w", err)
		}
		name := p.FormName()
		if name == "" {
			return nil, Credentials{}, errors.New("a part has no form-data name")
		}
		if seen[name] {
			return nil, Credentials{}, fmt.Errorf("part %s appears twice", name)
		}
		seen[name] = true
		v, err := io.ReadAll(io.LimitReader(p, maxPart+1))
		if err != nil {
			return nil, Credentials{}, fmt.Errorf("part %s: %w", name, err)
		}
		if int64(len(v)) > maxPart {
			return nil, Credentials{}, &tooLargeError{part: name, limit: maxPart}
		}
		s := strings.TrimSpace(string(v))
		switch name {
		case "PayloadType":
			env.PayloadType = s
		case "ProcessingMode":
			env.ProcessingMode = s
		case "PayloadID":
			env.PayloadID = s
		case "TimeStamp":
			env.TimeStamp = s
		case "SenderID":
			env.SenderID = s
		case "ReceiverID":
			env.ReceiverID = s
		case "CORERuleVersion":
			env.CORERuleVersion = s
		case "Payload":
			env.Payload = bytes.TrimSpace(v)
		case "ErrorCode":
			env.ErrorCode = s
		case "ErrorMessage":
			env.ErrorMessage = s
		case "UserName":
			cred.Username = s
		case "Password":
			cred.Password = string(v)
		}
	}
	return env, cred, nil
}

type tooLargeError struct {
	part  string
	limit int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("part %s is larger than %d bytes", e.part, e.limit)
}
