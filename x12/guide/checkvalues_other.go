//go:build !amd64

package guide

// checkSegment is not sure of any segment elsewhere than on amd64:
// elementsOKGo checks every one (see checkvalues_amd64.go).
func checkSegment(f *fields, q *qseg, csep byte) uint8 { return segmentUnsure }
