package main

import (
	"bytes"
	"sort"
	"strings"
	"testing"
)

func submachineRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestSubmachineCLIMoves(t *testing.T) {
	code, out, stderr := submachineRun("moves", "submachine")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 37 || !sort.StringsAreSorted(lines) {
		t.Fatalf("exit %d, %d lines (want 37, sorted), stderr %q:\n%s", code, len(lines), stderr, out)
	}
	for _, want := range []string{"Kg1-h5", "Mh1-i5", "Ra1-b5", "b2-b4", "b2-b5", "Nb1-c3"} {
		if !strings.Contains("\n"+out, "\n"+want+"\n") {
			t.Errorf("start moves lack %s", want)
		}
	}
	// After c2-c3 the pawn on the teleport c3 may not teleport (M3).
	code, out, _ = submachineRun("moves", "submachine", "c2-c3", "Nb12-a10")
	if code != 0 || !strings.Contains(out, "\nc3-c4\n") || strings.Contains(out, "c3-c10") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	// The referee's records, check marks included, are read back.
	code, out, stderr = submachineRun("moves", "submachine", "--fen", "6k4/11/11/11/11/11/11/11/11/11/11/4R1K4 w - 0 1", "Re1-a1")
	if code != 0 || out != "Kg12-g11\nKg12-h11\nKg12-h12\nKg12-h8\nKg12-k11\nKg12-k12\n" {
		t.Errorf("exit %d, stderr %q:\n%s", code, stderr, out)
	}
	code, _, stderr = submachineRun("moves", "submachine", "Nb1-c3", "Nb12-c10", "Nc3xc10+")
	if code != 0 {
		t.Errorf("a record with its check mark: exit %d, %s", code, stderr)
	}
}

func TestSubmachineCLIIllegalMove(t *testing.T) {
	code, out, stderr := submachineRun("moves", "submachine", "e2-e3", "Rb12-b8")
	if code != 1 || out != "" || !strings.Contains(stderr, "move 1... illegal move") || !strings.Contains(stderr, "(M7)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, _, stderr = submachineRun("moves", "submachine", "Rb1-b3")
	if code != 1 || !strings.Contains(stderr, "b3 is a hole") || !strings.Contains(stderr, "(M1)") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestSubmachineCLIBoard(t *testing.T) {
	code, out, _ := submachineRun("board", "submachine", "--as", "black", "Nb1-c3")
	if code != 0 || !strings.Contains(out, "as Black sees it") ||
		!strings.Contains(out, "    k j i h g f e d c b a\n  1 R N B M K   Q C B . R 1\n") ||
		!strings.Contains(out, "On teleport squares: N on c3.") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, as := range []string{"white", "referee", "public"} {
		code, out, _ := submachineRun("board", "submachine", "--as", as)
		if code != 0 || !strings.Contains(out, " 12 r n b c q   k m b n r 12\n") || !strings.Contains(out, "a blank is a hole") {
			t.Errorf("--as %s: exit %d:\n%s", as, code, out)
		}
	}
}

func TestSubmachineCLIPerft(t *testing.T) {
	for depth, want := range []string{"1", "37", "1369", "54642"} {
		code, out, stderr := submachineRun("perft", "submachine", string(rune('0'+depth)))
		if code != 0 || strings.TrimSpace(out) != want {
			t.Errorf("perft %d: exit %d, %q %q, want %s", depth, code, out, stderr, want)
		}
	}
	code, out, _ := submachineRun("perft", "submachine", "2", "--divide")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 38 || lines[37] != "1369" || lines[0] != "Cd1-c3: 37" {
		t.Errorf("divide: exit %d, %d lines:\n%s", code, len(lines), out)
	}
	// --fen: the rook b1 has a1 e1 d1 (round the cylinder, c1 taken), b2
	// and c5 c4 c3 c2 (the shift): 8; the bishop c1 d2 e3 b2 a3: 4; the
	// king g2 h2 h1, k1 k2 (wrapped) and h5 (shifted): 6.
	code, out, _ = submachineRun("perft", "submachine", "1", "--fen", "6k4/11/11/11/11/11/11/11/11/11/11/1RB3K4 w - 0 1")
	if code != 0 || strings.TrimSpace(out) != "18" {
		t.Errorf("perft 1 --fen: exit %d, %q", code, out)
	}
	code, _, stderr := submachineRun("perft", "submachine", "1", "--fen", "nonsense")
	if code != 2 || !strings.Contains(stderr, "position") {
		t.Errorf("bad --fen: exit %d, %q", code, stderr)
	}
}
