package reports

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// corpusFiles lists the shared corpus's files of a directory; without the
// corpus (a plain clone) the test skips, under CI it fails.
func corpusFiles(t testing.TB, dir string) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "corpus", dir, "*"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpus %s not found beside the repository", dir)
		}
		t.Skipf("corpus %s not found beside the repository", dir)
	}
	return files
}

// Every public 835 and 277 of the corpus converts to JSON of the report's
// shape, with one transaction per transaction set.
func TestCorpusConverts(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		convert func(io.Reader, io.Writer, Meta) error
	}{{"835", Convert835}, {"277", Convert277}, {"277CA", Convert277}} {
		for _, f := range corpusFiles(t, tc.dir) {
			t.Run(tc.dir+"/"+filepath.Base(f), func(t *testing.T) {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(bytes.TrimLeft(src, "\xef\xbb\xbf \r\n"), []byte("ISA")) {
					t.Skip("a bare ST..SE fragment: stored transactions always keep their ISA and GS")
				}
				var out bytes.Buffer
				if err := tc.convert(bytes.NewReader(src), &out, Meta{}); err != nil {
					t.Fatalf("convert: %v", err)
				}
				var doc struct {
					Transactions []map[string]any `json:"transactions"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Fatalf("not JSON: %v\n%s", err, out.String())
				}
				sets := bytes.Count(src, []byte("\nST"+string(src[3]))) + bytes.Count(src, []byte("~ST"+string(src[3])))
				if sets > 0 && len(doc.Transactions) != sets {
					t.Errorf("%d transactions for %d sets", len(doc.Transactions), sets)
				}
			})
		}
	}
}

// FuzzConvert: no input makes a converter panic, and whatever it writes
// without an error is valid JSON.
func FuzzConvert(f *testing.F) {
	for _, name := range []string{"testdata/contract-example.835.x12", "testdata/contract-example1.277.x12"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, convert := range []func(io.Reader, io.Writer, Meta) error{Convert835, Convert277} {
			var out bytes.Buffer
			if err := convert(bytes.NewReader(src), &out, Meta{}); err == nil && !json.Valid(out.Bytes()) {
				t.Fatalf("invalid JSON without an error:\n%s", out.String())
			}
		}
	})
}
