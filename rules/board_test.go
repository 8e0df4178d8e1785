package rules_test

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestBoardSquareCounts(t *testing.T) {
	tests := []struct {
		name  string
		board *rules.Board
		want  int
	}{
		{"chess 8x8", rules.ChessBoard, 64},
		{"seachess S1.1", rules.SeachessBoard, 128},
		{"submachine M1.4", rules.SubmachineBoard, 100},
		{"baltic B1", rules.BalticBoard, 64},
		{"battle C1.1", rules.BattleBoard, 128},
		{"transporter T1.1", rules.TransporterBoard, 84},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.board.Count(); got != tt.want {
				t.Errorf("%s has %d squares, want %d", tt.board, got, tt.want)
			}
			for _, sq := range tt.board.Squares() {
				back, err := tt.board.Parse(tt.board.Name(sq))
				if err != nil || back != sq {
					t.Errorf("square %s does not parse back (%v)", tt.board.Name(sq), err)
				}
			}
		})
	}
}

func TestBoardMissingSquares(t *testing.T) {
	tests := []struct {
		board   *rules.Board
		missing string
		present string
	}{
		{rules.SeachessBoard, "a1 b1 k1 l1 a2 b2 k2 l2 a11 b11 k11 l11 a12 b12 k12 l12", "c1 j2 a3 l10 c12 j11"},
		{rules.SubmachineBoard, "b3 d3 h3 j3 b10 d10 h10 j10 f1 f5 f8 f12 a6 b7 e6 g7 k6", "f3 f10 c6 c7 i6 i7 f6 f7 c3 i3 c10 i10 a3 e10 k3"},
		{rules.BattleBoard, "a1 b2 k1 l2 a11 b12 k11 l12", "c1 j2 a3 l10 c12 j11"},
		{rules.TransporterBoard, "a1 c1 h1 j1 a2 j2 a9 j9 c10 h10", "d1 g1 b2 i2 a3 j8 b9 i9 d10 g10"},
	}
	for _, tt := range tests {
		t.Run(tt.board.String(), func(t *testing.T) {
			for _, name := range strings.Fields(tt.missing) {
				if _, err := tt.board.Parse(name); err == nil {
					t.Errorf("%s exists, want a hole", name)
				}
			}
			for _, name := range strings.Fields(tt.present) {
				if _, err := tt.board.Parse(name); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		})
	}
}

func TestBoardMarks(t *testing.T) {
	tests := []struct {
		name  string
		board *rules.Board
		mark  rules.Mark
		want  string
	}{
		{"submachine teleports M1.1", rules.SubmachineBoard, rules.MarkTeleport, "c3 i3 c10 i10"},
		{"transporters T1.1", rules.TransporterBoard, rules.MarkTransporter, "a3 j3 a8 j8"},
		{"seachess white haven S1.1", rules.SeachessBoard, rules.MarkHavenWhite, "c1 d1 e1 f1 g1 h1 i1 j1 c2 d2 e2 f2 g2 h2 i2 j2"},
		{"transporter white camp T1.1", rules.TransporterBoard, rules.MarkCampWhite, "d1 e1 f1 g1 b2 c2 d2 e2 f2 g2 h2 i2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.board.Names(tt.board.Marked(tt.mark)); got != tt.want {
				t.Errorf("marked squares %q, want %q", got, tt.want)
			}
		})
	}
	if got := len(rules.SeachessBoard.Marked(rules.MarkHavenBlack)); got != 16 {
		t.Errorf("black haven has %d squares, want 16", got)
	}
	// C1.2: "the corners down-left are black": c1, a3, c3 dark; d3 light, d10 dark (C1.4).
	for name, dark := range map[string]bool{"c1": true, "a3": true, "c3": true, "d3": false, "d10": true, "l3": false, "j12": true} {
		sq := rules.BattleBoard.MustParse(name)
		if rules.BattleBoard.Has(sq, rules.MarkDark) != dark {
			t.Errorf("battle %s dark = %v, want %v", name, !dark, dark)
		}
	}
}

