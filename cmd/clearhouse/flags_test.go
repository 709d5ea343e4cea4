package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvironmentPrefixes: serve's variables do not reach the commands that
// run servers of their own, and per-invocation flags read no variable.
func TestEnvironmentPrefixes(t *testing.T) {
	for _, c := range []struct{ command, flag, want string }{
		{"serve", "listen", "CLEARHOUSE_LISTEN"},
		{"keys create", "data", "CLEARHOUSE_DATA"},
		{"mockpayer serve", "listen", "CLEARHOUSE_MOCKPAYER_LISTEN"},
		{"mockpayer serve", "data", "CLEARHOUSE_MOCKPAYER_DATA"},
		{"webhooks listen", "listen", "CLEARHOUSE_WEBHOOKS_LISTEN"},
	} {
		if got := envName(c.command, c.flag); got != c.want {
			t.Errorf("%s --%s reads $%s, want $%s", c.command, c.flag, got, c.want)
		}
	}
	_, _, help := runCmd("partners", "apply", "--help")
	if strings.Contains(help, "CLEARHOUSE_F]") || !strings.Contains(help, "  -f (command line only)") {
		t.Errorf("partners apply --help shows -f as a variable:\n%s", help)
	}
	// An exported CLEARHOUSE_MODE must not choose the mode of a key.
	t.Setenv("CLEARHOUSE_MODE", "production")
	data := t.TempDir()
	if code, _, stderr := runCmd("keys", "create", "--create", "--data", data, "--account", "A"); code != 2 || !strings.Contains(stderr, "--mode is required") {
		t.Errorf("keys create without --mode, CLEARHOUSE_MODE set: exit %d %s", code, stderr)
	}
}

// TestCommandLineMistakes: each mistake is one line naming it plus a pointer
// to --help, with exit status 2; --help itself exits 0 and prints its
// usage once.
func TestCommandLineMistakes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--bogus"}, "flag provided but not defined: -bogus\nRun 'clearhouse serve --help' for its options\n"},
		{[]string{"keys", "create", "--create", "--data", t.TempDir(), "--account", "A", "--mode", "prod"}, `--mode "prod" is not a mode: use test or production`},
		{[]string{"sftp", "users", "create", "--create", "--data", t.TempDir(), "--account", "A", "--mode", "prod", "--username", "u"}, `--mode "prod" is not a mode`},
		{[]string{"partners", "export", "--data", t.TempDir(), "--account", "A", "--mode", "prod"}, `--mode "prod" is not a mode`},
		{[]string{"x12", "parse", "--bogus", "f"}, "flag provided but not defined: -bogus\nRun 'clearhouse x12 parse --help' for its options\n"},
	} {
		code, _, stderr := runCmd(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q", c.args, code, stderr, c.want)
		}
		if n := strings.Count(stderr, "\n"); n > 3 {
			t.Errorf("%v: %d lines of stderr, want the problem and a pointer to --help:\n%s", c.args, n, stderr)
		}
	}
	for _, args := range [][]string{{"mockpayer", "serve", "--help"}, {"sftp", "users", "--help"}, {"sftp", "--help"}, {"partners", "apply", "--help"}, {"webhooks", "listen", "--help"}} {
		code, _, stderr := runCmd(args...)
		if code != 0 {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
		if n := strings.Count(stderr, "Usage:"); n != 1 {
			t.Errorf("%v: usage printed %d times:\n%s", args, n, stderr)
		}
	}
}

// TestDataDirectoryWithoutDatabase: a command run against a folder with no
// database says so, with the absolute path, and creates nothing unless
// asked with --create.
func TestDataDirectoryWithoutDatabase(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "elsewhere")
	for _, args := range [][]string{
		{"keys", "list", "--data", dir},
		{"keys", "create", "--data", dir, "--account", "A", "--mode", "test"},
		{"partners", "export", "--data", dir, "--account", "A"},
		{"sftp", "users", "list", "--data", dir},
	} {
		code, _, stderr := runCmd(args...)
		if code != 1 || !strings.Contains(stderr, "no database in "+dir) || !strings.Contains(stderr, "--create") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused command created %s (%v)", dir, err)
	}
	runOK(t, "keys", "create", "--create", "--data", dir, "--account", "A", "--mode", "test")
	runOK(t, "keys", "list", "--data", dir)
}
