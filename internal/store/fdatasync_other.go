//go:build !linux

package store

import "os"

// fdatasync is f.Sync where fdatasync(2) is not available.
func fdatasync(f *os.File) error { return f.Sync() }
