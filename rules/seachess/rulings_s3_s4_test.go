package seachess

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestS3_1_CruiserMovesLikeRook(t *testing.T) {
	s := setup(t, "K@g1 k@g12 C@e5 b@e8 B@c5", "w")
	wantMoves(t, s, "Ce5", "Ce5-M", "Ce5-d5", "Ce5-e1", "Ce5-e2", "Ce5-e3", "Ce5-e4", "Ce5-e6", "Ce5-e7", "Ce5xe8",
		"Ce5-f5", "Ce5-g5", "Ce5-h5", "Ce5-i5", "Ce5-j5", "Ce5-k5", "Ce5-l5")
}

func TestS3_2_MineAndReload(t *testing.T) {
	s := setup(t, "K@g1 k@g12 C@e5", "w")
	s, rep := step(t, s, "Ce5-M")
	if at(s, "e5") != "C*" || s.pos.attr[sqr("e5")]&attrLoaded != 0 {
		t.Fatalf("after Ce5-M: %q", at(s, "e5"))
	}
	if !rep.Secret || rep.Text != "Ce5-M" {
		t.Errorf("report: secret %v text %q", rep.Secret, rep.Text)
	}
	s = play(t, s, "Kg12-f12")
	if has(s, "Ce5-M") {
		t.Error("an empty cruiser lays a second mine")
	}
	s = play(t, s, "Ce5-e3", "Kf12-g12")
	if at(s, "e5") != "M" || at(s, "e3") != "C" {
		t.Fatalf("the mine should stay on e5: %q %q", at(s, "e5"), at(s, "e3"))
	}
	if has(s, "Ce3-M") {
		t.Error("the cruiser reloaded outside its haven")
	}
	s, rep = step(t, s, "Ce3-e2")
	if rep.Record[rules.ViewWhite] != "Ce3-e2<M" || rep.Record[rules.ViewReferee] != "Ce3-e2<M" {
		t.Errorf("reload record %q", rep.Record[rules.ViewWhite])
	}
	s = play(t, s, "Kg12-f12")
	if !has(s, "Ce2-M") {
		t.Error("the cruiser did not reload in its haven")
	}
	// Black's cruiser reloads in Black's haven, not White's.
	s = setup(t, "K@g1 k@g12 c@e5 B@a9", "b", "spent=e5")
	s = play(t, s, "Ce5-e2", "Ba9-a10", "Ce2-e11")
	if s.pos.attr[sqr("e11")]&attrLoaded == 0 {
		t.Error("Black's cruiser did not reload in its own haven")
	}
}

func TestS3_3_MineCapturesAnyPiece(t *testing.T) {
	// Capturing the cruiser on its fresh mine destroys the capturer too.
	s := setup(t, "K@g1 k@g12 C@e5 c@e9", "w")
	s = play(t, s, "Ce5-M")
	s, rep := step(t, s, "Ce9xe5")
	if at(s, "e5") != "" || at(s, "e9") != "" {
		t.Errorf("e5 %q e9 %q", at(s, "e5"), at(s, "e9"))
	}
	if got := rep.Record[rules.ViewReferee]; got != "Ce9xe5-Mx" {
		t.Errorf("record %q", got)
	}
	if s.pos.clock != 0 {
		t.Error("a capture by a mine must reset the move count")
	}
	// Any piece of the other side moving onto a mine is captured with it.
	for _, mover := range []string{"B@d3:Bd3-d4", "A@d2:Ad2-d4", "S@c2:Sc2-d4", "K@d3:Kd3-d4", "D@b2:Db2-d4"} {
		cell, move, _ := strings.Cut(mover, ":")
		king := " K@g1"
		if strings.HasPrefix(cell, "K") {
			king = ""
		}
		if strings.HasPrefix(cell, "D@b2") {
			cell = "D@c3"
			move = "Dc3-d4"
		}
		s := setup(t, cell+king+" k@g12 m@d4", "w")
		n, rep := step(t, s, move)
		if at(n, "d4") != "" || n.pos.mine[sqr("d4")] != 0 {
			t.Errorf("%s: d4 holds %q", move, at(n, "d4"))
		}
		if got := rep.Record[rules.ViewPublic]; got != move+"-Mx" {
			t.Errorf("%s: record %q", move, got)
		}
	}
}

