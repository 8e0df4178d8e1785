package main

import (
	"bytes"
	"strings"
	"testing"
)

// seachessRun runs the CLI in-process for the Seachess tests.
func seachessRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSeachessMovesFromTheStart(t *testing.T) {
	code, out, stderr := seachessRun("moves", "seachess")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 37 {
		t.Fatalf("exit %d, %d moves (want 37), stderr %q", code, len(lines), stderr)
	}
	for _, want := range []string{"Be2-e6", "Cc1-M", "Sd1-c3", "Si1-j3"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("%s missing from\n%s", want, out)
		}
	}
}

// The referee's record forms, hidden moves included, replay the game.
func TestSeachessMovesTakeTheRecordForms(t *testing.T) {
	code, out, stderr := seachessRun("moves", "seachess",
		"Bc2-c3", "Bc11-c10", "Bd2-d3", "Bd11-d10", "Bf2-f3", "Bf11-f10", "Bg2-g3", "Bg11-g10",
		"Sd1v-e3 (h)", "Cc12-M (h)", "sSe3-f5 (h)")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Sd12v-e10", "Sd12-e10", "Cc12-c11"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("Black's moves lack %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Cc12-M\n") {
		t.Error("an empty cruiser is offered a second mine")
	}
	// A boat struck by an enemy mine, in the referee's record form.
	fen := "4k3/8/12/12/12/12/12/4m7/4B7/12/8/4K3 w - - 0 1"
	code, out, stderr = seachessRun("moves", "seachess", "--fen", fen, "Be4 - e5 - Mx")
	if code != 0 || !strings.Contains(out, "Kg12-f12\n") {
		t.Errorf("exit %d: %s %s", code, out, stderr)
	}
}

func TestSeachessBoardViews(t *testing.T) {
	moves := []string{"Bc2-c3", "Bc11-c10", "Bd2-d3", "Bd11-d10", "Bf2-f3", "Bf11-f10", "Bg2-g3", "Bg11-g10", "Sd1v-e3", "Cc12-M"}
	cells := map[string]string{"white": " U ", "referee": " U ", "black": "", "public": ""}
	for as, want := range cells {
		code, out, stderr := seachessRun(append([]string{"board", "seachess", "--as", as}, moves...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", as, code, stderr)
		}
		rank3 := ""
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "3 ") {
				rank3 = line
			}
		}
		if got := strings.Contains(rank3, " U "); got != (want != "") {
			t.Errorf("%s sees rank 3 as %q", as, rank3)
		}
		hasMine := strings.Contains(out, "c*")
		if hasMine != (as == "black" || as == "referee") {
			t.Errorf("%s: Black's mine shown %v:\n%s", as, hasMine, out)
		}
	}
}

func TestSeachessPerft(t *testing.T) {
	code, out, stderr := seachessRun("perft", "seachess", "2")
	if code != 0 || strings.TrimSpace(out) != "1369" {
		t.Errorf("perft 2: exit %d %q %s", code, out, stderr)
	}
	code, out, _ = seachessRun("perft", "seachess", "1", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 38 || lines[37] != "37" || lines[0] != "Bc2-c3: 1" {
		t.Errorf("perft --divide 1: exit %d\n%s", code, out)
	}
}

func TestSeachessErrors(t *testing.T) {
	code, _, stderr := seachessRun("moves", "seachess", "--fen", "nonsense")
	if code != 2 || !strings.Contains(stderr, "six fields") {
		t.Errorf("bad position: exit %d %q", code, stderr)
	}
	code, _, stderr = seachessRun("moves", "seachess", "Sd1v-e3")
	if code != 1 || !strings.Contains(stderr, "S5.3") {
		t.Errorf("an early dive: exit %d %q", code, stderr)
	}
	// In check by a submarine White cannot see, a boat move is refused.
	fen := "4k3/8/12/12/12/12/12/12/12/5u6/B7/4K3 w - - 0 1 left=uf3:2"
	code, _, stderr = seachessRun("moves", "seachess", "--fen", fen, "Bc2-c3")
	if code != 1 || !strings.Contains(stderr, "refused move") || !strings.Contains(stderr, "S8.3") {
		t.Errorf("refusal: exit %d %q", code, stderr)
	}
}
