// Package powercut reads the system calls of a process recorded by strace
// and tells what a power cut at any point of the recording would have left
// on disk: only what was fsynced survives (file bytes once the file is
// fsynced, names once their directory is fsynced). Tests use it to check
// that the server answers only after the records and the files they name
// are durable, and to rebuild the data directory as it would be after a
// power cut at a chosen point and reopen it.
//
// The recording must come from
//
//	strace -f -qq -yy -xx -s 1048576 -e signal=none -e trace=TraceSyscalls -o FILE command…
//
// (-yy names each descriptor's file or socket, -xx writes every byte of
// strings and names in hex, so nothing needs unescaping).
package powercut

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TraceSyscalls are the system calls the model needs (strace's -e trace=).
const TraceSyscalls = "open,creat,openat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,fsync,fdatasync,write,pwrite64,ftruncate,close,read,sendto,sendmsg,lseek"

// StraceArgs are strace's arguments before the command for Parse.
func StraceArgs(output string) []string {
	return []string{"-f", "-qq", "-yy", "-xx", "-s", "1048576", "-e", "signal=none", "-e", "trace=" + TraceSyscalls, "-o", output}
}

// Call is one system call: its name, arguments as written by strace, and
// its result. Entry and Exit are the positions (line numbers) where strace
// saw it start and return; they are equal unless another thread's calls
// were written in between.
type Call struct {
	PID   int
	Name  string
	Args  []string
	Ret   string // "0", "7<\x2f…>", "-1 ENOENT (No such file or directory)"
	Entry int
	Exit  int
}

// OK reports whether the call succeeded.
func (c Call) OK() bool {
	return c.Ret != "" && !strings.HasPrefix(c.Ret, "-1") && !strings.HasPrefix(c.Ret, "?")
}

// RetInt is the call's numeric result (the part before any decoration).
func (c Call) RetInt() int64 {
	s := c.Ret
	if i := strings.IndexAny(s, "< "); i >= 0 {
		s = s[:i]
	}
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// Parse reads an strace recording. Calls come in the order they returned.
func Parse(r io.Reader) ([]Call, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	type pending struct {
		head  string
		entry int
	}
	open := map[int]pending{}
	var calls []Call
	for line := 0; sc.Scan(); line++ {
		text := sc.Text()
		sp := strings.IndexByte(text, ' ')
		if sp < 0 {
			continue
		}
		pid, err := strconv.Atoi(text[:sp])
		if err != nil {
			return nil, fmt.Errorf("powercut: line %d: no pid: %.80q", line+1, text)
		}
		rest := strings.TrimLeft(text[sp+1:], " ") // pids are padded
		switch {
		case strings.HasPrefix(rest, "+++") || strings.HasPrefix(rest, "---"):
			continue
		case strings.HasSuffix(rest, "<detached ...>"):
			delete(open, pid) // strace let the thread go mid-call (at exit)
			continue
		case strings.HasSuffix(rest, " <unfinished ...>"):
			open[pid] = pending{head: strings.TrimSuffix(rest, " <unfinished ...>"), entry: line}
			continue
		case strings.HasPrefix(rest, "<... "):
			end := strings.Index(rest, " resumed>")
			p, ok := open[pid]
			if end < 0 || !ok {
				continue // began before the recording
			}
			delete(open, pid)
			c, err := parseCall(p.head + rest[end+len(" resumed>"):])
			if err != nil {
				return nil, fmt.Errorf("powercut: line %d: %w", line+1, err)
			}
			c.PID, c.Entry, c.Exit = pid, p.entry, line
			calls = append(calls, c)
		default:
			c, err := parseCall(rest)
			if err != nil {
				return nil, fmt.Errorf("powercut: line %d: %w", line+1, err)
			}
			c.PID, c.Entry, c.Exit = pid, line, line
			calls = append(calls, c)
		}
	}
	return calls, sc.Err()
}

// parseCall splits `name(arg, arg…) = ret`.
func parseCall(s string) (Call, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return Call{}, fmt.Errorf("no call in %.80q", s)
	}
	c := Call{Name: s[:open]}
	args, rest, err := splitArgs(s[open+1:])
	if err != nil {
		return Call{}, fmt.Errorf("%s: %w", c.Name, err)
	}
	c.Args = args
	rest = strings.TrimLeft(rest, " ")
	if after, ok := strings.CutPrefix(rest, "= "); ok {
		c.Ret = after
	}
	return c, nil
}

// splitArgs splits the arguments up to the closing parenthesis at depth 0
// and returns what follows it.
func splitArgs(s string) (args []string, rest string, err error) {
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case '(', '[', '{', '<':
			depth++
		case ']', '}':
			depth--
		case '>':
			if i == 0 || s[i-1] != '-' { // not the arrow of a socket's addresses
				depth--
			}
		case ')':
			if depth == 0 {
				if a := strings.TrimSpace(s[start:i]); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, s[i+1:], nil
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return nil, "", fmt.Errorf("unterminated arguments in %.80q", s)
}

// String decodes a quoted string argument. truncated is true when strace
// cut it short (-s too small).
func String(arg string) (b []byte, truncated bool) {
	if !strings.HasPrefix(arg, `"`) {
		return nil, false
	}
	end := strings.LastIndexByte(arg, '"')
	if end <= 0 {
		return nil, true
	}
	return unescape(arg[1:end]), strings.HasSuffix(arg, "...")
}

// unescape decodes strace's escapes (\xNN from -xx, and the C escapes).
func unescape(s string) []byte {
	out := make([]byte, 0, len(s)/4)
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			out = append(out, s[i])
			continue
		}
		i++
		switch s[i] {
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					out = append(out, byte(v))
					i += 2
					continue
				}
			}
			out = append(out, 'x')
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		default:
			if s[i] >= '0' && s[i] <= '7' {
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 8)
				out = append(out, byte(v))
				i = j - 1
				continue
			}
			out = append(out, s[i])
		}
	}
	return out
}

// FD splits a descriptor argument such as `7<\x2f\x74…>` (or AT_FDCWD<…>)
// into its number (-100 for AT_FDCWD) and what it names: a path, or a
// socket such as `TCP:[127.0.0.1:8080->127.0.0.1:5432]`.
func FD(arg string) (fd int, name string) {
	arg = strings.TrimSuffix(arg, "(deleted)")
	lt := strings.IndexByte(arg, '<')
	num := arg
	if lt >= 0 {
		num = arg[:lt]
		if strings.HasSuffix(arg, ">") {
			name = string(unescape(arg[lt+1 : len(arg)-1]))
		}
	}
	if num == "AT_FDCWD" {
		return -100, name
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return -1, name
	}
	return n, name
}
