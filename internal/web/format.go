package web

import (
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
)

// formatFuncs are the template functions every page uses.
var formatFuncs = template.FuncMap{
	"asset":       assetURL,
	"payerLabel":  payerLabel,
	"lower":       strings.ToLower,
	"problemText": summary.ProblemText,
	"hfield": func(name, label, typ, value, err string) map[string]string {
		return map[string]string{"Name": name, "Label": label, "Type": typ, "Value": value, "Error": err}
	},
	"date":        summary.FormatDate,
	"datetime":    summary.FormatTime,
	"isoTime":     func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"statusLabel": statusLabel,
	"statusClass": statusClass,
}

func contentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
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
