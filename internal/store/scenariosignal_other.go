//go:build !(linux || darwin || freebsd)

package store

import (
	"os"
	"sync/atomic"
)

// mapSignal: no shared mapping here, so checks read the version.
func mapSignal(string, os.FileInfo) (*atomic.Int64, func() error, func() bool, error) {
	return nil, nil, nil, errNoSharedMapping
}
