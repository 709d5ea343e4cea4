package blob

import (
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/sweep"
)

// SweepTemporary removes what a crash left in a plain-directory store: the
// ".tmp-*" files of writes never committed (createFile) and the
// ".readyz-*" files of readiness probes, untouched for olderThan. Other
// backends have none; it returns 0 for them. Serve runs it at start.
func SweepTemporary(s Store, olderThan time.Duration) (int, error) {
	k, ok := unwrap(s).(bucket)
	if !ok || k.dir == "" {
		return 0, nil
	}
	return sweep.Files(k.dir, func(_, name string) bool {
		return strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, ".readyz-")
	}, olderThan, time.Now())
}
