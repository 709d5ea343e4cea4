package store_test

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestConformance runs the one conformance suite on every engine.
func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		storetest.Run(t, open)
	})
}
