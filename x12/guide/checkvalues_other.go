//go:build !amd64

package guide

// checkValues is not sure of any segment elsewhere than on amd64: valuesOK
// checks every one (see checkvalues_amd64.go).
func checkValues(buf []byte, span *[maxFields + 1 + 16]uint32, n int, qs *qcheck, csep byte, special, rep uint64) (uint64, bool) {
	return 0, false
}
