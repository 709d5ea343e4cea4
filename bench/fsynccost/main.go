// Command fsynccost measures what making a write durable costs on the disk
// under a directory: the floor under any answer that waits for its record
// to be on disk (an eligibility check's commit is one WAL write and one
// fsync). It writes to a scratch file in DIR (default: the current
// directory, so run it on the disk the data directory lives on) in the
// ways SQLite's WAL does, each ROUNDS times, and prints the p50, p90 and
// p99 of the sync alone:
//
//   - append: a write at the end of the file, then fsync (the WAL growing);
//   - overwrite: a write over existing bytes, then fsync (a WAL that has
//     started over after a checkpoint: the file's size does not change);
//   - overwrite+fdatasync: the same with fdatasync, which skips the
//     file's times (SQLite on Linux calls fsync);
//
// with writes of 4 KiB (one page) and 96 KiB (about one eligibility
// check's frames: a row of ~18 KB and the index, usage and audit pages it
// touches).
//
//	go run ./bench/fsynccost [-rounds 300] [DIR]
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 300, "syncs per way")
	flag.Parse()
	dir := "."
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	f, err := os.CreateTemp(dir, "fsynccost-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsynccost:", err)
		os.Exit(1)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("fsync cost in %s, %d rounds each, load average %s", dir, *rounds, load)
	for _, size := range []int{4 << 10, 96 << 10} {
		buf := make([]byte, size)
		// The overwrite ways rewrite bytes that are already on disk.
		if _, err := f.WriteAt(make([]byte, size*(*rounds)), 0); err != nil || f.Sync() != nil {
			fmt.Fprintln(os.Stderr, "fsynccost: preparing the file:", err)
			os.Exit(1)
		}
		for _, way := range []string{"append", "overwrite", "overwrite+fdatasync"} {
			end, _ := f.Seek(0, 2)
			times := make([]time.Duration, 0, *rounds)
			for i := range *rounds {
				off := end + int64(i*size)
				if way != "append" {
					off = int64(i * size)
				}
				if _, err := f.WriteAt(buf, off); err != nil {
					fmt.Fprintln(os.Stderr, "fsynccost:", err)
					os.Exit(1)
				}
				start := time.Now()
				if way == "overwrite+fdatasync" {
					err = syscall.Fdatasync(int(f.Fd()))
				} else {
					err = f.Sync()
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "fsynccost:", err)
					os.Exit(1)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			q := func(p int) string {
				return fmt.Sprintf("%.2f ms", float64(times[len(times)*p/100].Microseconds())/1000)
			}
			fmt.Printf("%3d KiB %-20s p50 %s  p90 %s  p99 %s\n", size>>10, way, q(50), q(90), q(99))
		}
		if err := f.Truncate(0); err != nil {
			fmt.Fprintln(os.Stderr, "fsynccost:", err)
			os.Exit(1)
		}
	}
}
