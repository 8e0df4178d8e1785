package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns its exit status and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCLIUsageErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"no command", nil, 2, ""},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"moves without variant", []string{"moves"}, 2, "usage: bottlepost moves"},
		{"unknown variant", []string{"moves", "checkers"}, 2, `unknown variant "checkers"`},
		{"perft without depth", []string{"perft", "chess"}, 2, "usage: bottlepost perft"},
		{"perft bad depth", []string{"perft", "chess", "x"}, 2, `depth "x" is not a whole number`},
		{"board bad flag", []string{"board", "chess", "--colour", "red"}, 2, "flag provided but not defined"},
		{"variants takes no args", []string{"variants", "x"}, 2, "usage: bottlepost variants"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.inStderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.inStderr)
			}
		})
	}
}

func TestCLIVariantsListsEveryID(t *testing.T) {
	code, out, _ := runCLI("variants")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := []string{"chess", "seachess", "submachine", "baltic", "battle", "transporter"}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, id := range want {
		if f := strings.Fields(lines[i]); len(f) < 2 || f[0] != id {
			t.Errorf("line %d = %q, want id %s and a name", i+1, lines[i], id)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	code, out, stderr := runCLI("help")
	if code != 0 || !strings.Contains(out, "perft VARIANT DEPTH") {
		t.Errorf("help: exit %d, %q %q", code, out, stderr)
	}
}

// TestUsageListsEveryCommand: "bottlepost help" and the package doc name
// every registered command.
func TestUsageListsEveryCommand(t *testing.T) {
	code, stdout, _ := runCLI("help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	doc, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for name := range commands {
		if !strings.Contains(stdout, "\n  "+name) {
			t.Errorf("help does not list %s:\n%s", name, stdout)
		}
		if !strings.Contains(string(doc), "//\tbottlepost "+name+" ") {
			t.Errorf("the package doc (main.go) does not list %s", name)
		}
	}
}
