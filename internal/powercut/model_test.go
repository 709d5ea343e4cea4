package powercut

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A file written to a temporary name, fsynced, renamed into place and its
// directory fsynced: a cut at each point leaves what the model promises.
const recording = `7 openat(AT_FDCWD</>, "/r/d/.tmp-1", O_WRONLY|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 3</r/d/.tmp-1>
7 write(3</r/d/.tmp-1>, "\x61\x62\x63", 3) = 3
7 fsync(3</r/d/.tmp-1> <unfinished ...>
8 write(9<TCP:[127.0.0.1:80->127.0.0.1:5000]>, "\x48", 1) = 1
7 <... fsync resumed>) = 0
7 renameat(AT_FDCWD</>, "/r/d/.tmp-1", AT_FDCWD</>, "/r/d/f") = 0
7 fsync(4</r/d>) = 0
7 pwrite64(5</r/d/f>, "\x64\x65", 2, 3) = 2
7 mkdirat(AT_FDCWD</>, "/r/e", 0700) = 0
7 +++ exited with 0 +++
`

func TestModelCuts(t *testing.T) {
	calls, err := Parse(strings.NewReader(recording))
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 8 || calls[3].Name != "fsync" || calls[3].Entry != 2 || calls[3].Exit != 4 {
		t.Fatalf("parsed %+v", calls)
	}
	tests := []struct {
		cut      int
		disk     []string // what a cut before line cut leaves: path=content
		volatile []string
	}{
		{cut: 0, disk: []string{"d/"}},
		{cut: 2, disk: []string{"d/"}, volatile: []string{"d/.tmp-1 (name not durable)"}},
		// The fsync started at line 2 and returned at line 4.
		{cut: 4, disk: []string{"d/"}, volatile: []string{"d/.tmp-1 (name not durable)"}},
		{cut: 5, disk: []string{"d/"}, volatile: []string{"d/.tmp-1 (name not durable)"}},
		{cut: 6, disk: []string{"d/"}, volatile: []string{"d/f (name not durable)"}},
		{cut: 7, disk: []string{"d/", "d/f=abc"}},
		{cut: 8, disk: []string{"d/", "d/f=abc"}, volatile: []string{"d/f (3 of 5 bytes durable)"}},
		{cut: 9, disk: []string{"d/", "d/f=abc"}, volatile: []string{"d/f (3 of 5 bytes durable)", "e (name not durable)"}},
	}
	for _, tt := range tests {
		m := NewModel("/r", calls, map[string][]byte{"d/": nil})
		if err := m.Replay(tt.cut); err != nil {
			t.Fatal(err)
		}
		if got := m.Volatile(func(string) bool { return true }); !slices.Equal(got, tt.volatile) {
			t.Errorf("cut %d: volatile %q, want %q", tt.cut, got, tt.volatile)
		}
		dir := filepath.Join(t.TempDir(), "disk")
		if err := m.Materialize(dir, nil); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, dir); !slices.Equal(got, tt.disk) {
			t.Errorf("cut %d: disk %q, want %q", tt.cut, got, tt.disk)
		}
	}
}

func readTree(t *testing.T, dir string) []string {
	snap, err := Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for name, b := range snap {
		if !strings.HasSuffix(name, "/") {
			name += "=" + string(b)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func TestParseDecodes(t *testing.T) {
	calls, err := Parse(strings.NewReader("12  write(14<TCP:[127.0.0.1:8080->127.0.0.1:5432]>, \"\\x63\\x6f\\x6d\\x6d\\x69\\x74\"..., 6) = 6\n" +
		"12 close(9<\\x2f\\x74\\x6d\\x70\\x2f\\x61>(deleted)) = 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	fd, name := FD(calls[0].Args[0])
	data, truncated := String(calls[0].Args[1])
	if fd != 14 || name != "TCP:[127.0.0.1:8080->127.0.0.1:5432]" || string(data) != "commit" || !truncated || calls[0].RetInt() != 6 {
		t.Errorf("write: fd %d name %q data %q truncated %v ret %d", fd, name, data, truncated, calls[0].RetInt())
	}
	if fd, name := FD(calls[1].Args[0]); fd != 9 || name != "/tmp/a" {
		t.Errorf("close: fd %d name %q", fd, name)
	}
}

// Two fsyncs of one file overlap and the one that began first ends last:
// what the later one made durable stays durable (the store fsyncs its WAL
// from several goroutines at once).
const overlapping = `7 openat(AT_FDCWD</>, "/r/w", O_RDWR|O_CREAT|O_CLOEXEC, 0600) = 3</r/w>
7 fsync(4</r>) = 0
7 pwrite64(3</r/w>, "\x61", 1, 0) = 1
7 fsync(3</r/w> <unfinished ...>
8 pwrite64(3</r/w>, "\x62", 1, 1) = 1
8 fsync(5</r/w>) = 0
7 <... fsync resumed>) = 0
7 +++ exited with 0 +++
`

func TestModelOverlappingFsyncs(t *testing.T) {
	calls, err := Parse(strings.NewReader(overlapping))
	if err != nil {
		t.Fatal(err)
	}
	// Line 5's fsync began after both writes and ends first; line 3's
	// began after the first write only and ends at line 6.
	for cut, want := range map[int]string{5: "w=", 6: "w=ab", 7: "w=ab"} {
		m := NewModel("/r", calls, map[string][]byte{})
		if err := m.Replay(cut); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), "disk")
		if err := m.Materialize(dir, nil); err != nil {
			t.Fatal(err)
		}
		if got := readTree(t, dir); !slices.Equal(got, []string{want}) {
			t.Errorf("cut %d: disk %q, want %q", cut, got, want)
		}
	}
}
