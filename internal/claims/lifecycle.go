package claims

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// lifecycle is a new claim as the claims lifecycle API shows it: its type,
// SUBMITTED by us, and the dates of service and the patient's name read
// from the 837 itself, so the JSON and raw-X12 submissions of every claim
// type give them the same way.
func lifecycle(k *claimKind, x12Text []byte) store.ClaimLifecycle {
	l := store.ClaimLifecycle{Type: strings.ToUpper(k.name), Status: store.ClaimStatusSubmitted,
		ReportedBy: store.ReportedByClearinghouse}
	l.ServiceStart, l.ServiceEnd, l.Patient = summarize837(x12Text)
	return l
}

// patientName is the hosted API's claim patientName.
type patientNameJSON struct {
	FirstName  string `json:"firstName,omitempty"`
	MiddleName string `json:"middleName,omitempty"`
	LastName   string `json:"lastName,omitempty"`
	Suffix     string `json:"suffix,omitempty"`
}

// summarize837 reads an 837's dates of service (the earliest and latest
// DTP*472 service date and DTP*434 statement period, as YYYY-MM-DD; end ""
// when they are one day) and its patient (NM1*QC, else the subscriber
// NM1*IL) as JSON. Dates that are not calendar dates are left out.
func summarize837(text []byte) (start, end string, patient []byte) {
	r := x12.NewReader(bytes.NewReader(text))
	var name, subscriber *patientNameJSON
	for {
		seg, err := r.Next()
		if errors.Is(err, io.EOF) || err != nil {
			break
		}
		switch {
		case seg.Is("NM1") && (seg.Element(1) == "QC" || seg.Element(1) == "IL") && seg.Element(2) == "1":
			n := &patientNameJSON{LastName: seg.Element(3), FirstName: seg.Element(4), MiddleName: seg.Element(5), Suffix: seg.Element(7)}
			if seg.Element(1) == "QC" {
				name = n
			} else if subscriber == nil {
				subscriber = n
			}
		case seg.Is("DTP") && (seg.Element(1) == "472" || seg.Element(1) == "434"):
			from, to, ok := period(seg.Element(2), seg.Element(3))
			if !ok {
				continue
			}
			if start == "" || from < start {
				start = from
			}
			if to > end {
				end = to
			}
		}
	}
	if end == start {
		end = ""
	}
	if name == nil {
		name = subscriber
	}
	if name != nil {
		patient, _ = json.Marshal(name)
	}
	return start, end, patient
}

// period reads a D8 or RD8 date as YYYY-MM-DD.
func period(format, value string) (from, to string, ok bool) {
	day := func(s string) (string, bool) {
		t, err := time.Parse("20060102", s)
		return t.Format("2006-01-02"), err == nil
	}
	switch format {
	case "D8":
		d, ok := day(value)
		return d, d, ok
	case "RD8":
		a, b, cut := strings.Cut(value, "-")
		from, ok1 := day(a)
		to, ok2 := day(b)
		return from, to, cut && ok1 && ok2 && from <= to
	}
	return "", "", false
}
