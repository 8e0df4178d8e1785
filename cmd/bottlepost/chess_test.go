package main

import (
	"bytes"
	"strings"
	"testing"
)

func chessRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestChessMovesCommand(t *testing.T) {
	out, errs, code := chessRun(t, "moves", "chess", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	moves := strings.Fields(out)
	if len(moves) != 32 || !strings.Contains(" "+out, "\nO-O\n") || !strings.Contains(out, "Bxc6\n") || !strings.Contains(out, "Ba4\n") {
		t.Errorf("%d moves:\n%s", len(moves), out)
	}
	// Coordinate input is accepted as the referee record.
	out2, _, _ := chessRun(t, "moves", "chess", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")
	if out2 != out {
		t.Error("coordinate moves give another position")
	}
}

func TestChessMovesCommandIllegal(t *testing.T) {
	_, errs, code := chessRun(t, "moves", "chess", "e4", "e5", "Ke3")
	if code != 1 || !strings.Contains(errs, `move 2. illegal move "Ke3": the king moves to an adjoining square, or castles (FIDE 3.8.1)`) {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestChessBoardCommand(t *testing.T) {
	out, errs, code := chessRun(t, "board", "chess", "--as", "black", "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"Chess, as Black sees it", "    h g f e d c b a\n  1 R N . K . B N R 1",
		"Game over: White wins: checkmate (FIDE 5.1.1).", "Last move: 4. Qxf7#."} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestChessPerftCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "chess", "3"}, "8902\n"},
		{[]string{"perft", "chess", "3", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"}, "97862\n"},
		{[]string{"perft", "chess", "2", "e4", "e5"}, "835\n"},
	} {
		out, errs, code := chessRun(t, c.args...)
		if code != 0 || out != c.want {
			t.Errorf("%v: exit %d %q %s, want %q", c.args, code, out, errs, c.want)
		}
	}
	out, _, code := chessRun(t, "perft", "chess", "1", "--divide", "--fen", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	if code != 0 || !strings.HasPrefix(out, "Kd1: 1\n") || !strings.Contains(out, "O-O-O: 1\n") || !strings.HasSuffix(out, "\n16\n") {
		t.Errorf("divide: %d\n%s", code, out)
	}
	_, errs, code := chessRun(t, "perft", "chess", "1", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1")
	if code != 2 || !strings.Contains(errs, "White has 0 kings") {
		t.Errorf("bad FEN: exit %d %s", code, errs)
	}
}

// TestCLIMoveNumbersFromAPosition: a refused move is named by its number
// as players count it, from a position given with --fen too (its side to
// move and, in chess, its full-move number).
func TestCLIMoveNumbersFromAPosition(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"from the start", []string{"moves", "chess", "e4", "Ke7"}, `move 1... illegal move "Ke7"`},
		{"White at move 10", []string{"moves", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 0 10", "Ke3"}, `move 10. illegal move "Ke3"`},
		{"Black at move 10", []string{"moves", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K3 b - - 0 10", "Kd8", "Kd3"}, `move 11. illegal move "Kd3"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := chessRun(t, tt.args...)
			if code != 1 || !strings.Contains(errs, tt.want) {
				t.Errorf("exit %d: %s\nwant %q", code, errs, tt.want)
			}
		})
	}
}
