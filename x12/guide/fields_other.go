//go:build !amd64

package guide

import "github.com/clearhouse/clearhouse/x12"

// scan reads seg's bytes into f (see scanBytes).
func (f *fields) scan(seg *x12.Segment, d x12.Delimiters) bool { return f.scanBytes(seg, d) }
