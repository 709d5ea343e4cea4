package main

import (
	"context"
	"os"
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
	for name := range commands {
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
