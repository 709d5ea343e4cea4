//go:build !(linux || darwin || freebsd)

package store

import (
	"errors"
	"os"
	"sync/atomic"
)

// mapSignal: no shared mapping here, so checks read the version.
func mapSignal(string, os.FileMode) (*atomic.Int64, func() error, error) {
	return nil, nil, errors.New("store: no scenarios signal on this platform")
}
