package seachess

import (
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestS5_1_SubmarineMovesLikeKnight(t *testing.T) {
	s := setup(t, "K@g1 k@g12 S@e5 B@f7 b@d7", "w")
	wantMoves(t, s, "Se5", "Se5-c4", "Se5-c6", "Se5-d3", "Se5xd7", "Se5-f3", "Se5-g4", "Se5-g6")
}

func TestS5_2_Submerge(t *testing.T) {
	s := setup(t, "K@g1 k@g12 S@d4 d@f5 B@c6 M@e2 U@b3", "w", "v=d4:2", "left=Ub3:2")
	// Under any square but a destroyer, its own mine or another of its
	// own submerged submarines; under its own pieces too.
	wantMoves(t, s, "Sd4v", "Sd4v-b5", "Sd4v-c2", "Sd4v-c6", "Sd4v-e6", "Sd4v-f3")
	n, rep := step(t, s, "Sd4v-e6")
	if at(n, "d4") != "" || at(n, "e6") != "U" {
		t.Errorf("after the dive: d4 %q e6 %q", at(n, "d4"), at(n, "e6"))
	}
	if !rep.Secret || rep.Record[rules.ViewBlack] != "(h)" || rep.Record[rules.ViewReferee] != "Sd4v-e6 (h)" {
		t.Errorf("report %+v", rep)
	}
	if got := n.View(rules.ViewBlack).Cells[sqr("e6")]; got != "" {
		t.Errorf("Black sees %q on e6", got)
	}
	if got := n.View(rules.ViewWhite).Cells[sqr("e6")]; got != "U" {
		t.Errorf("White sees %q on e6", got)
	}
}

func TestS5_3_EnduranceFromVisibleTurns(t *testing.T) {
	// From the start: V counts White's turns with the submarine afloat.
	s := start(t)
	if len(kindMoves(s, mvSubmerge)) != 0 {
		t.Error("a dive at V=0")
	}
	s = play(t, s, "Bc2-c3", "Bc11-c10")
	if v := s.pos.attr[sqr("d1")]; v != 1 || len(kindMoves(s, mvSubmerge)) != 0 {
		t.Errorf("V=%d after one turn; dives %v", v, kindMoves(s, mvSubmerge))
	}
	s = play(t, s, "Bd2-d3", "Bd11-d10")
	// V=2: N=1. It may dive under its own boats too.
	wantMoves(t, s, "Sd1v", "Sd1v-c3", "Sd1v-e3", "Sd1v-f2")
	// N = min(V/2, 4) turns down, the diving turn the first.
	for _, c := range []struct {
		v    string
		down int // owner's turns it stays down
	}{{"1", 0}, {"2", 1}, {"3", 1}, {"4", 2}, {"7", 3}, {"8", 4}} {
		s := setup(t, "K@g1 k@g12 S@d4", "w", "v=d4:"+c.v)
		if c.down == 0 {
			if len(kindMoves(s, mvSubmerge)) != 0 {
				t.Errorf("V=%s: a dive with N=0", c.v)
			}
			continue
		}
		s = play(t, s, "Sd4v-e6")
		turns := 1
		for {
			s = play(t, s, blackWaits(s))
			if at(s, "e6") == "S" {
				break
			}
			if at(s, "e6") != "U" {
				t.Fatalf("V=%s: e6 %q", c.v, at(s, "e6"))
			}
			turns++
			s = play(t, s, whiteWaits(s))
		}
		if turns != c.down {
			t.Errorf("V=%s: down for %d turns, want %d", c.v, turns, c.down)
		}
		// It came up at the start of White's turn: that turn counts.
		if s.pos.attr[sqr("e6")] != 0 {
			t.Errorf("V=%s: V=%d on surfacing", c.v, s.pos.attr[sqr("e6")])
		}
		s = play(t, s, whiteWaits(s))
		if s.pos.attr[sqr("e6")] != 1 {
			t.Errorf("V=%s: V=%d after the turn it surfaced on, want 1", c.v, s.pos.attr[sqr("e6")])
		}
	}
	// Surfacing by its own move: that turn does not count.
	s = setup(t, "K@g1 k@g12 S@d4", "w", "v=d4:4")
	s = play(t, s, "Sd4v-e6")
	s = play(t, s, blackWaits(s), "sSe6^")
	if s.pos.attr[sqr("e6")] != 0 {
		t.Errorf("V=%d after surfacing by its own move, want 0", s.pos.attr[sqr("e6")])
	}
	s = play(t, s, blackWaits(s))
	s = play(t, s, whiteWaits(s))
	if s.pos.attr[sqr("e6")] != 1 {
		t.Errorf("V=%d a turn later, want 1", s.pos.attr[sqr("e6")])
	}
	// V is counted up to 8.
	s = setup(t, "K@g1 k@g12 S@d4", "w", "v=d4:8")
	s = play(t, s, whiteWaits(s))
	if s.pos.attr[sqr("d4")] != 8 {
		t.Errorf("V=%d, want it kept at 8", s.pos.attr[sqr("d4")])
	}
}

// whiteWaits and blackWaits pick a commando ship's quiet move.
func whiteWaits(s *State) string { return waits(s, "Kg1-f1", "Kf1-g1") }
func blackWaits(s *State) string { return waits(s, "Kg12-f12", "Kf12-g12") }

func waits(s *State, a, b string) string {
	if has(s, a) {
		return a
	}
	return b
}

func TestS5_4_UnderwaterMoves(t *testing.T) {
	s := setup(t, "K@g1 k@g12 U@e5 d@d7 M@f7 U@g6 m@g4 B@c6 b@c4", "w", "left=Ue5:3,Ug6:3")
	wantMoves(t, s, "sSe5-", "sSe5-c4", "sSe5-c6", "sSe5-d3", "sSe5-f3", "sSe5-g4", "sSe5-c4^x")
	n, rep := step(t, s, "sSe5-g4")
	if at(n, "g4") != "" || n.pos.nuw[rules.White] != 1 {
		t.Errorf("after sSe5-g4 onto a mine: g4 %q", at(n, "g4"))
	}
	if rep.Record[rules.ViewBlack] != "(h)-Mx(g4)" || rep.Record[rules.ViewWhite] != "sSe5-g4-Mx (h)" {
		t.Errorf("records %q / %q", rep.Record[rules.ViewBlack], rep.Record[rules.ViewWhite])
	}
	if !slices.Contains(rep.English(rules.ViewBlack), "White's submarine struck your mine on g4 (S3.3)") {
		t.Errorf("Black's notices %q", rep.English(rules.ViewBlack))
	}
}

func TestS5_5_Surfacing(t *testing.T) {
	base := "K@g1 k@g12 U@e5 d@d7 b@c4 B@c6"
	s := setup(t, base, "w", "left=Ue5:3")
	wantMoves(t, s, "sSe5^", "sSe5^")
	wantMoves(t, s, "sSe5-c4^", "sSe5-c4^x") // onto an enemy piece, not a destroyer nor an own piece
	n, rep := step(t, s, "sSe5-c4^x")
	if at(n, "c4") != "S" || n.pos.attr[sqr("c4")] != 0 || n.pos.nuw[rules.White] != 0 || rep.Secret {
		t.Errorf("after sSe5-c4^x: c4 %q secret %v", at(n, "c4"), rep.Secret)
	}
	if rep.Record[rules.ViewBlack] != "sSe5-c4^x" {
		t.Errorf("public record %q", rep.Record[rules.ViewBlack])
	}
	// In place: capturing the enemy piece above, not a commando ship.
	s = setup(t, "K@g1 k@g12 bU@e5", "w", "left=Ue5:3")
	wantMoves(t, s, "sSe5", "sSe5^x", "sSe5-c4", "sSe5-c6", "sSe5-d3", "sSe5-d7", "sSe5-f3", "sSe5-f7", "sSe5-g4", "sSe5-g6")
	n, _ = step(t, s, "sSe5^x")
	if at(n, "e5") != "S" {
		t.Errorf("e5 %q", at(n, "e5"))
	}
	s = setup(t, "K@g1 kU@g11 B@e9", "w", "left=Ug11:3")
	if len(kindMoves(s, mvSurfaceHere)) != 0 {
		t.Error("surfacing under the commando ship")
	}
	// Not under one's own piece.
	s = setup(t, "K@g1 k@g12 BU@e5", "w", "left=Ue5:3")
	if len(kindMoves(s, mvSurfaceHere)) != 0 {
		t.Error("surfacing under one's own piece")
	}
}

func TestS5_6_AutomaticSurfacing(t *testing.T) {
	// Its time is up at the start of White's turn: it comes up whatever
	// floats above, taking even its own side's piece.
	s := setup(t, "KU@g1 k@g12 BU@e5 bU@c7", "b", "left=Uc7:1")
	n, rep := step(t, s, "Kg12-f12")
	if at(n, "e5") != "S" || at(n, "g1") != "K" || at(n, "c7") != "bU" {
		t.Errorf("after White's turn began: e5 %q g1 %q c7 %q", at(n, "e5"), at(n, "g1"), at(n, "c7"))
	}
	want := "Kg12-f12; sSg1^(lost); sSe5^xe5"
	if rep.Record[rules.ViewPublic] != want {
		t.Errorf("record %q, want %q", rep.Record[rules.ViewPublic], want)
	}
	notes := strings.Join(rep.English(rules.ViewWhite), "\n")
	for _, w := range []string{
		"your submarine on e5 surfaced, its time underwater being up, capturing your boat (S5.6)",
		"your submarine on g1 surfaced, its time underwater being up, but could not come up under the commando ship there and is lost (S5.6)",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("White's notices lack %q:\n%s", w, notes)
		}
	}
	// The other submarine has one more turn: it comes up a turn later.
	n = play(t, n, "Kg1-f1", "Kf12-g12")
	if at(n, "c7") != "S" {
		t.Errorf("c7 %q", at(n, "c7"))
	}
}

