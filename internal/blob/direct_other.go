//go:build !linux

package blob

import (
	"errors"
	"os"
)

// errNoDirect is setDirect's error where O_DIRECT does not exist.
var errNoDirect = errors.New("blob: O_DIRECT not supported")

// setDirect: no O_DIRECT here; blobs go through the page cache.
func setDirect(_ *os.File, on bool) error {
	if on {
		return errNoDirect
	}
	return nil
}

// newDirectBuf: never needed where setDirect fails.
func newDirectBuf() ([]byte, error) { return nil, errNoDirect }

func freeDirectBuf([]byte) {}
