package audit_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestCanonicalIsMarshal: Canonical writes exactly the bytes json.Marshal
// gives for the event's fields as an array, the form every stored hash was
// computed over, for strings of every kind of character (quotes,
// backslashes, control characters, HTML's <>&, invalid UTF-8, U+2028/9,
// multi-byte runes) and any numbers.
func TestCanonicalIsMarshal(t *testing.T) {
	pieces := []string{"a", "Z", "0", " ", `"`, `\`, "/", "<", ">", "&", "\b", "\f", "\n", "\r", "\t", "\x00", "\x01",
		"\x1f", "\x7f", "é", "€", "😀", "\u2028", "\u2029", "\xff", "\xc3", "\xe2\x80", "\ud7ff", "POST /2024-04-01/x/{id}"}
	rng := rand.New(rand.NewPCG(29, 2))
	str := func() string {
		var b bytes.Buffer
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for i := range 20000 {
		e := store.AuditEvent{ID: str(), AccountID: str(), Seq: rng.Int64() - rng.Int64(), Mode: str(), ActorType: str(),
			ActorID: str(), RemoteAddr: str(), Action: str(), ResourceType: str(), ResourceID: str(), Route: str(),
			Status: rng.IntN(1000) - 500, At: time.UnixMicro(rng.Int64N(1<<50) - 1<<49).In(time.FixedZone("x", 3600))}
		if i == 0 {
			e = store.AuditEvent{}
		}
		want, err := json.Marshal([]any{e.ID, e.AccountID, e.Seq, e.Mode, e.ActorType, e.ActorID, e.RemoteAddr, e.Action,
			e.ResourceType, e.ResourceID, e.Route, e.Status, e.At.UTC().UnixMicro()})
		if err != nil {
			t.Fatal(err)
		}
		if got := audit.Canonical(e); !bytes.Equal(got, want) {
			t.Fatalf("event %+v:\n got %s\nwant %s", e, got, want)
		}
	}
}
