// Package inboundperf holds the end-to-end tests and benchmarks of inbound
// files through a real clearhouse process: a generated file is uploaded
// over HTTP (POST /2023-08-01/files/inbound) to `clearhouse serve` on a
// fresh SQLite data directory, with the fragments of the seeded 835
// setting, and followed until its execution is processed. They measure
// what only a separate process shows: its peak resident memory (the
// kernel's high-water mark of the child, from wait4's rusage) and MB/s
// from upload to processed.
//
// TestHugeSetMemory asserts that one huge transaction set (an 835 in one
// ST/SE; an 837P whose claims all hang under one 2000A) is processed in
// bounded memory; BenchmarkInbound prints MB/s beside the split floor (a
// loop that only splits the same file into segments) from the same run.
// The package has no code of its own: everything is in its _test files.
package inboundperf
