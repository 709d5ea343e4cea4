package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// Reading a sent claim back: the claim page's lines and "Correct and
// resend" come from the 837D that was sent (the outbound transaction's
// X12), so what the page shows is what the payer got.

// billedLine is one service line as it was sent.
type billedLine struct {
	Number                                   int
	Code, Name, Tooth, Surfaces, Units, Date string
	ChargeCents                              int64
	// Modifiers (837P, 837I), the revenue code (837I) and the diagnosis
	// pointers (837P, as numbers).
	Modifiers []string
	Revenue   string
	Pointers  []string
}

// sentClaim is what the console reads back from a sent 837D.
type sentClaim struct {
	Values url.Values // the claim form's inputs
	Lines  []billedLine
}

// readSentClaim reads the claim's outbound 837 (at most maxShownBytes).
func (c *Console) readSentClaim(ctx context.Context, cl store.DentalClaim, t store.Tenant) (*sentClaim, error) {
	tx, err := t.Transaction(ctx, cl.TransactionID)
	if err != nil {
		return nil, err
	}
	b, _, err := c.readBounded(ctx, tx.Input.Key)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, store.ErrNotFound
	}
	return parseSentClaim(b)
}

// parseSentClaim maps the 837's segments back to the form's inputs: a
// dental claim's, or a professional or institutional one's (by the
// implementation guide its ST03 names).
func parseSentClaim(b []byte) (*sentClaim, error) {
	r := x12.NewReader(bytes.NewReader(b))
	out := &sentClaim{Values: url.Values{}}
	v := out.Values
	party := "" // the NM101 of the loop we are in
	var line *billedLine
	var dx []string // 837P and 837I diagnoses (HI ABK, ABF), in order
	for {
		s, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch s.ID() {
		case "ST":
			switch s.Element(3) {
			case "005010X222A1":
				v.Set("kind", kindProfessional)
			case "005010X223A3", "005010X223A2":
				v.Set("kind", kindInstitutional)
			}
		case "NM1":
			party = s.Element(1)
			switch party {
			case "IL":
				v.Set("sub_last", s.Element(3))
				v.Set("sub_first", s.Element(4))
				v.Set("sub_member_id", s.Element(9))
			case "QC":
				v.Set("dep_last", s.Element(3))
				v.Set("dep_first", s.Element(4))
			case "85":
				v.Set("bill_org", s.Element(3))
				v.Set("bill_npi", s.Element(9))
			case "82", "71": // rendering (837D, 837P), attending (837I)
				v.Set("rend_last", s.Element(3))
				v.Set("rend_first", s.Element(4))
				v.Set("rend_npi", s.Element(9))
			case "PR":
				v.Set("payer", s.Element(3)+" ("+s.Element(9)+")")
			}
		case "N3":
			setParty(v, party, "address1", s.Element(1))
		case "N4":
			setParty(v, party, "city", s.Element(1))
			setParty(v, party, "state", s.Element(2))
			setParty(v, party, "zip", s.Element(3))
		case "DMG":
			prefix := map[string]string{"IL": "sub_", "QC": "dep_"}[party]
			if prefix != "" {
				v.Set(prefix+"dob", formDate(s.Element(2)))
				v.Set(prefix+"gender", s.Element(3))
			}
		case "PAT":
			v.Set("dep_rel", s.Element(1))
		case "SBR":
			v.Set("sub_group", s.Element(3))
			v.Set("filing", s.Element(9))
		case "PER":
			if party == "85" || party == "41" {
				v.Set("bill_contact", s.Element(2))
				v.Set("bill_phone", s.Element(4))
			}
		case "PRV":
			if s.Element(1) == "BI" {
				v.Set("bill_taxonomy", s.Element(3))
			}
		case "REF":
			switch {
			case s.Element(1) == "EI" && party == "85":
				v.Set("bill_tin", s.Element(2))
			case s.Element(1) == "G1":
				v.Set("prior_auth", s.Element(2))
			case s.Element(1) == "F8":
				v.Set("original_ref", s.Element(2))
			}
		case "CLM":
			v.Set("pcn", s.Element(1))
			v.Set("place", s.Component(5, 1))
			v.Set("frequency", s.Component(5, 3))
			if v.Get("kind") == kindInstitutional {
				v.Set("tob", s.Component(5, 1)+s.Component(5, 3))
				v.Del("place")
			}
		case "HI":
			if v.Get("kind") == "" {
				v.Set("diagnosis", s.Component(1, 2))
				break
			}
			for i := 1; i <= s.Len(); i++ {
				if q := s.Component(i, 1); q == "ABK" || q == "ABF" {
					dx = append(dx, s.Component(i, 2))
				}
			}
		case "CL1":
			v.Set("adm_type", s.Element(1))
			v.Set("adm_source", s.Element(2))
			v.Set("pat_status", s.Element(3))
		case "LX":
			out.Lines = append(out.Lines, billedLine{Number: len(out.Lines) + 1, Units: "1"})
			line = &out.Lines[len(out.Lines)-1]
		case "SV3":
			if line != nil {
				line.Code = s.Component(1, 2)
				line.ChargeCents, _ = parseDollars(s.Element(2))
				if u := s.Element(6); u != "" {
					line.Units = u
				}
			}
		case "SV1": // 837P: procedure (with modifiers), charge, unit, count, pointers
			if line != nil {
				_, line.Code, line.Modifiers = reports.Procedure(s, 1)
				line.ChargeCents, _ = parseDollars(s.Element(2))
				if u := s.Element(4); u != "" {
					line.Units = u
				}
				for i := 1; i <= 4; i++ {
					if p := s.Component(7, i); p != "" {
						line.Pointers = append(line.Pointers, p)
					}
				}
			}
		case "SV2": // 837I: revenue code, procedure, charge, unit, count
			if line != nil {
				line.Revenue = s.Element(1)
				_, line.Code, line.Modifiers = reports.Procedure(s, 2)
				line.ChargeCents, _ = parseDollars(s.Element(3))
				if u := s.Element(5); u != "" {
					line.Units = u
				}
			}
		case "TOO":
			if line != nil {
				line.Tooth = s.Element(2)
				line.Surfaces = strings.ReplaceAll(s.Element(3), string(s.Delimiters().Component), "")
			}
		case "DTP":
			switch q, d := s.Element(1), s.Element(3); {
			case q == "434": // statement dates (837I), RD8
				from, to, _ := strings.Cut(d, "-")
				v.Set("from_date", formDate(from))
				v.Set("to_date", formDate(cmp.Or(to, from)))
			case q == "435" && len(d) >= 8: // admission, D8 or DT
				v.Set("adm_date", formDate(d[:8]))
				if len(d) >= 10 {
					h, _ := strconv.Atoi(d[8:10])
					v.Set("adm_hour", strconv.Itoa(h))
				}
			}
			if s.Element(1) == "472" && v.Get("kind") != kindInstitutional {
				v.Set("service_date", formDate(s.Element(3)))
				if line != nil {
					line.Date = formDate(s.Element(3))
				}
			}
		}
	}
	for i, code := range dx {
		if i < institutionalDx || v.Get("kind") == kindProfessional && i < professionalDiagnoses {
			v.Set("dx"+strconv.Itoa(i+1), code)
		}
	}
	kind := kindOf(v.Get("kind"))
	for i, l := range out.Lines {
		if i >= kindLines(kind) {
			break
		}
		n := "line" + strconv.Itoa(i+1)
		v.Set(n+"_code", l.Code)
		v.Set(n+"_charge", formatCents(l.ChargeCents))
		switch kind {
		case kindProfessional:
			v.Set(n+"_mods", strings.Join(l.Modifiers, " "))
			v.Set(n+"_units", l.Units)
			var letters strings.Builder
			for _, p := range l.Pointers {
				if k, err := strconv.Atoi(p); err == nil && k >= 1 && k <= professionalDiagnoses {
					letters.WriteString(dxLetter(k))
				}
			}
			v.Set(n+"_ptr", letters.String())
		case kindInstitutional:
			v.Set(n+"_rev", l.Revenue)
			v.Set(n+"_units", l.Units)
		default:
			v.Set(n+"_tooth", l.Tooth)
			v.Set(n+"_surfaces", l.Surfaces)
		}
	}
	return out, nil
}

func setParty(v url.Values, party, field, value string) {
	prefix := map[string]string{"IL": "sub_", "85": "bill_"}[party]
	if prefix != "" {
		v.Set(prefix+field, value)
	}
}

// formDate turns CCYYMMDD into the date input's YYYY-MM-DD.
func formDate(s string) string {
	if len(s) != 8 {
		return s
	}
	return s[:4] + "-" + s[4:6] + "-" + s[6:]
}
