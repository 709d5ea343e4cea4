// Command x12gen writes a large, valid, deterministic X12 file:
//
//	go run ./x12/x12gen/cmd/x12gen -kind 837P -mb 400 -o /tmp/big.x12
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/clearhouse/clearhouse/x12/x12gen"
)

func main() {
	kind := flag.String("kind", "837P", "transaction: 837P, 835 or 270")
	perSet := flag.Int("per-set", 0, "claims or inquiries per transaction set (0: the kind's default; 1000000 puts a million claims in one set)")
	mb := flag.Float64("mb", 40, "approximate size in MB (10^6 bytes)")
	items := flag.Int("items", 0, "number of claims or inquiries instead of -mb")
	seed := flag.Uint64("seed", 1, "seed; the same seed gives the same bytes")
	lines := flag.Bool("line-breaks", false, "line break after each segment")
	out := flag.String("o", "-", "output file (- for standard output)")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "x12gen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	opts := x12gen.Options{Kind: x12gen.Kind(*kind), Seed: *seed, LineBreaks: *lines, Items: *items, PerSet: *perSet}
	if *items == 0 {
		opts.TargetBytes = int64(*mb * 1e6)
	}
	st, err := x12gen.Generate(bw, opts)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "x12gen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "x12gen: %d bytes, %d segments, %d items in %d sets, %d interchanges\n",
		st.Bytes, st.Segments, st.Items, st.Sets, st.Interchanges)
}
