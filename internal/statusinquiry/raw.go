package statusinquiry

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// MaxRawBytes bounds a raw 276.
const MaxRawBytes = 1 << 20

// CheckRaw sends a caller's own 276 (validated against the 005010X212
// guide first: nothing invalid reaches a payer) to the payer its 2100A
// names, and maps the 277 as Check does.
func (s *Service) CheckRaw(ctx context.Context, caller payers.Caller, raw string) (*Response, error) {
	if raw == "" {
		return nil, invalid([]FieldError{{Path: "/x12", Message: "is required: send the 276 interchange as one string"}}, 0)
	}
	if len(raw) > MaxRawBytes {
		return nil, invalid([]FieldError{{Path: "/x12", Message: fmt.Sprintf("is %d bytes; a 276 may be at most %d", len(raw), MaxRawBytes)}}, 0)
	}
	rep, err := guide.Validate(bytes.NewReader([]byte(raw)), guide.Options{})
	if err != nil {
		return nil, invalid([]FieldError{{Path: "/x12", Message: "is not readable X12: " + err.Error()}}, 0)
	}
	var list findings.List[FieldError]
	for _, f := range rep.All() {
		if f.Severity >= x12.Error {
			list.Add(FieldError{Path: "/x12", Message: findings.Clip(fmt.Sprintf("line %d, %s: %s", f.Line, f.Code, f.Message))})
		}
	}
	payerID, set := rawPayer(raw)
	if set != "276" {
		list.Add(FieldError{Path: "/x12", Message: fmt.Sprintf("must hold a 276 claim status request; its transaction set is %q", set)})
	}
	if list.Len() > 0 {
		return nil, invalid(list.Items, list.More)
	}
	route, err := s.route(caller, payerID)
	if err != nil {
		return nil, err
	}
	xctx, cancel := context.WithTimeout(payers.WithCaller(ctx, caller), s.cfg.Timeout)
	defer cancel()
	answer, err := route.Connection.Exchange(xctx, []byte(raw))
	if err != nil {
		return nil, s.exchangeFailed(ctx, route, err)
	}
	resp, err := Map(answer)
	if err != nil {
		return nil, &Problem{Status: http.StatusBadGateway, Code: "BAD_GATEWAY",
			Message: fmt.Sprintf("Payer %s answered the 276 with something that is not a 277.", route.Payer.ID)}
	}
	resp.TradingPartnerServiceID = payerID
	s.record(ctx, caller, route, rawPCN(raw), resp.Claims)
	resp.Meta.ApplicationMode = string(caller.Mode)
	resp.X12 = string(answer)
	return resp, nil
}

// rawPCN is the patient control number (REF*EJ) the first claim of a raw
// 276 asks about, "" when it names none.
func rawPCN(raw string) string {
	r := x12.NewReader(bytes.NewReader([]byte(raw)))
	for {
		s, err := r.Next()
		if err != nil {
			return ""
		}
		if s.Is("REF") && s.Element(1) == "EJ" {
			return s.Element(2)
		}
	}
}

// rawPayer reads the first set's id and its payer (2100A NM1*PR NM109).
func rawPayer(raw string) (payerID, set string) {
	r := x12.NewReader(bytes.NewReader([]byte(raw)))
	for {
		s, err := r.Next()
		if err == io.EOF || err != nil {
			return payerID, set
		}
		switch {
		case s.Is("ST") && set == "":
			set = s.Element(1)
		case s.Is("NM1") && s.Element(1) == "PR" && payerID == "":
			payerID = s.Element(9)
		}
	}
}
