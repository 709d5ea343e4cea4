package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// TestX12ValidateOutputBounded: a file with a finding in every segment
// prints --max-findings lines and one summary line, not one line each.
func TestX12ValidateOutputBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(cliISA + "GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~\nST*270*0001*005010X279A1~\n")
	const bad = 2500
	for range bad {
		b.WriteString("REF*X*~\n") // a trailing separator: one error each
	}
	b.WriteString("SE*2502*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	in := writeTemp(t, b.String())
	tests := []struct {
		name    string
		args    []string
		lines   int
		summary string
	}{
		{"default limit", nil, 1000, "1500 more findings not shown (--max-findings 1000): 0 fatal, 2500 errors"},
		{"small limit", []string{"--max-findings", "10"}, 10, "2490 more findings not shown (--max-findings 10)"},
		{"json", []string{"--json", "--max-findings", "3"}, 3, `{"summary":true,"notShown":2497,"fatal":0,"errors":2500,"warnings":0,"notes":0}`},
		{"no limit", []string{"--max-findings", "0"}, bad, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			args := append(append([]string{"x12", "validate", "--no-guide"}, tt.args...), in)
			if code := run(context.Background(), args, &out, &errOut); code != 1 {
				t.Fatalf("exit %d, want 1: %s", code, errOut.String())
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			findings := strings.Count(out.String(), "segment.trailing-separators")
			if findings != tt.lines {
				t.Errorf("%d findings printed, want %d", findings, tt.lines)
			}
			last := lines[len(lines)-1]
			if tt.summary == "" {
				if len(lines) != tt.lines {
					t.Errorf("%d lines, want %d (no summary)", len(lines), tt.lines)
				}
				return
			}
			if len(lines) != tt.lines+1 || !strings.Contains(last, tt.summary) {
				t.Errorf("%d lines, last %q; want %d findings then a summary with %q", len(lines), last, tt.lines, tt.summary)
			}
		})
	}
}

// TestX12ValidateExitStatus: errors exit 1; warnings alone exit 0 unless
// --fail-on warning asks otherwise.
func TestX12ValidateExitStatus(t *testing.T) {
	warnOnly := writeTemp(t, cliISA+"GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~\nST*270*0001*005010X279~\nBHT*0022*13*\"q\"*20240101*1200~\nSE*3*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	withError := writeTemp(t, cliISA+"GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~\nST*270*0001*005010X279A1~\nSE*9*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	var claims bytes.Buffer
	if _, err := x12gen.Generate(&claims, x12gen.Options{Kind: x12gen.Claims837P, Items: 300, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	// Place of service 02 (telehealth, since 2017) on every claim.
	telehealth := strings.ReplaceAll(claims.String(), "*11:B:1*", "*02:B:1*")
	if telehealth == claims.String() {
		t.Fatal("the generator's CLM05 changed; update the test")
	}
	pos02 := writeTemp(t, telehealth)
	tests := []struct {
		name   string
		args   []string
		code   int
		output string
	}{
		{"warnings alone pass", []string{"--no-guide", warnOnly}, 0, "warning st.implementation-reference-mismatch"},
		{"fail on warning", []string{"--no-guide", "--fail-on", "warning", warnOnly}, 1, "warning"},
		{"errors fail", []string{"--no-guide", withError}, 1, "error se.segment-count-mismatch"},
		{"errors fail with fail-on warning", []string{"--no-guide", "--fail-on", "warning", withError}, 1, "error"},
		{"837P with POS 02 is clean", []string{"--fail-on", "warning", pos02}, 0, ""},
		{"bad fail-on", []string{"--fail-on", "info", warnOnly}, 2, ""},
		{"negative max-findings", []string{"--max-findings", "-1", warnOnly}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"x12", "validate"}, tt.args...), &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %.2000s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			if tt.output == "" && tt.code == 0 && out.Len() > 0 {
				t.Errorf("want no findings, got:\n%.2000s", out.String())
			}
			if !strings.Contains(out.String(), tt.output) {
				t.Errorf("stdout lacks %q:\n%.2000s", tt.output, out.String())
			}
		})
	}
}