func TestS5_7_OnlyDestroyerOrMineTakeSubmarine(t *testing.T) {
	s := setup(t, "K@g1 k@g12 C@e2 T@a6 A@b8 u@e5", "w", "left=ue5:3")
	n := play(t, s, "Ce2-e5")
	if at(n, "e5") != "Cu" {
		t.Errorf("a cruiser on a submerged submarine's square: %q", at(n, "e5"))
	}
	// Neither torpedo nor aircraft can reach it (S4.3, S7.5).
	if len(kindMoves(s, mvTorpedo)) != 0 || len(kindMoves(s, mvLaunch)) != 0 {
		t.Errorf("torpedo or aircraft at a submerged submarine: %v", texts(s))
	}
	n = play(t, setup(t, "K@g1 k@g12 D@c3 u@e5", "w", "left=ue5:3"), "Dc3-e5")
	if at(n, "e5") != "D" {
		t.Errorf("destroyer on a submerged submarine: %q", at(n, "e5"))
	}
}

func TestS5_8_SubmarineCheck(t *testing.T) {
	s := setup(t, "K@g1 T@j1 D@f5 D@f6 B@c2 k@g12 u@j4", "b", "left=uj4:3", "castle:T")
	n, rep := step(t, s, "sSj4-h3")
	for v, want := range map[rules.Viewer]string{
		rules.ViewBlack: "check by a submarine (S5.8)", rules.ViewWhite: "you are in check by a submarine (S5.8)",
		rules.ViewPublic: "White is in check by a submarine (S5.8)",
	} {
		if !slices.Contains(rep.English(v), want) {
			t.Errorf("%v notices %q, want %q", v, rep.English(v), want)
		}
		for _, note := range rep.English(v) {
			if v != rules.ViewBlack && strings.Contains(note, "h3") {
				t.Errorf("%v learns the submarine's square: %q", v, note)
			}
		}
	}
	if rep.Record[rules.ViewWhite] != "(h)+" {
		t.Errorf("White's record %q", rep.Record[rules.ViewWhite])
	}
	// White may submit moves that ignore the check; the referee refuses them.
	if !has(n, "Bc2-c3") || has(n, "O-O") {
		t.Errorf("White's moves: %v", texts(n))
	}
	for text, want := range map[string]rules.ErrorKind{
		"Bc2-c3": rules.Refused, "Kg1-f2": rules.Refused, "Kg1-f1": 0, "Df5-h3": 0, "Df5-g4": rules.Refused,
		"Df6-h4": rules.Refused, // forced up on h3 (S6.2), the submarine still gives check
	} {
		if _, _, k := tryMove(t, n, text); k != want {
			t.Errorf("%s: %v, want %v", text, k, want)
		}
	}
	// The refusal says only that the commando ship would stay in check.
	m, _ := n.Parse("Bc2-c3")
	_, _, err := n.Apply(m)
	if me, ok := err.(*rules.MoveError); !ok || me.Ruling != "S8.3" || strings.Contains(me.Reason, "submarine") {
		t.Errorf("refusal %v", err)
	}
}

