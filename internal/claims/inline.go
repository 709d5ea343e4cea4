package claims

import (
	"bytes"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/blob"
)

// maxInlineDocument bounds a claim document kept in the database row
// rather than as a blob. Every claim fits (the example 837P is ~1 KB, its
// Guide JSON ~20 KB; the largest a 50-line claim, a few hundred KB); the
// bound keeps a pathological one from bloating the write-ahead log.
const maxInlineDocument = 1 << 20

// inlineable reports whether a claim's documents go into its transaction
// as rows (store.InlineBlobs) instead of blobs: the store must read them
// back, and each must be text both engines store (UTF-8, no NUL). Rows
// share the claim's one commit (and on SQLite the commit of every claim
// that arrives meanwhile); two blobs cost two file fsyncs and a directory
// fsync before it.
func inlineable(s blob.Store, docs ...[]byte) bool {
	if !blob.ReadsInline(s) {
		return false
	}
	for _, d := range docs {
		if len(d) > maxInlineDocument || !utf8.Valid(d) || bytes.IndexByte(d, 0) >= 0 {
			return false
		}
	}
	return true
}
