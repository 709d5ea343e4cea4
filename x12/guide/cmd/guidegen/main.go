// Command guidegen writes x12/guide/data from the community guide maps,
// which are not shipped with the repository: -src names the folder that
// holds them (docs/development.md, "Adding a guide"; package internal/gen).
//
// Usage (from x12/guide, or through go generate):
//
//	go run ./cmd/guidegen -src ../../../shared/reference/guide-sources -out data
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/clearhouse/clearhouse/x12/guide/internal/gen"
)

func main() {
	src := flag.String("src", "../../../shared/reference/guide-sources", "guide-sources folder")
	out := flag.String("out", "data", "output folder")
	flag.Parse()
	if err := gen.Run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "guidegen:", err)
		os.Exit(1)
	}
}
