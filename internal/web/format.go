package web

import (
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"strconv"
	"strings"
	"time"
)

// formatFuncs are the template functions every page uses.
var formatFuncs = template.FuncMap{
	"asset":       assetURL,
	"payerLabel":  payerLabel,
	"lower":       strings.ToLower,
	"problemText": problemText,
	"hfield": func(name, label, typ, value, err string) map[string]string {
		return map[string]string{"Name": name, "Label": label, "Type": typ, "Value": value, "Error": err}
	},
	"date":        formatDate,
	"datetime":    formatTime,
	"isoTime":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"statusLabel": statusLabel,
	"statusClass": statusClass,
}

func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// formatDate turns the contract's YYYYMMDD (or a YYYYMMDD-YYYYMMDD range)
// into "Jan 2, 2006" (or "Jan 1, 2026 – Dec 31, 2026"); anything else is
// shown as sent.
func formatDate(s string) string {
	if begin, end, ok := strings.Cut(s, "-"); ok && len(begin) == 8 && len(end) == 8 {
		return formatDate(begin) + " – " + formatDate(end)
	}
	t, err := time.Parse("20060102", s)
	if err != nil {
		return s
	}
	return t.Format("Jan 2, 2006")
}

func formatTime(t time.Time) string { return t.UTC().Format("Jan 2, 2006 15:04 UTC") }

// formatMoney writes a decimal string as dollars: "1475.8" → "$1,475.80",
// "2000" → "$2,000".
func formatMoney(s string) string {
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

// formatPercent writes the contract's fraction as a percentage: "0.2" →
// "20%", ".125" → "12.5%".
func formatPercent(s string) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(f*100, 'f', -1, 64) + "%"
}

// History statuses as people read them.
var statusLabels = map[string]string{
	"active":   "Active coverage",
	"inactive": "Inactive coverage",
	"rejected": "Rejected by payer",
	"invalid":  "Invalid request",
	"error":    "Error",
	"unknown":  "Status unknown",
}

func statusLabel(s string) string {
	if l, ok := statusLabels[s]; ok {
		return l
	}
	return s
}

// statusClass picks the badge colour of a status.
func statusClass(s string) string {
	switch s {
	case "active":
		return "ok"
	case "inactive", "unknown":
		return "warn"
	}
	return "bad"
}
