// Package testenv finds what tests need outside the package under test: the
// repository root, the shared X12 corpus and a PostgreSQL server. Each finder
// follows one rule: when CI=true a missing dependency fails the test, because
// CI is meant to exercise it; elsewhere the test is skipped with a one-line
// reason.
package testenv

import (
	"context"
	"database/sql"
	neturl "net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver PostgresURL pings with
)

// InCI reports whether the tests run under CI (CI=true), where missing
// services and files are failures rather than skips.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing skips the test, or fails it under CI, with the given reason.
func Missing(t testing.TB, reason string) {
	t.Helper()
	if InCI() {
		t.Fatalf("required in CI: %s", reason)
	}
	t.Skip(reason)
}

// RepoRoot returns the directory holding go.mod, walking up from the
// package under test.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// CorpusDir returns the X12 corpus: $CLEARHOUSE_CORPUS when set, else the
// full corpus at ../shared/corpus beside the repository when present, else
// the copy vendored in x12/testdata/corpus, which withholds the files whose
// licence does not allow redistribution (its manifest.tsv still lists them;
// see CorpusHas).
func CorpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CLEARHOUSE_CORPUS")
	if dir == "" {
		root := RepoRoot(t)
		dir = filepath.Join(root, "..", "shared", "corpus")
		if _, err := os.Stat(filepath.Join(dir, "manifest.tsv")); err != nil {
			dir = filepath.Join(root, "x12", "testdata", "corpus")
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.tsv")); err != nil {
		Missing(t, "corpus not found at "+dir)
	}
	return dir
}

// CorpusHas reports whether the corpus in dir holds the file rel (a path
// of its manifest): the vendored copy withholds some.
func CorpusHas(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// PostgresURL returns a URL of a reachable PostgreSQL server: $CLEARHOUSE_TEST_POSTGRES
// or postgres://postgres@127.0.0.1:5432/test?sslmode=disable. The caller's
// driver must be registered as "pgx" for the reachability check.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("CLEARHOUSE_TEST_POSTGRES")
	if url == "" {
		url = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		Missing(t, "postgres "+redacted(url)+": "+err.Error())
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		Missing(t, "postgres not reachable at "+redacted(url)+": "+err.Error())
	}
	return url
}

// redacted hides a password in a database URL.
func redacted(raw string) string {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
