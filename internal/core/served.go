package core

import (
	"mime"
	"strings"
)

// servedTypes are the only media types a stored document is ever served
// as. An upload's name chooses its recorded type (a .xml file is recorded
// as application/xml), but serving that type would let a browser render
// the upload, script and all, on the console's origin; anything not listed
// here is served as application/octet-stream.
var servedTypes = map[string]bool{
	"application/edi-x12":      true,
	"application/json":         true,
	"text/csv":                 true,
	"application/pdf":          true,
	"application/octet-stream": true,
}

// ServedContentType maps a document's recorded media type to the one it is
// served as: the same when it is in the fixed list (X12, JSON, CSV, PDF,
// octet-stream), else application/octet-stream. Parameters are dropped.
func ServedContentType(recorded string) string {
	mt, _, err := mime.ParseMediaType(recorded)
	if err == nil && servedTypes[strings.ToLower(mt)] {
		return strings.ToLower(mt)
	}
	return "application/octet-stream"
}

// ServedExtension is the file name extension a download of a served type
// is saved with.
func ServedExtension(served string) string {
	switch served {
	case "application/edi-x12":
		return ".x12"
	case "application/json":
		return ".json"
	case "text/csv":
		return ".csv"
	case "application/pdf":
		return ".pdf"
	}
	return ".bin"
}
