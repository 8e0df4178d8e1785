package main

import (
	"bytes"
	"strings"
	"testing"
)

// balticRun runs the CLI in-process for the baltic tests.
func balticRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestBalticMovesFromTheStart(t *testing.T) {
	code, out, stderr := balticRun("moves", "baltic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := "a1-a2 b1-a3 b1-c3 c1-b2 d1-c2 d1-e2 d2-c3 d2-d3 d2-e3 e1-e2 e1-f2 f1-e2 f1-g2 g1-e2 g1-f3 g1-h3 h1-h2"
	if got := strings.Join(strings.Fields(out), " "); got != want {
		t.Errorf("moves:\n%s\nwant\n%s", got, want)
	}
}

func TestBalticMovesTakeTheRecordForm(t *testing.T) {
	// The sc2022 sample game up to White's first point, as recorded ("+1").
	code, out, stderr := balticRun("moves", "baltic", "--rules", "sc2022", "--seed", "5",
		"b1-c3", "e8-d6", "c3-b5", "g8-f6", "b5xd6", "c8-d7", "d6-f7", "f6-g4", "f7xh8+1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"g4-e3", "g4-h2", "d7-c6"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("Black's moves lack %s:\n%s", want, out)
		}
	}
	// A wrong point count is refused with the ruling.
	code, _, stderr = balticRun("moves", "baltic", "--rules", "sc2022", "--seed", "5",
		"b1-c3", "e8-d6", "c3-b5", "g8-f6", "b5xd6", "c8-d7", "d6-f7", "f6-g4", "f7xh8+2")
	if code != 1 || !strings.Contains(stderr, "move 5. illegal move") || !strings.Contains(stderr, "B6") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestBalticBoardAsBlack(t *testing.T) {
	code, out, stderr := balticRun("board", "baltic", "--as", "black", "--fen", "l6l/8/8/3s24/3G24/8/8/L6L first=black")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"as Black sees it",
		"    h  g  f  e  d  c  b  a",
		"  4 .  .  .  .  G2 .  .  .  4",
		"  5 .  .  .  .  s2 .  .  .  5",
		"  8 l  .  .  .  .  .  .  l  8",
		"Black to move.",
		"Black moved first (B1).",
		"A digit is the stack's height",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("board lacks %q:\n%s", want, out)
		}
	}
}

func TestBalticBoardSC2022ShowsRoundAndSeed(t *testing.T) {
	code, out, stderr := balticRun("board", "baltic", "--rules", "sc2022", "--seed", "42", "--as", "white", "a1-a2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"  1 . G G L C L S C 1", "  2 S . . . . . . . 2", "round 1 of 30", "seed 42"} {
		if !strings.Contains(out, want) {
			t.Errorf("board lacks %q:\n%s", want, out)
		}
	}
}

func TestBalticPerft(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "baltic", "3"}, "5542"},
		{[]string{"perft", "baltic", "3", "--rules", "sc2022", "--seed", "42"}, "5994"},
		{[]string{"perft", "baltic", "2", "--fen", "first=black"}, "289"},
	} {
		code, out, stderr := balticRun(c.args...)
		if code != 0 || strings.TrimSpace(out) != c.want {
			t.Errorf("%v: exit %d, %q %q; want %s", c.args, code, out, stderr, c.want)
		}
	}
	code, out, _ := balticRun("perft", "baltic", "1", "--divide")
	if code != 0 || !strings.Contains(out, "d2-d3: 1\n") || !strings.HasSuffix(out, "\n17\n") {
		t.Errorf("divide: exit %d\n%s", code, out)
	}
}

func TestBalticErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"moves", "baltic", "--rules", "fide"}, 2, "unknown ruleset"},
		{[]string{"moves", "baltic", "--fen", "first=red"}, 2, "B1"},
		{[]string{"moves", "baltic", "a1-a3"}, 1, "B2"},
		{[]string{"moves", "baltic", "d1-d2"}, 1, "B3.2"},
		{[]string{"board", "baltic", "--fen", "8/8/8/8/8/8/8/G1G5"}, 2, "height"},
	} {
		code, _, stderr := balticRun(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
