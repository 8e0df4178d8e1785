package main

import (
	"strings"
	"testing"
)

func TestBattleMovesFromTheStart(t *testing.T) {
	code, out, stderr := runCLI("moves", "battle")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 52 {
		t.Fatalf("exit %d, %d moves (want 52), stderr %q", code, len(lines), stderr)
	}
	for _, want := range []string{"Cd1-e4", "Ci1-l3", "Sc2-a4", "Sj3-l5", "Sd3-d5"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("%s missing from\n%s", want, out)
		}
	}
}

// battleArrival is a position in which White's soldier on d11 arrives at
// the far end (C4): Red has a gun on h9, a cavalry on e12, a soldier on a5.
const battleArrival = "2c4h/1S6/12/7g4/12/12/12/s11/12/12/8/4H3 w"

func TestBattleArrivalThroughTheCLI(t *testing.T) {
	code, out, stderr := runCLI("moves", "battle", "--fen", battleArrival)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Sd11-d12^h9", "Sd11-d12^a5", "Sd11xe12^h9", "Sd11-c12^e12"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("%s missing from\n%s", want, out)
		}
	}
	if strings.Contains(out, "Sd11-d12\n") || strings.Contains(out, "^g12") {
		t.Errorf("an arrival without a choice, or removing the headquarter, is offered:\n%s", out)
	}
	for move, reason := range map[string]string{
		"Sd11-d12^j12": "the headquarter cannot be removed; name another of Red's pieces (C4)",
		"Sd11-d12^h8":  "there is no piece on h8 to remove; name one of Red's pieces (C4)",
	} {
		code, _, stderr := runCLI("moves", "battle", "--fen", battleArrival, move)
		if code != 1 || !strings.Contains(stderr, reason) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", move, code, stderr, reason)
		}
	}
	code, out, _ = runCLI("board", "battle", "--fen", battleArrival, "Sd11-d12^h9")
	if code != 0 || !strings.Contains(out, "\n  9 : . : . : . : . : . : . 9\n") || !strings.Contains(out, "Red to move.") {
		t.Errorf("after Sd11-d12^h9 (exit %d):\n%s", code, out)
	}
}

func TestBattleBoardAsRed(t *testing.T) {
	code, out, stderr := runCLI("board", "battle", "--as", "red", "Sd3-d5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Chess-Battle, as Red sees it",
		"    l k j i h g f e d c b a",
		"  1     G C M H B M C G     1",
		" 12     g c m h b m c g     12",
		"Red to move.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from\n%s", want, out)
		}
	}
	for _, as := range []string{"white", "referee", "public"} {
		if code, out, _ := runCLI("board", "battle", "--as", as); code != 0 || !strings.Contains(out, "  1     G C M B H M C G     1") {
			t.Errorf("--as %s: exit %d\n%s", as, code, out)
		}
	}
}

func TestBattlePerft(t *testing.T) {
	if code, out, _ := runCLI("perft", "battle", "2"); code != 0 || out != "2704\n" {
		t.Errorf("perft 2: exit %d, %q", code, out)
	}
	code, out, _ := runCLI("perft", "battle", "1", "--divide")
	if code != 0 || !strings.Contains(out, "Cd1-e4: 1\n") || !strings.HasSuffix(out, "\n52\n") {
		t.Errorf("perft 1 --divide: exit %d\n%s", code, out)
	}
	// 17 soldier moves (TestC4_SoldierAtTheFarEnd lists them) and 5 for the headquarter.
	if code, out, _ := runCLI("perft", "battle", "1", "--fen", battleArrival); code != 0 || out != "22\n" {
		t.Errorf("perft 1 from the arrival position: exit %d, %q", code, out)
	}
}

func TestBattleSampleGameEndsInMate(t *testing.T) {
	game := strings.Fields("Sc2-b3 Sj11-l9 Sb3-b5 Sl9-l7 Gc1-c2 Se10-g8 Gc2-b3 Sl7-l5 Gb3!g8 Sl5-l3 Cd1-e4 Sl3-k3 " +
		"Sj3xk3 Sd10-e9 Sk3-k4 Bf12-a7 Sk4-k6 Ci12-g9 Sk6-k8 Sj10-i9 Ce4-d6 Cd12-e10 Sk8-k10 Cg9-i8 Sk10-i12^f10 Si10-h9 Cd6xe9#")
	code, out, stderr := runCLI(append([]string{"moves", "battle"}, game...)...)
	if code != 0 || out != "" {
		t.Errorf("after the mate: exit %d, moves %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(append([]string{"board", "battle"}, game...)...)
	if code != 0 || !strings.Contains(out, "Game over: White wins: checkmate (C5).") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, _, stderr = runCLI("moves", "battle", "Sd3-d5", "Gc12!c6")
	if code != 1 || !strings.Contains(stderr, `move 1... illegal move "Gc12!c6": there is no piece on c6 to shoot (C3.1)`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
