package main

import (
	"bytes"
	"strings"
	"testing"
)

func transporterRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestTransporterMovesFromTheStart(t *testing.T) {
	code, out, errs := transporterRun("moves", "transporter")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Fields(out)
	if len(lines) != 36 || lines[0] != "Dc9-a7" || lines[35] != "Sg8-h7" {
		t.Errorf("Black's 36 first moves (T1.2), got %d: %v", len(lines), lines)
	}
	for _, want := range []string{"Fb9-a8@a3", "Fb9-a8@j8", "Ig6-a6", "Fe8-c6"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
}

func TestTransporterMovesTakeRecordAndShortForms(t *testing.T) {
	// Black's Fighter goes to j3; White's b2-a3 then has one free
	// destination, so "Fb2-a3" is enough (T7), and the record form with a
	// check mark is read too.
	code, out, errs := transporterRun("moves", "transporter", "Fi9-j8@j3", "Fb2-a3", "Ff8-g7", "Fe3-d4", "Cf10xf3+")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if got := strings.Fields(out); strings.Join(got, " ") != "Be2xf3 Bf2-e3 Mg2xf3 Sg3xf3" {
		t.Errorf("answers to the check: %v", got)
	}
}

func TestTransporterAmbiguousTransportRefused(t *testing.T) {
	code, _, errs := transporterRun("moves", "transporter", "Fb9-a8")
	if code != 1 || !strings.Contains(errs, "ambiguous") || !strings.Contains(errs, "Fb9-a8@a3 or Fb9-a8@j8") {
		t.Errorf("exit %d, stderr %q: want the ambiguity listing both", code, errs)
	}
	code, _, errs = transporterRun("moves", "transporter", "Ig6-g5")
	if code != 1 || !strings.Contains(errs, "only move along its own rank (T2)") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestTransporterBoardAsBlack(t *testing.T) {
	code, out, errs := transporterRun("board", "transporter", "--as", "black", "Fb9-a8@j8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "Transporter Chess, as Black sees it") ||
		strings.TrimSpace(lines[2]) != "j i h g f e d c b a" ||
		strings.TrimSpace(lines[3]) != "1       R A C R       1" ||
		strings.TrimSpace(lines[5]) != "3 o . F S F F S F . o 3" ||
		strings.TrimSpace(lines[10]) != "8 f . f s f f s f . o 8" {
		t.Errorf("Black's view:\n%s", out)
	}
	if !strings.Contains(out, "White to move.") || !strings.Contains(out, "o transporter square (T4)") {
		t.Errorf("status or legend missing:\n%s", out)
	}
}

func TestTransporterPerft(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "transporter", "1"}, "36\n"},
		{[]string{"perft", "transporter", "2"}, "1288\n"},
		{[]string{"perft", "transporter", "1", "Fb9-a8@j8"}, "35\n"}, // i2-j3 keeps one destination
		{[]string{"perft", "transporter", "1", "--fen", "4/8/10/10/10/10/10/3R6/8/3A w"}, ""},
	} {
		code, out, errs := transporterRun(c.args...)
		if c.want == "" {
			if code == 0 {
				t.Errorf("%v: accepted a position without a Black Admiral", c.args)
			}
			continue
		}
		if code != 0 || out != c.want {
			t.Errorf("%v: exit %d, %q %s, want %q", c.args, code, out, errs, c.want)
		}
	}
	code, out, _ := transporterRun("perft", "transporter", "2", "--divide")
	if code != 0 || !strings.Contains(out, "Ig6-a6: 36\n") || !strings.HasSuffix(out, "\n1288\n") {
		t.Errorf("divide: exit %d\n%s", code, out)
	}
	// A position given with --fen: White's Commander and the transporters.
	code, out, errs := transporterRun("moves", "transporter", "--fen", "3a/8/10/10/10/f9/10/3R6/8/3A w")
	if code != 0 || !strings.Contains(out, "Rd3-a3@a8\nRd3-a3@j3\n") {
		t.Errorf("--fen: exit %d %s\n%s", code, errs, out)
	}
}
