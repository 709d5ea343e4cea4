package eligibility

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxRequestBytes bounds an eligibility request body; real requests are a
// few kilobytes.
const MaxRequestBytes = 1 << 20

// DecodeRequest reads one JSON request. Unknown fields are ignored (clients
// of the original API send extras); a value of the wrong JSON type becomes a
// *ValidationError naming the field, so callers answer 400 with a fieldList.
func DecodeRequest(r io.Reader) (*Request, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRequestBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxRequestBytes {
		return nil, &ValidationError{Fields: []FieldError{{Path: "", Message: fmt.Sprintf("request body is larger than %d bytes", MaxRequestBytes)}}}
	}
	return decodeRequestBytes(data)
}

func decodeRequestBytes(data []byte) (*Request, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ValidationError{Fields: []FieldError{{Path: "", Message: "request body is empty; send a JSON object with tradingPartnerServiceId, provider and subscriber"}}}
	}
	var req Request
	if err := json.Unmarshal(data, &req); err != nil {
		var typeErr *json.UnmarshalTypeError
		var syntaxErr *json.SyntaxError
		switch {
		case errors.As(err, &typeErr):
			path := "/" + strings.ReplaceAll(typeErr.Field, ".", "/")
			if typeErr.Field == "" {
				path = ""
			}
			return nil, &ValidationError{Fields: []FieldError{{Path: path,
				Message: fmt.Sprintf("must be a JSON %s, not %s", jsonKind(typeErr.Type.Kind().String()), typeErr.Value)}}}
		case errors.As(err, &syntaxErr):
			return nil, &ValidationError{Fields: []FieldError{{Path: "",
				Message: fmt.Sprintf("request body is not valid JSON at byte %d: %v", syntaxErr.Offset, err)}}}
		default:
			return nil, &ValidationError{Fields: []FieldError{{Path: "", Message: "request body is not valid JSON: " + err.Error()}}}
		}
	}
	return &req, nil
}

// jsonKind names a Go kind the way a JSON author thinks of it.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "slice", "array":
		return "array"
	case "struct", "map", "ptr":
		return "object"
	default:
		return kind
	}
}
