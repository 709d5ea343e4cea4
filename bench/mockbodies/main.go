// Command mockbodies prints the JSON bodies of published mock eligibility
// requests, one per line, for the load benchmark (bench/load.sh) to replay.
//
//	go run ./bench/mockbodies uhc-subscriber aetna-dependent
//
// With no names it prints every mock request.
package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
)

func main() {
	requests := mockpayer.Requests()
	names := os.Args[1:]
	for _, name := range names {
		if !slices.ContainsFunc(requests, func(m mockpayer.MockRequest) bool { return m.Name == name }) {
			fmt.Fprintf(os.Stderr, "mockbodies: no mock request named %q\n", name)
			os.Exit(2)
		}
	}
	for _, m := range requests {
		if len(names) == 0 || slices.Contains(names, m.Name) {
			fmt.Printf("%s\n", m.RequestJSON())
		}
	}
}
