package findings

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestListKeepsMaxAndCountsTheRest(t *testing.T) {
	var l List[int]
	for i := range 600_000 {
		l.Add(i)
	}
	if len(l.Items) != Max || l.More != 600_000-Max || l.Len() != 600_000 || !l.Full() {
		t.Fatalf("kept %d, more %d", len(l.Items), l.More)
	}
	if got := MoreMessage(l.More); !strings.HasPrefix(got, "and 599,900 more problems") {
		t.Errorf("MoreMessage: %q", got)
	}
	if got := Summary(l.Len()); got != "The request is invalid: 600,000 problems; the first 100 are listed in fieldList." {
		t.Errorf("Summary: %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 599900: "599,900", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", MaxMessageBytes)
	got := Clip(long)
	if len(got) > MaxMessageBytes || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Fatalf("Clip: %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if Clip("short") != "short" {
		t.Error("Clip changed a short message")
	}
}
