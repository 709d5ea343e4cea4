package delivery_test

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/store"
)

func TestFileNameIsGenerated(t *testing.T) {
	for _, tc := range []struct {
		source, id, want string
	}{
		{"837D-01m85f0fqjnn3nxdkbg82w7bmx.x12", "6f1c0d9e-1b7a-5c3e-9a51-0e0f2b1c4d5e", "837D-6f1c0d9e-1b7a-5c3e-9a51-0e0f2b1c4d5e.x12"},
		// A 999's execution is named after the file it answers, which the
		// uploader chose: the delivered name must not be.
		{"999-999-other-account.x12", "a1", "999-a1.x12"},
		{"999-../../partner2/outbound/x", "a2", "999-a2.x12"},
		{"era.x12", "a3", "file-a3.x12"},
		{"", "a/../4", "file-a____4.x12"},
	} {
		if got := delivery.FileName(store.Execution{ID: tc.id, SourceName: tc.source}); got != tc.want {
			t.Errorf("FileName(%q, %q) = %q, want %q", tc.source, tc.id, got, tc.want)
		}
	}
}
