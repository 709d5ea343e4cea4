package x12

import "time"

// AppendDateTime appends t as X12 writes a date and a time together,
// CCYYMMDDHHMM (time's "200601021504"): GS04 and GS05, BHT04 and BHT05.
// The digits are written from t.Date and t.Clock, about a tenth of what
// time.AppendFormat spends parsing its layout (~1,100 instructions a call,
// five calls an eligibility check); a year outside 0–9999, which that
// layout writes differently, goes to AppendFormat.
func AppendDateTime(b []byte, t time.Time) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, "200601021504")
	}
	hour, minute, _ := t.Clock()
	b = append2(b, year/100)
	return appendTime(b, year%100, int(month), day, hour, minute)
}

// appendISADateTime appends t as ISA09 and ISA10 together, YYMMDDHHMM
// (time's "0601021504").
func appendISADateTime(b []byte, t time.Time) []byte {
	year, month, day := t.Date()
	if year < 0 {
		return t.AppendFormat(b, "0601021504")
	}
	hour, minute, _ := t.Clock()
	return appendTime(b, year%100, int(month), day, hour, minute)
}

func appendTime(b []byte, yy, month, day, hour, minute int) []byte {
	b = append2(b, yy)
	b = append2(b, month)
	b = append2(b, day)
	b = append2(b, hour)
	return append2(b, minute)
}

// append2 appends v, 0–99, as two digits.
func append2(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }
