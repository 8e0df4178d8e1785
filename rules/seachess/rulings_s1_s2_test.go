package seachess

import (
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestS1_1_Board(t *testing.T) {
	if n := brd.Count(); n != 128 {
		t.Errorf("%d squares, want 128", n)
	}
	if n := len(brd.Marked(rules.MarkHavenWhite)); n != 16 {
		t.Errorf("White's haven has %d squares, want 16", n)
	}
	if n := len(brd.Marked(rules.MarkHavenBlack)); n != 16 {
		t.Errorf("Black's haven has %d squares, want 16", n)
	}
	for _, name := range []string{"a1", "b2", "k1", "l2", "a11", "b12", "k12", "l11"} {
		if _, err := brd.Parse(name); err == nil {
			t.Errorf("%s exists", name)
		}
	}
	for _, name := range []string{"a3", "l10", "c1", "j2", "c12", "j11"} {
		if _, err := brd.Parse(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A missing cell ends a slide: the cruiser on d2 goes west to c2 only.
	s := setup(t, "K@g1 k@g12 C@d2", "w")
	wantMoves(t, s, "Cd2-c", "Cd2-c2")
	if has(s, "Cd2-b2") {
		t.Error("a cruiser slides onto a missing square")
	}
	// …and a horse-move leg: b4→c2 would need the leg b3-b2, and b2 is
	// missing; a submarine's leap only needs its landing square.
	s = setup(t, "K@g1 k@g12 A@b4 S@b6", "w")
	if has(s, "Ab4-c2") {
		t.Error("the carrier's horse move crosses the missing b2")
	}
	if !has(s, "Ab4-d3") || !has(s, "Ab4-d5") {
		t.Errorf("carrier moves: %v", from(s, "Ab4"))
	}
	s = setup(t, "K@g1 k@g12 S@b4", "w")
	wantMoves(t, s, "Sb4", "Sb4-a6", "Sb4-c6", "Sb4-d5", "Sb4-d3", "Sb4-c2")
}

func TestS1_2_Setup(t *testing.T) {
	s := start(t)
	want := map[string]string{
		"c1": "C", "d1": "S", "e1": "D", "f1": "A", "g1": "K", "h1": "D", "i1": "S", "j1": "T",
		"c12": "c", "d12": "s", "e12": "d", "f12": "a", "g12": "k", "h12": "d", "i12": "s", "j12": "t",
	}
	for f := 'c'; f <= 'j'; f++ {
		want[string(f)+"2"] = "B"
		want[string(f)+"11"] = "b"
	}
	for _, sq := range brd.Squares() {
		if got := s.pos.cellText(sq, everything); got != want[sqName(sq)] {
			t.Errorf("%s: %q, want %q", sqName(sq), got, want[sqName(sq)])
		}
	}
	if s.ToMove() != rules.White {
		t.Error("White moves first")
	}
	if got := s.pos.formatPosition(); got != StartPosition {
		t.Errorf("start position %q", got)
	}
}

func TestS2_1_BoatSteps(t *testing.T) {
	s := start(t)
	wantMoves(t, s, "Be2", "Be2-e3", "Be2-e4", "Be2-e5", "Be2-e6")
	// Every square passed and landed on must be empty.
	s = setup(t, "K@g1 k@g12 B@e2 b@e5 B@d3", "w")
	wantMoves(t, s, "Be2", "Be2-e3", "Be2-e4")
	// Only from the starting square.
	wantMoves(t, s, "Bd3", "Bd3-d4")
	// Black moves down.
	s = play(t, start(t), "Be2-e3")
	wantMoves(t, s, "Bf11", "Bf11-f10", "Bf11-f9", "Bf11-f8", "Bf11-f7")
}

func TestS2_2_BoatCaptures(t *testing.T) {
	s := setup(t, "K@g1 k@g12 B@e5 b@d6 b@e6 b@f6 b@d4", "w")
	wantMoves(t, s, "Be5", "Be5xd6", "Be5xf6")
	s = setup(t, "K@g1 k@g12 b@e5 B@d4 B@e4 B@f4 B@d6", "b")
	wantMoves(t, s, "Be5", "Be5xd4", "Be5xf4")
}

func TestS2_3_EnPassant(t *testing.T) {
	base := "K@g1 k@g12 B@e2 b@d4 b@f5 b@d5"
	for _, move := range []string{"Be2-e4", "Be2-e5"} {
		s := play(t, setup(t, base, "w"), move)
		// Only onto e3, the square in front of e2, and only by a boat that
		// captures diagonally onto it: d4, not d5 or f5.
		if got := kindMoves(s, mvEnPassant); len(got) != 1 || got[0] != "Bd4xe3" {
			t.Errorf("after %s: en passant moves %v, want [Bd4xe3]", move, got)
		}
		n, rep := step(t, s, "Bd4xe3")
		if at(n, "e3") != "b" || at(n, move[4:]) != "" || at(n, "d4") != "" {
			t.Errorf("after %s Bd4xe3:\n%s", move, n.View(rules.ViewReferee).ASCII())
		}
		if rep.Record[rules.ViewPublic] != "Bd4xe3" {
			t.Errorf("record %q", rep.Record[rules.ViewPublic])
		}
	}
	// A single step gives no en passant; nor does a later move.
	s := play(t, setup(t, base, "w"), "Be2-e3")
	if got := kindMoves(s, mvEnPassant); len(got) != 0 {
		t.Errorf("en passant after a single step: %v", got)
	}
	s = play(t, setup(t, base+" b@j9 B@c2", "w"), "Be2-e4", "Bj9-j8", "Bc2-c3")
	if got := kindMoves(s, mvEnPassant); len(got) != 0 {
		t.Errorf("en passant a move late: %v", got)
	}
	// Black's boats: onto rank 10.
	s = play(t, setup(t, "K@g1 k@g12 b@f11 B@e9", "b"), "Bf11-f8")
	wantMoves(t, s, "Be9", "Be9-e10", "Be9xf10")
}

func TestS2_4_Promotion(t *testing.T) {
	s := setup(t, "K@g1 k@g12 B@e11 c@f12 B@j11", "w")
	// Compulsory, to C, T, S, D or A, moving or capturing.
	wantMoves(t, s, "Be11", "Be11-e12=A", "Be11-e12=C", "Be11-e12=D", "Be11-e12=S", "Be11-e12=T",
		"Be11xf12=A", "Be11xf12=C", "Be11xf12=D", "Be11xf12=S", "Be11xf12=T")
	if _, _, k := tryMove(t, s, "Be11-e12"); k != rules.Illegal {
		t.Errorf("promotion without a piece: kind %v", k)
	}
	// The new piece is fresh: a torpedo boat loaded and facing the enemy.
	n := play(t, s, "Be11-e12=T")
	if a := n.pos.attr[sqr("e12")]; a&attrLoaded == 0 || facing(a) != rules.N {
		t.Errorf("promoted torpedo boat attr %b", a)
	}
	n = play(t, s, "Be11-e12=C")
	if n.pos.attr[sqr("e12")]&attrLoaded == 0 {
		t.Error("promoted cruiser not loaded")
	}
	n = play(t, s, "Be11-e12=S")
	if n.pos.attr[sqr("e12")] != 0 {
		t.Error("promoted submarine's V is not 0")
	}
	// Black promotes on rank 1; a Black torpedo boat faces south.
	s = setup(t, "K@g1 k@g12 b@d2", "b")
	n = play(t, s, "Bd2-d1=T")
	if a := n.pos.attr[sqr("d1")]; a&attrLoaded == 0 || facing(a) != rules.S || at(n, "d1") != "t" {
		t.Errorf("Black's promoted torpedo boat: %q attr %b", at(n, "d1"), a)
	}
}

func TestS2_5_SidewaysStep(t *testing.T) {
	s := setup(t, "K@g1 k@g12 B@a10 B@b10 B@k10 B@l10 c@c11 b@j11", "w")
	wantMoves(t, s, "Ba10")
	wantMoves(t, s, "Bb10", "Bb10-c10", "Bb10xc11")
	wantMoves(t, s, "Bk10", "Bk10-j10", "Bk10xj11")
	wantMoves(t, s, "Bl10")
	// a10 and l10 are blocked by their neighbours; free them and they step.
	s = setup(t, "K@g1 k@g12 B@a10 B@l10 b@k10", "w")
	wantMoves(t, s, "Ba10", "Ba10-b10")
	wantMoves(t, s, "Bl10") // never capturing sideways
	s = setup(t, "K@g1 k@g12 b@a3 b@l3 b@b3 B@c2", "b")
	wantMoves(t, s, "Ba3")
	wantMoves(t, s, "Bb3", "Bb3-c3", "Bb3xc2")
	wantMoves(t, s, "Bl3", "Bl3-k3")
}

// A boat that ends its first move above a submarine about to come up is
// taken at once: no en passant remains (S2.3, S5.6).
func TestS2_3_EnPassantAfterSurfacing(t *testing.T) {
	s := setup(t, "K@g1 k@g12 B@e2 b@d4 u@e5", "w")
	n, rep := step(t, s, "Be2-e5")
	if at(n, "e5") != "s" || n.pos.ep != noSq || len(kindMoves(n, mvEnPassant)) != 0 {
		t.Errorf("e5 %q, ep %v, %v", at(n, "e5"), n.pos.ep, rep.Record[rules.ViewPublic])
	}
	if err := n.Check(); err != nil {
		t.Error(err)
	}
	// A submarine that comes up on the square passed blocks en passant.
	s = setup(t, "K@g1 k@g12 B@e2 b@d4 u@e3", "w")
	n = play(t, s, "Be2-e5")
	if at(n, "e3") != "s" || at(n, "e5") != "B" || len(kindMoves(n, mvEnPassant)) != 0 {
		t.Errorf("e3 %q e5 %q, en passant %v", at(n, "e3"), at(n, "e5"), kindMoves(n, mvEnPassant))
	}
	if err := n.Check(); err != nil {
		t.Error(err)
	}
}
