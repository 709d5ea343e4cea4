package main

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestConfigurationPage: docs/configuration.md is what 'clearhouse docs
// flags' prints, every command is on it, and every flag of every
// documented command has its row: a new flag, or a new command, fails here
// until the page is generated again.
func TestConfigurationPage(t *testing.T) {
	page, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	generated, err := configurationPage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if generated != string(page) {
		t.Error("docs/configuration.md is stale: run go run ./cmd/clearhouse docs flags > docs/configuration.md")
	}
	for name := range commands() {
		if !slices.ContainsFunc(documentedCommands, func(path []string) bool { return path[0] == name }) {
			t.Errorf("command %q is not in documentedCommands (docs/configuration.md)", name)
		}
	}
	// Each documented command's flags, as its --help lists them, have a
	// row in its section of the committed page.
	for _, path := range documentedCommands {
		section := sectionOf(string(page), "## clearhouse "+strings.Join(path, " "))
		if section == "" {
			t.Errorf("no section for clearhouse %s", strings.Join(path, " "))
			continue
		}
		for _, f := range flagsOf(t, path) {
			if !strings.Contains(section, "| `"+dashes(f)+"` |") {
				t.Errorf("clearhouse %s: flag %s is missing from docs/configuration.md", strings.Join(path, " "), dashes(f))
			}
		}
	}
}

// flagsOf lists the flags clearhouse path defines, as its help names them.
func flagsOf(t *testing.T, path []string) []string {
	_, _, help := runCmd(append(append([]string{}, path...), "--help")...)
	var names []string
	for _, line := range strings.Split(help, "\n") {
		if m := helpOption.FindStringSubmatch(line); m != nil {
			names = append(names, strings.TrimLeft(m[1], "-"))
		}
	}
	return names
}

func sectionOf(page, heading string) string {
	_, rest, ok := strings.Cut(page, heading+"\n")
	if !ok {
		return ""
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// TestPackageMap: every package under internal/ and x12/ is in the package
// map of docs/architecture/README.md.
func TestPackageMap(t *testing.T) {
	page, err := os.ReadFile("../../docs/architecture/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range goList(t, "./internal/...", "./x12/...") {
		if !strings.Contains(string(page), "| `"+pkg+"` |") {
			t.Errorf("package %s is missing from the package map in docs/architecture/README.md", pkg)
		}
	}
}

// TestDependencyRule: x12/ imports nothing from internal/, only the
// composition root (internal/app, and the binary) and tests import the API
// and the console (so the two stand beside each other: neither imports
// the other; what they share is in internal/httpkit and
// internal/eligibility/summary), and only the composition root (internal/app,
// internal/services), the mock's own packages and tests import the mock
// payer: domain packages get what they need of it as values and
// interfaces of their own.
func TestDependencyRule(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../internal/...", "../../x12/...").Output()
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/clearhouse/clearhouse/"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], mod), fields[1:]
		for _, imp := range imports {
			imp = strings.TrimPrefix(imp, mod)
			switch {
			case strings.HasPrefix(pkg, "x12") && strings.HasPrefix(imp, "internal/"):
				t.Errorf("%s imports %s: x12/ must stand alone", pkg, imp)
			case (imp == "internal/api" || imp == "internal/web") && pkg != "internal/app" && !strings.HasSuffix(pkg, "test") && pkg != "internal/chaos":
				t.Errorf("%s imports %s: only the composition root (internal/app) wires the API and the console", pkg, imp)
			case imp == "internal/mockpayer" && !mockImporter(pkg):
				t.Errorf("%s imports %s: only the composition root (internal/app, internal/services) wires the mock payer", pkg, imp)
			}
		}
	}
}

// mockImporter reports whether pkg may import internal/mockpayer: the
// composition root, the mock's own packages and test-support packages.
func mockImporter(pkg string) bool {
	return pkg == "internal/app" || pkg == "internal/services" || strings.HasPrefix(pkg, "internal/mockpayer/") ||
		strings.HasSuffix(pkg, "test") || pkg == "internal/chaos"
}

// goList lists the packages matching patterns, relative to the module.
func goList(t *testing.T, patterns ...string) []string {
	t.Helper()
	args := []string{"list"}
	for _, p := range patterns {
		args = append(args, "../../"+strings.TrimPrefix(p, "./"))
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		pkgs = append(pkgs, strings.TrimPrefix(p, "github.com/clearhouse/clearhouse/"))
	}
	return pkgs
}

// markdownLink is a Markdown link's target.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinks: every relative link of README.md and docs/ points at a
// file of the repository.
func TestDocsLinks(t *testing.T) {
	root := "../.."
	pages := []string{filepath.Join(root, "README.md")}
	filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".md") {
			pages = append(pages, path)
		}
		return nil
	})
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := regexp.MustCompile("(?s)```.*?```").ReplaceAllString(string(raw), "")
		for _, m := range markdownLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "#") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(page), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", strings.TrimPrefix(page, root+"/"), m[1])
			}
		}
	}
}