func TestS6_1_DestroyerMovesLikeBishop(t *testing.T) {
	s := setup(t, "K@g1 k@g12 D@e5 B@g7 b@c3", "w")
	wantMoves(t, s, "De5", "De5-f6", "De5-f4", "De5-g3", "De5-h2", "De5-i1", "De5-d4", "De5xc3",
		"De5-d6", "De5-c7", "De5-b8", "De5-a9")
	// Landing on a submerged enemy submarine captures it, publicly.
	s = setup(t, "K@g1 k@g12 D@c3 u@e5 U@f4", "w", "left=ue5:3,Uf4:3")
	n, rep := step(t, s, "Dc3-e5")
	if at(n, "e5") != "D" || rep.Record[rules.ViewPublic] != "Dc3-e5xsS" {
		t.Errorf("e5 %q record %q", at(n, "e5"), rep.Record[rules.ViewPublic])
	}
	if !slices.Contains(rep.English(rules.ViewBlack), "White's destroyer captured your submerged submarine on e5 (S6.1)") {
		t.Errorf("Black's notices %q", rep.English(rules.ViewBlack))
	}
	// Its own submarine below is safe.
	n = play(t, s, "Dc3-d2", "Kg12-f12", "Dd2-f4")
	if at(n, "f4") != "DU" {
		t.Errorf("f4 %q", at(n, "f4"))
	}
}