func TestS3_4_NothingCrossesAMine(t *testing.T) {
	// Never onto or across one's own mine: not offered.
	s := setup(t, "K@g1 k@g12 C@e2 M@e5 A@h3 B@f2", "w")
	wantMoves(t, s, "Ce2-e", "Ce2-e1", "Ce2-e3", "Ce2-e4")
	s = setup(t, "K@g1 k@g12 A@e3 M@e4", "w")
	if has(s, "Ae3-e4") || has(s, "Ae3-e5") {
		t.Errorf("carrier onto or across its own mine: %v", from(s, "Ae3"))
	}
	// An enemy mine is unknown: the move is offered and stops on the mine.
	s = setup(t, "K@g1 k@g12 C@e2 m@e6 b@e9", "w")
	wantMoves(t, s, "Ce2", "Ce2-M", "Ce2-c2", "Ce2-d2", "Ce2-f2", "Ce2-g2", "Ce2-h2", "Ce2-i2", "Ce2-j2",
		"Ce2-e1", "Ce2-e3", "Ce2-e4", "Ce2-e5", "Ce2-e6", "Ce2-e7", "Ce2-e8", "Ce2xe9")
	n, rep := step(t, s, "Ce2xe9")
	if at(n, "e6") != "" || at(n, "e9") != "b" || at(n, "e2") != "" {
		t.Errorf("after Ce2xe9 across e6: e2 %q e6 %q e9 %q", at(n, "e2"), at(n, "e6"), at(n, "e9"))
	}
	if got := rep.Record[rules.ViewReferee]; got != "Ce2xe9-Mx(e6)" {
		t.Errorf("record %q", got)
	}
	if got := rep.English(rules.ViewWhite); len(got) == 0 || got[0] != "your cruiser struck a mine on e6 (S3.3)" {
		t.Errorf("White's notices %q", got)
	}
	// The carrier's two-square move stops on an enemy mine it passes.
	s = setup(t, "K@g1 k@g12 A@e3 m@e4", "w")
	n, _ = step(t, s, "Ae3-e5")
	if at(n, "e5") != "" || at(n, "e4") != "" {
		t.Errorf("carrier across a mine: e4 %q e5 %q", at(n, "e4"), at(n, "e5"))
	}
	// Leapers meet only their landing square: the horse move's leg and the
	// submarine's leap pass over mines.
	for _, c := range []string{"m@e4 m@e5", "M@e4 M@e5"} {
		s = setup(t, "K@g1 k@g12 A@e3 "+c, "w")
		if !has(s, "Ae3-d5") {
			t.Fatalf("%s: horse move over a mine not offered: %v", c, from(s, "Ae3"))
		}
		n, _ = step(t, s, "Ae3-d5")
		if at(n, "d5") != "A" {
			t.Errorf("%s: horse move over a mine: d5 %q", c, at(n, "d5"))
		}
	}
	s = setup(t, "K@g1 k@g12 S@d3 m@d4 m@e4", "w")
	n, _ = step(t, s, "Sd3-e5")
	if at(n, "e5") != "S" {
		t.Error("a submarine's leap is stopped by a mine")
	}
	// Torpedoes and the aircraft ignore mines: they fire over one, and
	// take a cruiser on its mine, leaving the mine.
	s = setup(t, "K@g1 k@g12 T@e5 m@d6 b@c7 c*@f6", "w")
	wantMoves(t, s, "Te5xt", "Te5xtc7", "Te5xtf6")
	n, _ = step(t, s, "Te5xtf6")
	if at(n, "f6") != "m" {
		t.Errorf("torpedoed cruiser on its mine: f6 %q, want the mine left", at(n, "f6"))
	}
	s = setup(t, "K@g1 k@g12 A@e4 c*@h7", "w")
	n, _ = step(t, s, "Ae4xah7")
	if at(n, "h7") != "m" {
		t.Errorf("aircraft on a cruiser on its mine: h7 %q", at(n, "h7"))
	}
}

func TestS3_5_CommandoShipOnMine(t *testing.T) {
	s := setup(t, "K@g1 k@g12 m@g2", "w")
	n, _ := step(t, s, "Kg1-g2")
	o := n.Outcome()
	if o.Status != rules.Win || o.Winner != rules.Black || o.Ruling != "S3.5" {
		t.Errorf("outcome %+v", o)
	}
	if len(n.Moves()) != 0 {
		t.Error("moves offered after the game ended")
	}
	// Castling: the commando ship moves first and stops on the first mine.
	s = setup(t, "K@g1 T@j1 k@g12 m@h1", "w", "castle:T")
	n, rep := step(t, s, "O-O")
	if n.Outcome().Winner != rules.Black || n.Outcome().Status != rules.Win {
		t.Errorf("castling onto a mine: %+v", n.Outcome())
	}
	if at(n, "h1") != "T" || at(n, "g1") != "" || at(n, "i1") != "" {
		t.Errorf("after O-O: g1 %q h1 %q i1 %q", at(n, "g1"), at(n, "h1"), at(n, "i1"))
	}
	if got := rep.Record[rules.ViewReferee]; got != "O-O-Mx(h1)" {
		t.Errorf("record %q", got)
	}
	// The FIDE conditions are judged on the intended squares first: i1 is
	// attacked by a submarine White cannot see, so the referee refuses the
	// castling rather than letting the commando ship die on h1.
	s = setup(t, "K@g1 T@j1 k@g12 m@h1 u@j3", "w", "castle:T")
	if !has(s, "O-O") {
		t.Fatal("O-O not offered")
	}
	if _, _, k := tryMove(t, s, "O-O"); k != rules.Refused {
		t.Errorf("O-O into an unseen attack: kind %v, want refused", k)
	}
}

