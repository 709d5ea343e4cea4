package x12text

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want, refused string }{
		{in: "JANE DOE", want: "JANE DOE"},
		{in: "José", want: "Jose"},
		{in: "Jose\u0301 Mun\u0303oz", want: "Jose Munoz"}, // decomposed accents
		{in: "Łódź", want: "Lodz"},
		{in: "Straße", want: "Strasse"},
		{in: "Ærøskøbing", want: "AEroskobing"},
		{in: "Œuvre Þór ÿ", want: "OEuvre THor y"},
		{in: "Zoë Saldaña-Nazario", want: "Zoe Saldana-Nazario"},
		{in: "Ann\u00a0Lee", refused: "a no-break space (U+00A0)"},
		{in: "Ann\u200bLee", refused: "zero-width"},
		{in: "Ann\ufeff", refused: "zero-width"},
		{in: "Ann\u0085Lee", refused: "a control character (U+0085)"},
		{in: "Ann 😀", refused: "an emoji or symbol (U+1F600)"},
		{in: "Ann\nLee", refused: "control character (such as a line break"},
		{in: "A*B", refused: `"*", which X12 uses as a delimiter`},
		{in: "2×3", refused: "U+00D7"},
		{in: "\u0301A", refused: "U+0301"}, // an accent on nothing
		{in: "Ann\xff", refused: "not valid UTF-8"},
		{in: "O’Brien", refused: "U+2019"},
		{in: "Ελένη", refused: "U+0395"},
	} {
		got, err := Clean(tc.in, "*:^~")
		switch {
		case tc.refused == "" && (err != nil || got != tc.want):
			t.Errorf("Clean(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		case tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)):
			t.Errorf("Clean(%q) = %q, %v; want a refusal naming %s", tc.in, got, err, tc.refused)
		}
	}
}

func TestCleanASCIIDoesNotAllocate(t *testing.T) {
	s := "SUBSCRIBER NAME 123 MAIN ST APT 4B"
	if n := testing.AllocsPerRun(100, func() { Clean(s, "*:^~") }); n != 0 {
		t.Errorf("%v allocations for ASCII text", n)
	}
}

func BenchmarkClean(b *testing.B) {
	for name, s := range map[string]string{"ascii": "SUBSCRIBER NAME 123 MAIN ST", "accents": "José Muñoz García"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Clean(s, "*:^~")
			}
		})
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"José", "Ann\u00a0Lee", "Jose\u0301", "😀", "A*B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Clean(s, "*:^~")
		if err != nil {
			return
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; c < 0x20 || c > 0x7e || strings.IndexByte("*:^~", c) >= 0 {
				t.Fatalf("Clean(%q) = %q holds byte %#x", s, out, c)
			}
		}
	})
}
