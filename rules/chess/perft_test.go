package chess

import (
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// The standard perft table (chessprogramming.org "Perft Results"). The
// Kiwipete FEN has a black pawn on h3 ("2N2Q1p"): the counts below belong to
// that position.
var perftTable = []struct {
	name string
	fen  string
	want []uint64 // depth 1, 2, …
	// cheap is how many depths run by default; the rest run unless -short.
	cheap int
}{
	{"start", StartFEN, []uint64{20, 400, 8902, 197281, 4865609, 119060324}, 4},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", []uint64{48, 2039, 97862, 4085603, 193690690}, 3},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", []uint64{14, 191, 2812, 43238, 674624, 11030083}, 5},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []uint64{6, 264, 9467, 422333, 15833292}, 4},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []uint64{44, 1486, 62379, 2103487, 89941194}, 3},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []uint64{46, 2079, 89890, 3894594, 164075551}, 3},
}

func TestPerftTable(t *testing.T) {
	for _, c := range perftTable {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			for d, want := range c.want {
				if d >= c.cheap && testing.Short() {
					t.Logf("depth %d skipped under -short", d+1)
					break
				}
				if got := rules.Perft(s, d+1); got != want {
					t.Errorf("perft(%d) = %d, want %d", d+1, got, want)
				}
			}
		})
	}
}

// TestPerftLong runs the depths past the table with BOTTLEPOST_LONG=1.
func TestPerftLong(t *testing.T) {
	if !rulestest.Long() {
		t.Skip("set BOTTLEPOST_LONG=1 for perft(7) from the start and perft(6) of Kiwipete")
	}
	for _, c := range []struct {
		fen   string
		depth int
		want  uint64
	}{
		{StartFEN, 7, 3195901860},
		{perftTable[1].fen, 6, 8031647685},
	} {
		s, _ := ParseFEN(c.fen)
		if got := rules.Perft(s, c.depth); got != c.want {
			t.Errorf("%s perft(%d) = %d, want %d", c.fen, c.depth, got, c.want)
		}
	}
}

// TestPerftHandCounts: depth 1 from the start is 16 pawn moves (each of 8
// pawns one or two squares, FIDE 3.7.1–3.7.2) and 4 knight moves (FIDE
// 3.6); depth 2 is 20 × 20, as no first move of White changes Black's 20.
func TestPerftHandCounts(t *testing.T) {
	s, _ := ParseFEN(StartFEN)
	pawns, knights := 0, 0
	for _, m := range s.Moves() {
		switch m.Piece {
		case Pawn:
			pawns++
		case Knight:
			knights++
		default:
			t.Errorf("unexpected first move %s", s.Format(m))
		}
	}
	if pawns != 16 || knights != 4 || rules.Perft(s, 2) != 20*20 {
		t.Errorf("pawn moves %d knight moves %d perft(2) %d", pawns, knights, rules.Perft(s, 2))
	}
}

// TestPerftAgainstReference compares depths 1–3 of every table position
// with the independent mailbox generator of reference_test.go.
func TestPerftAgainstReference(t *testing.T) {
	for _, c := range perftTable {
		s, _ := ParseFEN(c.fen)
		ref := refParse(t, c.fen)
		for d := 1; d <= 3; d++ {
			if got, want := rules.Perft(s, d), refPerft(ref, d); got != want {
				t.Errorf("%s perft(%d) = %d, reference %d", c.name, d, got, want)
			}
		}
	}
}

// TestPerftReferenceRandomGames walks random games and compares perft(1)
// at every ply and perft(2) at every fifth with the reference generator, on
// the positions random play reaches (promotions, odd castling states, bare
// kings…).
func TestPerftReferenceRandomGames(t *testing.T) {
	games := rulestest.Size(10, 40, 400)
	for g := range games {
		r := rand.New(rand.NewPCG(7, uint64(g)))
		var s rules.State
		s, _ = ParseFEN(StartFEN)
		for ply := 0; !s.Outcome().Over(); ply++ {
			fen := s.(*State).FEN()
			ref := refParse(t, fen)
			depth := 1
			if ply%5 == 0 {
				depth = 2
			}
			if got, want := s.(*State).pos.perft(depth), refPerft(ref, depth); got != want {
				t.Fatalf("game %d ply %d %s: perft(%d) = %d, reference %d", g, ply, fen, depth, got, want)
			}
			moves := s.Moves()
			s, _, _ = s.Apply(moves[r.IntN(len(moves))])
		}
	}
}

func benchPerft(b *testing.B, depth int, want uint64) {
	s, _ := ParseFEN(StartFEN)
	var nodes uint64
	for b.Loop() {
		if n := rules.Perft(s, depth); n != want {
			b.Fatalf("perft(%d) = %d, want %d", depth, n, want)
		}
		nodes += want
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkPerft4 is perft(4) from the start through the public API.
func BenchmarkPerft4(b *testing.B) { benchPerft(b, 4, 197281) }

// BenchmarkPerft6 is perft(6) from the start through the public API.
func BenchmarkPerft6(b *testing.B) { benchPerft(b, 6, 119060324) }