// TestSubmachineLinks checks the named links of rulings M2.1 and M2.2.
func TestSubmachineLinks(t *testing.T) {
	b := rules.SubmachineBoard
	next := []struct {
		name     string
		from     string
		dir      rules.Dir
		want     string // "-" for no neighbour
		rulingID string
	}{
		{"a1 west wraps to e1", "a1", rules.W, "e1", "M2.1"},
		{"e1 east wraps to a1", "e1", rules.E, "a1", "M2.1"},
		{"g5 west wraps to k5", "g5", rules.W, "k5", "M2.1"},
		{"k12 east wraps to g12", "k12", rules.E, "g12", "M2.1"},
		{"a2 south-west wraps to e1", "a2", rules.SW, "e1", "M2.1"},
		{"e1 north-east wraps to a2", "e1", rules.NE, "a2", "M2.1"},
		{"a3 does not wrap west", "a3", rules.W, "-", "M2.1"},
		{"e3 east is the loose f3", "e3", rules.E, "f3", "M2.1"},
		{"a3 and e2 are not neighbours", "a3", rules.SW, "-", "M2.1"},
		{"e2 and a3 are not neighbours", "e2", rules.NE, "f3", "M2.1"},
		{"c6 does not wrap", "c6", rules.W, "-", "M2.1"},
		{"a10 does not wrap", "a10", rules.W, "-", "M2.1"},
		{"a1 down to b5", "a1", rules.S, "b5", "M2.2"},
		{"b1 down to c5", "b1", rules.S, "c5", "M2.2"},
		{"e1 down to d5", "e1", rules.S, "d5", "M2.2"},
		{"d1 down to c5", "d1", rules.S, "c5", "M2.2"},
		{"g1 down to h5", "g1", rules.S, "h5", "M2.2"},
		{"k1 down to j5", "k1", rules.S, "j5", "M2.2"},
		{"c1 centre file does not wrap", "c1", rules.S, "-", "M2.2"},
		{"i1 centre file does not wrap", "i1", rules.S, "-", "M2.2"},
		{"a12 up to b8", "a12", rules.N, "b8", "M2.2"},
		{"e12 up to d8", "e12", rules.N, "d8", "M2.2"},
		{"j12 up to i8", "j12", rules.N, "i8", "M2.2"},
		{"c5 never leads to b1", "c5", rules.S, "c4", "M2.2"},
		{"b5 up is a hole", "b5", rules.N, "-", "M2.3"},
		{"b4 down is the hole b3", "b4", rules.S, "-", "M2.3"},
		{"a1 has no diagonal below", "a1", rules.SE, "-", "M2.2"},
	}
	for _, tt := range next {
		t.Run(tt.rulingID+" "+tt.name, func(t *testing.T) {
			if got := b.Name(b.Next(b.MustParse(tt.from), tt.dir)); got != tt.want {
				t.Errorf("Next(%s, %v) = %s, want %s", tt.from, tt.dir, got, tt.want)
			}
		})
	}
	rays := []struct {
		name, from string
		dir        rules.Dir
		want       string
	}{
		{"rook b1 west through a1 to e1 and round", "b1", rules.W, "a1 e1 d1 c1"},
		{"rook a5 south, shifted at a1, stopped by the hole b3", "a5", rules.S, "a4 a3 a2 a1 b5 b4"},
		{"rook b2 north stops at the hole b3", "b2", rules.N, ""},
		{"rook a3 east along the unwrapped rank 3", "a3", rules.E, ""},
		{"rook c3 east", "c3", rules.E, ""},
		{"rook e3 east into the loose f3 and g3", "e3", rules.E, "f3 g3"},
		{"rook c1 north along the whole c file", "c1", rules.N, "c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12"},
		{"rook e2 south, shifted at e1 to d5", "e2", rules.S, "e1 d5 d4"},
	}
	for _, tt := range rays {
		t.Run(tt.name, func(t *testing.T) {
			if got := b.Names(b.Ray(b.MustParse(tt.from), tt.dir)); got != tt.want {
				t.Errorf("Ray(%s, %v) = %q, want %q", tt.from, tt.dir, got, tt.want)
			}
		})
	}
}

// TestAdjacencySymmetric checks that every diagonal and horizontal link
// (wraps included) is symmetric, as M2.1 requires; only the vertical
// shifts of M2.2 are one-way.
func TestAdjacencySymmetric(t *testing.T) {
	boards := []*rules.Board{rules.ChessBoard, rules.SeachessBoard, rules.SubmachineBoard, rules.BalticBoard, rules.BattleBoard, rules.TransporterBoard}
	for _, b := range boards {
		for _, sq := range b.Squares() {
			for _, d := range rules.AllDirs {
				n := b.Next(sq, d)
				if n == rules.NoSquare {
					continue
				}
				if back := b.Next(n, d.Opposite()); back != sq && d != rules.N && d != rules.S {
					t.Errorf("%s: %s -%v-> %s but back is %s", b, b.Name(sq), d, b.Name(n), b.Name(back))
				}
			}
		}
	}
}

func TestParseSquare(t *testing.T) {
	b := rules.SeachessBoard
	tests := []struct {
		in    string
		want  string
		n     int
		valid bool
	}{
		{"a3", "a3", 2, true},
		{"L10", "l10", 3, true},
		{"c12", "c12", 3, true},
		{"a1", "-", 0, false},   // missing cell (S1.1)
		{"m3", "-", 0, false},   // off the grid
		{"c13", "c1", 2, false}, // prefix only
		{"c0", "-", 0, false},
		{"", "-", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			sq, n := b.ParsePrefix(tt.in)
			if b.Name(sq) != tt.want || n != tt.n {
				t.Errorf("ParsePrefix(%q) = %s,%d, want %s,%d", tt.in, b.Name(sq), n, tt.want, tt.n)
			}
			if _, err := b.Parse(tt.in); (err == nil) != tt.valid {
				t.Errorf("Parse(%q) error = %v, want valid=%v", tt.in, err, tt.valid)
			}
		})
	}
}

func BenchmarkRayWalk(b *testing.B) {
	bd := rules.SubmachineBoard
	n := 0
	for b.Loop() {
		for _, sq := range bd.Squares() {
			for _, d := range rules.Orthogonals {
				n += len(bd.Ray(sq, d))
			}
		}
	}
	_ = n
}

func TestAbsSign(t *testing.T) {
	for _, tt := range []struct{ x, abs, sign int }{{-3, 3, -1}, {0, 0, 0}, {5, 5, 1}} {
		if rules.Abs(tt.x) != tt.abs || rules.Sign(tt.x) != tt.sign {
			t.Errorf("Abs(%d), Sign(%d) = %d, %d; want %d, %d", tt.x, tt.x, rules.Abs(tt.x), rules.Sign(tt.x), tt.abs, tt.sign)
		}
	}
}
