package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const cliISA = "ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*000000001*0*T*:~\n"

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.x12")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestX12CLI(t *testing.T) {
	clean := writeTemp(t, cliISA+"GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~\nST*270*0001*005010X279A1~\nBHT*0022*13*\"q\"*20240101*1200~\nSE*3*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	broken := writeTemp(t, cliISA+"GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~\nST*270*0001*005010X279A1~\nSE*9*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	bare := writeTemp(t, "ST*270*0001*005010X279A1~\nSE*2*0001~\n")
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"validate clean", []string{"x12", "validate", "--no-guide", clean}, 0, ""},
		{"validate findings", []string{"x12", "validate", "--no-guide", broken}, 1, "se.segment-count-mismatch"},
		{"validate json", []string{"x12", "validate", "--no-guide", "--json", broken}, 1, `"ik5":"4"`},
		{"validate unreadable", []string{"x12", "validate", "--no-guide", filepath.Join(t.TempDir(), "missing")}, 2, ""},
		{"validate bare without delimiters", []string{"x12", "validate", "--no-guide", bare}, 1, "input.no-isa"},
		{"validate bare with delimiters", []string{"x12", "validate", "--no-guide", "--delimiters", `*^:~`, bare}, 0, ""},
		{"invalid delimiters", []string{"x12", "validate", "--no-guide", "--delimiters", `*^:*`, bare}, 2, ""},
		{"ack", []string{"x12", "ack", "--no-guide", broken}, 0, "IK5*R*4~"},
		{"parse", []string{"x12", "parse", clean}, 0, `{"id":"BHT","offset":`},
		{"help", []string{"x12", "validate", "--help"}, 0, ""},
		{"unknown tool", []string{"x12", "frobnicate"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), tt.contains) {
				t.Errorf("stdout lacks %q:\n%s", tt.contains, out.String())
			}
		})
	}
}

func TestX12ParseEmitsJSONLines(t *testing.T) {
	in := writeTemp(t, cliISA+"NM1*IL*1*O\"BRIEN\\*\x01~\n")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"x12", "parse", in}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d lines", len(lines))
	}
	var seg struct {
		ID       string   `json:"id"`
		Offset   int64    `json:"offset"`
		Elements []string `json:"elements"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &seg); err != nil {
		t.Fatalf("%v: %s", err, lines[1])
	}
	if seg.ID != "NM1" || seg.Offset != int64(len(cliISA)) || seg.Elements[2] != "O\"BRIEN\\" || seg.Elements[3] != "\x01" {
		t.Errorf("got %+v", seg)
	}
}
