package mockpayer_test

import (
	"context"
	"testing"
)

// BenchmarkExchange measures one exchange: read the 270 with the x12
// Reader, match it, write the 271.
func BenchmarkExchange(b *testing.B) {
	for _, name := range []string{"cigna-subscriber-jones", "uhc-dependent", "cigna-dental", "uhc-aaa-72"} {
		x270 := build270(b, findRequest(b, name).RequestJSON())
		m := newMock()
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(x270)))
			for b.Loop() {
				if _, err := m.Exchange(context.Background(), x270); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
