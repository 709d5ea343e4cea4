package summary

import (
	"strconv"
	"strings"
	"time"
)

// FormatDate turns the contract's YYYYMMDD (or a YYYYMMDD-YYYYMMDD range)
// into "Jan 2, 2006" (or "Jan 1, 2026 – Dec 31, 2026"); anything else is
// shown as sent.
func FormatDate(s string) string {
	if begin, end, ok := strings.Cut(s, "-"); ok && len(begin) == 8 && len(end) == 8 {
		return FormatDate(begin) + " – " + FormatDate(end)
	}
	t, err := time.Parse("20060102", s)
	if err != nil {
		return s
	}
	return t.Format("Jan 2, 2006")
}

// FormatMoney writes a decimal string as dollars: "1475.8" → "$1,475.80",
// "2000" → "$2,000".
func FormatMoney(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	neg := f < 0
	if neg {
		f = -f
	}
	cents := int64(f*100 + 0.5)
	whole := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := "$" + b.String()
	if cents%100 != 0 {
		out += "." + strconv.FormatInt(cents%100+100, 10)[1:]
	}
	if neg {
		out = "-" + out
	}
	return out
}

// FormatPercent writes the contract's fraction as a percentage: "0.2" →
// "20%", ".125" → "12.5%".
func FormatPercent(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(f*100, 'f', -1, 64) + "%"
}

// FormatTime writes a time as the console and the PDF show it.
func FormatTime(t time.Time) string { return t.UTC().Format("Jan 2, 2006 15:04 UTC") }
