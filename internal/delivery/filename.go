package delivery

import (
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// outboundKinds are the kinds of outbound file a name may start with.
var outboundKinds = []string{"837D", "837P", "837I", "999", "TA1", "277CA", "835"}

// FileName is the name an outbound file is delivered under, made by
// Clearhouse alone: its kind and its execution id ("999-<id>.x12"). It
// never carries a name a tenant or a partner chose (a 999's execution is
// named after the inbound file it answers), so no upload can pick, and
// overwrite, the name of another file in a partner's folder.
func FileName(e store.Execution) string {
	kind := "file"
	for _, k := range outboundKinds {
		if strings.HasPrefix(e.SourceName, k+"-") {
			kind = k
			break
		}
	}
	return kind + "-" + safeID(e.ID) + ".x12"
}

// safeID keeps an execution id to the characters ids are made of.
func safeID(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
}