func TestS6_2_ForcedSurfacing(t *testing.T) {
	s := setup(t, "Ku@d5 k@g12 D@c3 Bu@e6 u@f7", "w", "left=ud5:3,ue6:3,uf7:3")
	n, rep := step(t, s, "Dc3-e5")
	if at(n, "e6") != "s" || at(n, "d5") != "K" || at(n, "f7") != "u" {
		t.Errorf("after Dc3-e5: d5 %q e6 %q f7 %q", at(n, "d5"), at(n, "e6"), at(n, "f7"))
	}
	if got := rep.Record[rules.ViewBlack]; got != "Dc3-e5>d5^(lost)>e6^xe6" {
		t.Errorf("record %q", got)
	}
	if !slices.Contains(rep.English(rules.ViewBlack),
		"your submarine on e6 was forced up by a destroyer, capturing White's boat (S6.2)") {
		t.Errorf("Black's notices %q", rep.English(rules.ViewBlack))
	}
	// A submarine that ends its own move next to an enemy destroyer comes
	// up at once.
	s = setup(t, "K@g1 k@g12 D@e6 u@c4", "b", "left=uc4:2")
	n, rep = step(t, s, "sSc4-d6")
	if at(n, "d6") != "s" {
		t.Errorf("d6 %q", at(n, "d6"))
	}
	if rep.Record[rules.ViewWhite] != "(h)>d6^" || rep.Record[rules.ViewBlack] != "sSc4-d6>d6^ (h)" {
		t.Errorf("records %q %q", rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack])
	}
}

func TestS7_1_CarrierMoves(t *testing.T) {
	s := setup(t, "K@g1 k@g12 A@e5 B@e6 b@f6", "w")
	wantMoves(t, s, "Ae5", "Ae5xf6", "Ae5-f5", "Ae5-g5", "Ae5-f4", "Ae5-g3", "Ae5-e4", "Ae5-e3", "Ae5-d4",
		"Ae5-c3", "Ae5-d5", "Ae5-c5", "Ae5-d6", "Ae5-c7", "Ae5-g6", "Ae5-g4", "Ae5-d3", "Ae5-f3", "Ae5-c6", "Ae5-c4")
	// A piece on either square of the two-square leg blocks the horse move.
	s = setup(t, "K@g1 k@g12 A@e5 b@g5 B@e3", "w")
	for _, m := range []string{"Ae5-g6", "Ae5-g4", "Ae5-d3", "Ae5-f3"} {
		if has(s, m) {
			t.Errorf("%s offered across a blocked leg", m)
		}
	}
	if !has(s, "Ae5xg5") || !has(s, "Ae5-f7") {
		t.Errorf("moves %v", from(s, "Ae5"))
	}
}

func TestS7_2_AircraftLaunch(t *testing.T) {
	s := setup(t, "K@g1 k@g12 A@e5 b@h8 b@e8 b@g7 b@b5", "w")
	wantMoves(t, s, "Ae5xa", "Ae5xab5", "Ae5xae8", "Ae5xah8")
	n, rep := step(t, s, "Ae5xah8")
	if at(n, "h8") != "" || n.pos.attr[sqr("e5")]&attrAirborne == 0 || rep.Secret {
		t.Errorf("after the launch: h8 %q", at(n, "h8"))
	}
}