func TestS3_6_MineBlocksCheck(t *testing.T) {
	// White's own mine on g4 shields its commando ship from the cruiser on
	// g9: White is not in check and may stay on the file.
	s := setup(t, "K@g1 M@g4 c@g9 k@d12", "w")
	if s.inCheck {
		t.Error("in check through a mine")
	}
	if !has(s, "Kg1-g2") {
		t.Errorf("Kg1-g2 not offered behind one's own mine: %v", from(s, "K"))
	}
	// Black's mine shields White as well, though White cannot know it: the
	// referee announces no check.
	s = setup(t, "K@g1 c@a9 m@g4 k@d12", "b")
	n, rep := step(t, s, "Ca9-g9")
	if n.inCheck || strings.HasSuffix(rep.Record[rules.ViewPublic], "+") {
		t.Errorf("check announced through a mine: %q", rep.Record[rules.ViewPublic])
	}
	s = setup(t, "K@g1 c@a9 k@d12", "b")
	_, rep = step(t, s, "Ca9-g9")
	if rep.Record[rules.ViewPublic] != "Ca9-g9+" {
		t.Errorf("record %q, want a check", rep.Record[rules.ViewPublic])
	}
}

func TestS4_1_TorpedoBoatMovesLikeRook(t *testing.T) {
	s := setup(t, "K@g1 k@g12 T@e5 b@e8 B@c5", "w", "spent=e5")
	wantMoves(t, s, "Te5", "Te5-d5", "Te5-e1", "Te5-e2", "Te5-e3", "Te5-e4", "Te5-e6", "Te5-e7", "Te5xe8",
		"Te5-f5", "Te5-g5", "Te5-h5", "Te5-i5", "Te5-j5", "Te5-k5", "Te5-l5")
}

func TestS4_2_TorpedoForwardDiagonals(t *testing.T) {
	// Fresh, White's torpedo boat faces north: d6 and f6, then c7 and g7 if
	// the square between holds no piece.
	s := setup(t, "K@g1 k@g12 T@e5 b@d6 b@c7 b@g7 b@d4 b@f4", "w")
	wantMoves(t, s, "Te5xt", "Te5xtd6", "Te5xtg7")
	// Forward is the way it last moved: east after Te5-h5.
	s = setup(t, "K@g1 k@g12 T@e5 b@i6 b@j3 b@g6 b@g4", "w")
	s = play(t, s, "Te5-h5", "Kg12-f12")
	if facing(s.pos.attr[sqr("h5")]) != rules.E {
		t.Errorf("facing %v after moving east", facing(s.pos.attr[sqr("h5")]))
	}
	wantMoves(t, s, "Th5xt", "Th5xti6", "Th5xtj3")
	// Castling counts as a move along the rank: west.
	s = setup(t, "K@g1 T@j1 k@g12 b@f3", "w", "castle:T")
	s = play(t, s, "O-O", "Kg12-f12")
	if facing(s.pos.attr[sqr("h1")]) != rules.W {
		t.Errorf("facing %v after O-O", facing(s.pos.attr[sqr("h1")]))
	}
	wantMoves(t, s, "Th1xt", "Th1xtf3")
	// Black's faces south at first.
	s = setup(t, "K@g1 k@g12 t@e8 B@d7 B@g6", "b")
	wantMoves(t, s, "Te8xt", "Te8xtd7", "Te8xtg6")
}

func TestS4_3_TorpedoReload(t *testing.T) {
	s := setup(t, "K@g1 k@g12 T@e5 b@d6 b@f6", "w")
	s = play(t, s, "Te5xtd6", "Kg12-g11")
	if has(s, "Te5xtf6") {
		t.Error("a second torpedo without reloading")
	}
	s, rep := step(t, s, "Te5-e2")
	if rep.Record[rules.ViewPublic] != "Te5-e2<T" || rep.Record[rules.ViewBlack] != "Te5-e2<T" {
		t.Errorf("reload record %q", rep.Record[rules.ViewPublic])
	}
	s = play(t, s, "Kg11-g12", "Te2-e5", "Kg12-g11")
	wantMoves(t, s, "Te5xt", "Te5xtf6")
	// A torpedo cannot hit a submerged submarine; it takes the piece above.
	s = setup(t, "K@g1 k@g12 T@e5 u@d6 bu@f6", "w", "left=ud6:2,uf6:2")
	wantMoves(t, s, "Te5xt", "Te5xtf6")
	n, _ := step(t, s, "Te5xtf6")
	if at(n, "f6") != "u" {
		t.Errorf("f6 %q: the submarine below should stay", at(n, "f6"))
	}
}