func TestS7_3_AircraftInFlight(t *testing.T) {
	s := setup(t, "K@g1 k@g12 A@e5 b@h8 b@e8 b@b5 B@c2", "w")
	s = play(t, s, "Ae5xah8", "Kg12-f12")
	if got := texts(s); !slices.Equal(got, []string{"Aa-A", "Aaxb5", "Aaxe8"}) {
		t.Errorf("moves in flight: %v", got)
	}
	if _, _, k := tryMove(t, s, "Bc2-c3"); k != rules.Illegal {
		t.Errorf("another piece moved while the aircraft flies: %v", k)
	}
	s = play(t, s, "Aaxe8", "Kf12-g12", "Aa-A", "Kg12-f12")
	if s.pos.attr[sqr("e5")]&attrAirborne != 0 || !has(s, "Bc2-c3") || !has(s, "Ae5xab5") {
		t.Errorf("after the return: %v", texts(s))
	}
	// The carrier captured in flight: the aircraft is lost, White moves freely.
	s = setup(t, "K@g1 k@g12 A@e5 b@h8 c@l5 B@c2", "w")
	s, _ = step(t, s, "Ae5xah8")
	s, rep := step(t, s, "Cl5xe5")
	if !slices.Contains(rep.English(rules.ViewWhite), "your aircraft is lost with its carrier (S7.3)") {
		t.Errorf("notices %q", rep.English(rules.ViewWhite))
	}
	if !has(s, "Bc2-c3") {
		t.Errorf("White cannot move after losing the aircraft: %v", texts(s))
	}
}

func TestS7_4_OutlineGivesCheck(t *testing.T) {
	s := setup(t, "K@g1 k@h8 A@e3", "w")
	n, rep := step(t, s, "Ae3-e5")
	if !n.inCheck || rep.Record[rules.ViewPublic] != "Ae3-e5+" {
		t.Errorf("the outline does not give check: %q", rep.Record[rules.ViewPublic])
	}
	// Pieces that cannot move while the aircraft flies still give check;
	// with no aircraft move to answer a check, it is mate.
	s = setup(t, "K@g1 A@e5 k@g12 c@c8 b@h8", "b", "air=e5")
	n, _ = step(t, s, "Cc8-c1")
	if o := n.Outcome(); o.Status != rules.Win || o.Winner != rules.Black || o.Reason != "checkmate" {
		t.Errorf("outcome %+v", o)
	}
	// While the aircraft flies, White's cruiser still holds its line.
	s = setup(t, "K@g1 A@e5 C@d8 k@e12 b@h8 b@b5", "w", "air=e5")
	if !slices.Equal(texts(s), []string{"Aa-A", "Aaxb5", "Aaxh8"}) {
		t.Errorf("moves %v", texts(s))
	}
	n, _ = step(t, s, "Aaxh8")
	if has(n, "Ke12-d12") || !has(n, "Ke12-f12") {
		t.Errorf("Black's commando ship: %v", from(n, "K"))
	}
}

func TestS7_5_AircraftCannotHitSubmarine(t *testing.T) {
	s := setup(t, "K@g1 k@g12 A@e5 u@h8 bu@e8", "w", "left=uh8:3,ue8:3")
	wantMoves(t, s, "Ae5xa", "Ae5xae8")
	n, _ := step(t, s, "Ae5xae8")
	if at(n, "e8") != "u" {
		t.Errorf("e8 %q", at(n, "e8"))
	}
}

// A boat promoting to a destroyer on a submerged enemy submarine's square
// takes it, and forces up those next to it (S2.4, S6.1, S6.2).
func TestS6_1_PromotedDestroyer(t *testing.T) {
	s := setup(t, "K@g1 k@g12 B@e11 u@e12 u@f12", "w", "left=ue12:3,uf12:3")
	n, rep := step(t, s, "Be11-e12=D")
	if at(n, "e12") != "D" || at(n, "f12") != "s" || rep.Record[rules.ViewPublic] != "Be11-e12=DxsS>f12^" {
		t.Errorf("e12 %q f12 %q record %q", at(n, "e12"), at(n, "f12"), rep.Record[rules.ViewPublic])
	}
	if err := n.Check(); err != nil {
		t.Error(err)
	}
}
