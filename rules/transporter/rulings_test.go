package transporter

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// Every ruling (T1–T7, docs/variants/transporter.md) has a test named after it.

func TestT1_1_Board(t *testing.T) {
	if n := board.Count(); n != 84 {
		t.Errorf("%d squares, want 84", n)
	}
	for r, want := range []string{"d1 e1 f1 g1", "b2 c2 d2 e2 f2 g2 h2 i2"} {
		if got := board.Names(rankSquares[r]); got != want {
			t.Errorf("rank %d: %s, want %s", r+1, got, want)
		}
		if got, mirror := board.Names(rankSquares[9-r]), strings.NewReplacer("1", "10", "2", "9").Replace(want); got != mirror {
			t.Errorf("rank %d: %s, want %s", 10-r, got, mirror)
		}
	}
	for r := 2; r <= 7; r++ {
		if len(rankSquares[r]) != 10 {
			t.Errorf("rank %d has %d squares, want 10", r+1, len(rankSquares[r]))
		}
	}
	for _, name := range []string{"a1", "c1", "h1", "a2", "j2", "c10", "j9"} {
		if _, err := board.Parse(name); err == nil {
			t.Errorf("%s should not be a square", name)
		}
	}
	if got := board.Names(board.Marked(rules.MarkTransporter)); got != "a3 j3 a8 j8" {
		t.Errorf("transporters %s, want a3 j3 a8 j8", got)
	}
	wantOpp := map[string]string{"a3": "a8 j3", "a8": "a3 j8", "j3": "j8 a3", "j8": "j3 a8"}
	for sq, want := range wantOpp {
		o := opposite[board.MustParse(sq)]
		if got := board.Names(o[:]); got != want {
			t.Errorf("opposite %s: %s, want %s", sq, got, want)
		}
	}
	for _, sq := range squares {
		r := board.Rank(sq)
		if enemyCamp[rules.White][sq] != (r >= 8) || enemyCamp[rules.Black][sq] != (r <= 1) {
			t.Errorf("camp of %s wrong", board.Name(sq))
		}
	}
}

func TestT1_2_BlackMovesFirst(t *testing.T) {
	s := start(t)
	if s.ToMove() != rules.Black {
		t.Fatalf("to move: %v, want Black", s.ToMove())
	}
	for _, m := range s.Moves() {
		if sideOf(s.pos.cells[m.From]) != rules.Black {
			t.Errorf("White offered %s at the start", s.Format(m))
		}
	}
	wantErr(t, s, "Fc3-b4", rules.Illegal, "", "it is Black's turn")
	s2 := play(t, s, "Fc8-b7")
	if s2.ToMove() != rules.White || s2.Ply() != 1 {
		t.Errorf("after Black's first move: %v to move, ply %d", s2.ToMove(), s2.Ply())
	}
}

func TestT1_3_Setup(t *testing.T) {
	s := start(t)
	want := map[string]string{
		"d1": "R", "e1": "C", "f1": "A", "g1": "R",
		"b2": "F", "c2": "D", "d2": "M", "e2": "B", "f2": "B", "g2": "M", "h2": "D", "i2": "F",
		"c3": "F", "d3": "S", "e3": "F", "f3": "F", "g3": "S", "h3": "F", "d5": "I",
	}
	n := 0
	for sq, p := range want {
		if got := cell(s, sq); got != p {
			t.Errorf("%s: %q, want %q", sq, got, p)
		}
		// Black: the same turned 180°.
		f, r := board.Coords(board.MustParse(sq))
		if got := s.View(rules.ViewReferee).Cells[board.At(9-f, 9-r)]; got != strings.ToLower(p) {
			t.Errorf("%s: %q, want %q", board.Name(board.At(9-f, 9-r)), got, strings.ToLower(p))
		}
		n += 2
	}
	for _, sq := range squares {
		if s.pos.cells[sq] != empty {
			n--
		}
	}
	if n != 0 {
		t.Errorf("%d pieces besides the set", -n)
	}
	if cell(s, "e10") != "a" || cell(s, "f10") != "c" || cell(s, "g6") != "i" {
		t.Errorf("Black's Admiral, Commodore or Interference misplaced")
	}
	for _, sq := range []string{"b2", "c3", "h3", "i2", "b9", "e8"} {
		if s.pos.cells[board.MustParse(sq)]&freshBit == 0 {
			t.Errorf("Fighter on %s should not have moved yet", sq)
		}
	}
	if s.Position() != StartPosition {
		t.Errorf("start position %q, want %q", s.Position(), StartPosition)
	}
}

// T2: each piece's moves, with positions set up explicitly.

func TestT2_Admiral(t *testing.T) {
	s := setup(t, "w", "Ae5", "F'e6", "f'c5", "ae10")
	// One square any way, two straight over an empty square (capturing
	// there too); e7 is behind its own Fighter.
	wantMoves(t, s, "e5", "Ae5-d4", "Ae5-d5", "Ae5-d6", "Ae5-e4", "Ae5-f4", "Ae5-f5", "Ae5-f6",
		"Ae5-e3", "Ae5xc5", "Ae5-g5")
	// It never moves into check: a Black Commander on h4 covers rank 4.
	s = setup(t, "w", "Ae5", "F'e6", "f'c5", "rh4", "ae10")
	wantMoves(t, s, "e5", "Ae5-d5", "Ae5-d6", "Ae5-f5", "Ae5-f6", "Ae5xc5", "Ae5-g5", "Ae5-e3")
	wantErr(t, s, "Ae5-e7", rules.Illegal, "T2", "blocked by the Fighter on e6")
	wantErr(t, s, "Ae5-d4", rules.Illegal, "T4.3", "Admiral would be in check")
	wantErr(t, s, "Ae5-e2", rules.Illegal, "T2", "two along a rank or file")
}

func TestT2_Commodore(t *testing.T) {
	s := setup(t, "w", "Af1", "Cd4", "Md6", "rd8", "be4", "bh4", "f'f6", "ae10")
	// Bishop moves without capturing (f6 is not taken); cannon captures along
	// ranks and files over exactly one piece of either side; nothing without a
	// screen (south, west), nothing adjacent (e4).
	wantMoves(t, s, "d4", "Cd4-e5", "Cd4-c5", "Cd4-b6", "Cd4-a7", "Cd4-e3", "Cd4-f2", "Cd4-g1",
		"Cd4-c3", "Cd4-b2", "Cd4xd8", "Cd4xh4")
	wantErr(t, s, "Cd4xf6", rules.Illegal, "T2", "does not capture diagonally")
	wantErr(t, s, "Cd4-d2", rules.Illegal, "T2", "moves only diagonally")
	wantErr(t, s, "Cd4xe4", rules.Illegal, "T2", "jumping exactly one piece")
}

func TestT2_Commander(t *testing.T) {
	s := setup(t, "w", "Af1", "Rc4", "f'c7", "F'f4", "ae10")
	wantMoves(t, s, "c4", "Rc4-c5", "Rc4-c6", "Rc4xc7", "Rc4-c3", "Rc4-c2", "Rc4-d4", "Rc4-e4",
		"Rc4-b4", "Rc4-a4")
	wantErr(t, s, "Rc4-c8", rules.Illegal, "T2", "blocked by the Fighter on c7")
}

func TestT2_Assistant(t *testing.T) {
	s := setup(t, "w", "Af1", "Bd4", "f'g7", "ae10")
	wantMoves(t, s, "d4", "Bd4-e5", "Bd4-f6", "Bd4xg7", "Bd4-c5", "Bd4-b6", "Bd4-a7",
		"Bd4-e3", "Bd4-f2", "Bd4-g1", "Bd4-c3", "Bd4-b2")
}

func TestT2_FirstMate(t *testing.T) {
	s := setup(t, "w", "Af1", "Md5", "f'c5", "f'e5", "f'd6", "f'e6", "f'd4", "ae10")
	// Captures forward, back and diagonally, never sideways (c5, e5).
	wantMoves(t, s, "d5", "Md5-c4", "Md5-c6", "Md5xd4", "Md5-e4", "Md5xd6", "Md5xe6")
	wantErr(t, s, "Md5xc5", rules.Illegal, "T2", "does not capture sideways")
}

func TestT2_Advisor(t *testing.T) {
	s := setup(t, "w", "Af1", "Dd5", "F'e6", "f'c4", "f'f3", "ae10")
	// A king plus two diagonally over an empty square: b7; f3 captured over
	// e4; b3 is behind c4 and f7 behind its own e6.
	wantMoves(t, s, "d5", "Dd5xc4", "Dd5-c5", "Dd5-c6", "Dd5-d4", "Dd5-d6", "Dd5-e4", "Dd5-e5",
		"Dd5-b7", "Dd5xf3")
}

func TestT2_Fighter(t *testing.T) {
	s := setup(t, "w", "Af1", "Fc3", "F'd4", "f'c4", "F'h3", "f'g4", "ae10")
	// Never moved: one or two diagonally forward (not over d4), captures
	// straight forward.
	wantMoves(t, s, "c3", "Fc3-b4", "Fc3-a5", "Fc3xc4")
	// Has moved: no two-step, no diagonal capture, no straight step.
	wantMoves(t, s, "h3", "Fh3-i4")
	wantErr(t, s, "Fh3xg4", rules.Illegal, "T2", "does not capture diagonally")
	wantErr(t, s, "Fh3-h4", rules.Illegal, "T2", "straight forward only to capture")
	wantErr(t, s, "Fh3-j5", rules.Illegal, "T2", "never moved")
	// Black's Fighters go down the board (T1.2: Black moves first).
	s = start(t)
	wantMoves(t, s, "e8", "Fe8-d7", "Fe8-c6", "Fe8-f7")
	// The two-step marks the Fighter as moved; no en passant.
	s2 := play(t, s, "Fe8-c6", "Fc3-b4").(*State)
	if s2.pos.cells[board.MustParse("c6")]&freshBit != 0 {
		t.Error("a Fighter that made its two-step still counts as unmoved")
	}
	wantMoves(t, s2, "c6", "Fc6-b5") // d5 holds White's Interference
}

func TestT2_SuperFighter(t *testing.T) {
	s := setup(t, "w", "Af1", "Se5", "f'd5", "f'f5", "f'e6", "f'e4", "f'f6", "ae10")
	// Moves one diagonally (not onto f6), captures left, right and forward,
	// not backwards (e4).
	wantMoves(t, s, "e5", "Se5-d4", "Se5-d6", "Se5-f4", "Se5xd5", "Se5xf5", "Se5xe6")
	wantErr(t, s, "Se5xe4", rules.Illegal, "T2", "Super Fighter")
	// Black's forward is down the board.
	s = setup(t, "b", "Af1", "se5", "F'e4", "F'e6", "ae10")
	wantMoves(t, s, "e5", "Se5-d4", "Se5-d6", "Se5-f4", "Se5-f6", "Se5xe4")
}

func TestT2_Interference(t *testing.T) {
	s := setup(t, "w", "Af1", "F'h2", "Id5", "f'c5", "f'f5", "ae10")
	// Any empty square of its own rank, past pieces; never a capture.
	wantMoves(t, s, "d5", "Id5-a5", "Id5-b5", "Id5-e5", "Id5-g5", "Id5-h5", "Id5-i5", "Id5-j5")
	wantErr(t, s, "Id5-d6", rules.Illegal, "T2", "only move along its own rank")
	wantErr(t, s, "Id5xc5", rules.Illegal, "T2", "never captures")
	s2 := play(t, s, "Id5-h5")
	if cell(s2, "h5") != "I" || cell(s2, "d5") != "" || s2.ToMove() != rules.Black {
		t.Error("moving the Interference should be White's turn, ending on h5")
	}
}

// T3: the Interference blocks everything and is never taken.

func TestT3_InterferenceBlocksSlides(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "Id5", "rd8", "ae10")
	wantMoves(t, s, "d3", "Rd3-d4", "Rd3-d2", "Rd3-d1", "Rd3-c3", "Rd3-b3", "Rd3-e3", "Rd3-f3",
		"Rd3-g3", "Rd3-h3", "Rd3-i3", "Rd3-a3@a8", "Rd3-a3@j3", "Rd3-j3@j8", "Rd3-j3@a3")
	wantErr(t, s, "Rd3-d7", rules.Illegal, "T2", "the Interference on d5 blocks the way (T3)")
	// Black's own Commander is blocked by White's Interference just the same.
	s = setup(t, "b", "Af1", "Rd3", "Id5", "rd8", "ae10")
	if got := from(t, s, "d8"); strings.Contains(strings.Join(got, " "), "d4") || strings.Contains(strings.Join(got, " "), "xd3") {
		t.Errorf("Black's Commander passes the Interference: %v", got)
	}
	wantMoves(t, s, "d8", "Rd8-d7", "Rd8-d6", "Rd8-d9", "Rd8-d10", "Rd8-c8", "Rd8-b8", "Rd8-e8", "Rd8-f8",
		"Rd8-g8", "Rd8-h8", "Rd8-i8", "Rd8-a8@a3", "Rd8-a8@j8", "Rd8-j8@j3", "Rd8-j8@a8")
}

func TestT3_CommodoreCannotUseInterferenceAsScreen(t *testing.T) {
	// The Interference as the only piece between: no capture.
	s := setup(t, "w", "Af1", "Cd3", "Id5", "rd8", "ae10")
	wantErr(t, s, "Cd3xd8", rules.Illegal, "T2", "may not use an Interference as its screen nor jump over one (T3)")
	// A real screen, with the Interference beyond it: it cannot be jumped either.
	s = setup(t, "w", "Af1", "Cd3", "F'd4", "Id6", "rd8", "ae10")
	for _, m := range from(t, s, "d3") {
		if strings.Contains(m, "x") {
			t.Errorf("Commodore captures past an Interference: %s", m)
		}
	}
	// The control: the same with a Fighter for a screen captures.
	s = setup(t, "w", "Af1", "Cd3", "F'd5", "rd8", "ae10", "Ib5")
	if !strings.Contains(strings.Join(from(t, s, "d3"), " "), "Cd3xd8") {
		t.Errorf("Commodore should capture d8 over d5: %v", from(t, s, "d3"))
	}
	// Nor does an Interference serve as the screen of a check.
	s = setup(t, "b", "Ce2", "Ie5", "F'a4", "ae9", "f'a6", "Af1")
	if s.pos.inCheck() {
		t.Error("Black is in check through an Interference screen")
	}
}

func TestT3_InterferenceBlocksCheck(t *testing.T) {
	// White's Commander on e2 faces Black's Admiral on e9, with Black's own
	// Interference between: no check, and the Interference is pinned.
	s := setup(t, "b", "Af1", "Re2", "ie6", "ae9", "f'a6")
	if s.pos.inCheck() || s.Outcome().Over() {
		t.Fatal("Black should not be in check behind the Interference")
	}
	wantMoves(t, s, "e6")
	wantErr(t, s, "Ie6-b6", rules.Illegal, "T4.3", "Admiral would be in check")
	// White's Interference blocks just the same, and moving it away checks.
	s = setup(t, "w", "Af1", "Re2", "Ie5", "F'a4", "ae9", "f'a6")
	if s.pos.inCheck() {
		t.Fatal("check through White's Interference")
	}
	s2 := play(t, s, "Ie5-b5")
	if !s2.(*State).pos.inCheck() {
		t.Error("moving the Interference aside should give check")
	}
	_, rep, _ := s.Apply(mustParse(t, s, "Ie5-b5"))
	if rep.Record[rules.ViewReferee] != "Ie5-b5+" {
		t.Errorf("record %q, want Ie5-b5+", rep.Record[rules.ViewReferee])
	}
}

func TestT3_InterferenceNeverCaptured(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "Bc4", "Fc5", "id6", "ae10", "f'a8")
	for _, m := range s.Moves() {
		if m.To == board.MustParse("d6") {
			t.Errorf("a move onto the Interference: %s", s.Format(m))
		}
	}
	wantErr(t, s, "Rd3xd6", rules.Illegal, "T2", "never be captured nor landed on (T3)")
	// Even the Admiral cannot take it.
	s = setup(t, "w", "Ae5", "id6", "ae10", "f'a8", "F'a3")
	wantErr(t, s, "Ae5xd6", rules.Illegal, "T2", "(T3)")
}

func TestT3_EachSideMovesItsOwn(t *testing.T) {
	s := start(t)
	wantErr(t, s, "Id5-e5", rules.Illegal, "", "is White's; it is Black's turn")
	if len(from(t, s, "g6")) != 9 {
		t.Errorf("Black's Interference moves: %v", from(t, s, "g6"))
	}
}

// T4: transporters.

func TestT4_1_CaptureOntoTransporterThenTransport(t *testing.T) {
	s := setup(t, "w", "Af1", "Ra5", "f'a3", "ae10")
	wantMoves(t, s, "a5", "Ra5-a4", "Ra5xa3@a8", "Ra5xa3@j3", "Ra5-a6", "Ra5-a7", "Ra5-a8@j8",
		"Ra5-b5", "Ra5-c5", "Ra5-d5", "Ra5-e5", "Ra5-f5", "Ra5-g5", "Ra5-h5", "Ra5-i5", "Ra5-j5")
	s2 := play(t, s, "Ra5xa3@j3")
	if cell(s2, "a3") != "" || cell(s2, "j3") != "R" || cell(s2, "a5") != "" {
		t.Errorf("after Ra5xa3@j3: a3 %q j3 %q", cell(s2, "a3"), cell(s2, "j3"))
	}
	if !s2.Outcome().Over() || s2.Outcome().Winner != rules.White {
		t.Errorf("capturing Black's last man should win (T6): %+v", s2.Outcome())
	}
	// With j3 taken there is one destination, and the short form finds it.
	s = setup(t, "w", "Af1", "Ra5", "f'a3", "f'j3", "ae10")
	wantMoves(t, s, "a5", "Ra5-a4", "Ra5xa3@a8", "Ra5-a6", "Ra5-a7", "Ra5-a8@j8",
		"Ra5-b5", "Ra5-c5", "Ra5-d5", "Ra5-e5", "Ra5-f5", "Ra5-g5", "Ra5-h5", "Ra5-i5", "Ra5-j5")
	if got := s.Format(mustParse(t, s, "Ra5xa3")); got != "Ra5xa3@a8" {
		t.Errorf("Ra5xa3 read as %s, want Ra5xa3@a8", got)
	}
}

func TestT4_1_ChoiceOfDestination(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "ae10", "f'a6")
	if got := from(t, s, "d3"); !reflect.DeepEqual(filter(got, "a3"), []string{"Rd3-a3@a8", "Rd3-a3@j3"}) {
		t.Errorf("transport choices %v", filter(got, "a3"))
	}
	for _, dest := range []string{"a8", "j3"} {
		s2 := play(t, s, "Rd3-a3@"+dest)
		if cell(s2, dest) != "R" || cell(s2, "a3") != "" {
			t.Errorf("Rd3-a3@%s: the Commander is not on %s", dest, dest)
		}
	}
}

func TestT4_1_BothDestinationsOccupiedStays(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "f'a8", "Fj3", "ae10")
	wantMoves(t, s, "d3", "Rd3-d4", "Rd3-d5", "Rd3-d6", "Rd3-d7", "Rd3-d8", "Rd3-d9", "Rd3-d10",
		"Rd3-d2", "Rd3-d1", "Rd3-c3", "Rd3-b3", "Rd3-a3", "Rd3-e3", "Rd3-f3", "Rd3-g3", "Rd3-h3", "Rd3-i3")
	m := mustParse(t, s, "Rd3-a3")
	if m.Aux != rules.NoSquare {
		t.Errorf("the stay move has destination %s", board.Name(m.Aux))
	}
	s2 := play(t, s, "Rd3-a3")
	if cell(s2, "a3") != "R" {
		t.Errorf("the Commander should stay on a3")
	}
	// T4.2: once a destination frees up it is still not carried: transport
	// happens only on arrival.
	s3 := play(t, s2, "Fa8-b7")
	if cell(s3, "a3") != "R" || cell(s3, "a8") != "" {
		t.Errorf("the Commander on a3 moved by itself")
	}
	wantErr(t, s, "Rd3-a3@a8", rules.Illegal, "T4.1", "a8 is occupied")
}

func TestT4_1_NeverCarriedBack(t *testing.T) {
	// From a8 down to a3: a8 is free once the Commander left it, but it is
	// the square the move started on.
	s := setup(t, "w", "Af1", "Ra8", "Fj3", "ae10", "f'e6")
	got := filter(from(t, s, "a8"), "a3")
	if !reflect.DeepEqual(got, []string{"Ra8-a3"}) {
		t.Errorf("moves to a3: %v, want [Ra8-a3] (staying)", got)
	}
	wantErr(t, s, "Ra8-a3@a8", rules.Illegal, "T4.1", "never carried back")
	// With j3 free it goes there, and only there.
	s = setup(t, "w", "Af1", "Ra8", "ae10", "f'e6")
	if got := filter(from(t, s, "a8"), "a3"); !reflect.DeepEqual(got, []string{"Ra8-a3@j3"}) {
		t.Errorf("moves to a3: %v, want [Ra8-a3@j3]", got)
	}
}

func TestT4_2_TransportIsPartOfTheMoveAndDoesNotChain(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "ae10", "f'a6")
	// Compulsory: with a free destination there is no staying on a3.
	for _, m := range filter(from(t, s, "d3"), "a3") {
		if m == "Rd3-a3" {
			t.Error("a move staying on a3 although a8 and j3 are free")
		}
	}
	s2 := play(t, s, "Rd3-a3@a8")
	// Arriving on a8 by transport does not carry it on to j8.
	if cell(s2, "a8") != "R" || cell(s2, "j8") != "" || s2.ToMove() != rules.Black || s2.Ply() != 1 {
		t.Errorf("after Rd3-a3@a8: a8 %q j8 %q, %v to move", cell(s2, "a8"), cell(s2, "j8"), s2.ToMove())
	}
	// A Fighter's two-step never lands on a transporter from the start,
	// but its single step does: b2-a3 is transported like any move.
	s3 := start(t)
	wantMoves(t, s3, "b9", "Fb9-a8@a3", "Fb9-a8@j8")
}

func TestT4_3_LegalityJudgedAfterTransport(t *testing.T) {
	// The Admiral steps onto a3, which Black's Assistant on c5 attacks, and
	// is carried away: legal. j3 is watched by Black's Commander on j6, so
	// only the transport to a8 is legal.
	s := setup(t, "w", "Ab3", "F'i4", "bc5", "rj6", "ae10")
	if got := filter(from(t, s, "b3"), "a3"); !reflect.DeepEqual(got, []string{"Ab3-a3@a8"}) {
		t.Errorf("Admiral to a3: %v, want [Ab3-a3@a8]", got)
	}
	wantErr(t, s, "Ab3-a3@j3", rules.Illegal, "T4.3", "Admiral would be in check")
	// The short form has only one legal reading.
	if got := s.Format(mustParse(t, s, "Ab3-a3")); got != "Ab3-a3@a8" {
		t.Errorf("Ab3-a3 read as %s", got)
	}
}

// T5: promotion.

func TestT5_PromotionChain(t *testing.T) {
	s := setup(t, "w", "Af1", "F'c8", "Se8", "Mg8", "ae10", "ic9", "f'a4")
	wantMoves(t, s, "c8", "Fc8-b9=S", "Fc8-d9=S")
	wantMoves(t, s, "e8", "Se8-d9=M", "Se8-f9=M", "Se8-d7", "Se8-f7")
	wantMoves(t, s, "g8", "Mg8-f9=D", "Mg8-g9=D", "Mg8-h9=D", "Mg8-f8", "Mg8-h8", "Mg8-f7", "Mg8-g7", "Mg8-h7")
	s2 := play(t, s, "Fc8-d9=S")
	if cell(s2, "d9") != "S+" {
		t.Errorf("d9 shows %q, want S+", cell(s2, "d9"))
	}
	// Black promotes on arriving in White's camp.
	s = setup(t, "b", "Af1", "F'a4", "ae10", "f'd3", "se4", "mh3")
	wantMoves(t, s, "d3", "Fd3-c2=S", "Fd3-e2=S")
	wantMoves(t, s, "h3", "Mh3-g2=D", "Mh3-h2=D", "Mh3-i2=D", "Mh3-g3", "Mh3-i3", "Mh3-g4", "Mh3-h4", "Mh3-i4")
}

func TestT5_PromotionCompulsory(t *testing.T) {
	s := setup(t, "w", "Af1", "F'c8", "ae10", "f'a4")
	m := mustParse(t, s, "Fc8-d9")
	if s.Format(m) != "Fc8-d9=S" {
		t.Errorf("Fc8-d9 read as %s", s.Format(m))
	}
	wantErr(t, s, "Fc8-d9=M", rules.Illegal, "T5", "becomes a Super Fighter")
}

func TestT5_PromotedPieceNeverPromotesAgain(t *testing.T) {
	// A Super Fighter born of a Fighter (S+) moving in the camp stays one.
	s := setup(t, "w", "Af1", "S+e8", "M+g8", "ae10", "f'a4")
	wantMoves(t, s, "e8", "Se8-d9", "Se8-f9", "Se8-d7", "Se8-f7")
	wantMoves(t, s, "g8", "Mg8-f9", "Mg8-g9", "Mg8-h9", "Mg8-f8", "Mg8-h8", "Mg8-f7", "Mg8-g7", "Mg8-h7")
	wantErr(t, s, "Se8-d9=M", rules.Illegal, "T5", "promotes only once")
	// Played out: a Fighter promotes on d9, then moves on to e10 unchanged.
	s2 := play(t, setup(t, "w", "Af1", "F'c8", "ae10", "f'a5", "ig6"), "Fc8-d9=S", "Ig6-h6", "Sd9-c8", "Ih6-g6", "Sc8-d9")
	if cell(s2, "d9") != "S+" {
		t.Errorf("d9 shows %q, want S+ (not promoted again)", cell(s2, "d9"))
	}
}

func TestT5_TransportNeverPromotes(t *testing.T) {
	// Transporter squares lie on ranks 3 and 8, outside the camps: a Fighter
	// carried to a8 or j8 stays a Fighter.
	s := setup(t, "w", "Af1", "F'b7", "ae10", "f'e5")
	wantMoves(t, s, "b7", "Fb7-a8@a3", "Fb7-a8@j8", "Fb7-c8")
	s2 := play(t, s, "Fb7-a8@j8")
	if cell(s2, "j8") != "F" {
		t.Errorf("j8 shows %q, want F", cell(s2, "j8"))
	}
}

// T6: the end.

func TestT6_Checkmate(t *testing.T) {
	s := setup(t, "w", "Af1", "Ra4", "Re3", "Bf6", "Bh8", "ad10", "f'a6")
	s2, rep, err := s.Apply(mustParse(t, s, "Ra4-d4"))
	if err != nil {
		t.Fatal(err)
	}
	want := rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "checkmate", Ruling: "T6"}
	if s2.Outcome() != want || len(s2.Moves()) != 0 {
		t.Errorf("outcome %+v, want %+v", s2.Outcome(), want)
	}
	if rep.Record[rules.ViewReferee] != "Ra4-d4#" {
		t.Errorf("record %q", rep.Record[rules.ViewReferee])
	}
	wantErr(t, s2, "fa6-b5", rules.GameOver, "T6", "checkmate")
}

func TestT6_NoLegalMoveLoses(t *testing.T) {
	// Black is not in check but cannot move: Black loses (no stalemate).
	s := setup(t, "b", "Af1", "Re3", "Rh9", "Bb6", "Bh8", "F'i4", "ad10", "f'j5")
	if s.pos.inCheck() {
		t.Fatal("Black should not be in check")
	}
	want := rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "Black has no legal move (there is no stalemate)", Ruling: "T6"}
	if s.Outcome() != want {
		t.Errorf("outcome %+v, want %+v", s.Outcome(), want)
	}
	// The same with a free Interference: it must move, and the game goes on.
	s = setup(t, "b", "Af1", "Re3", "Rh9", "Bb6", "Bh8", "F'i4", "ad10", "f'j5", "ia6")
	if s.Outcome().Over() || len(s.Moves()) != 8 {
		t.Errorf("with an Interference: %+v, %d moves", s.Outcome(), len(s.Moves()))
	}
}

func TestT6_BareAdmiralLoses(t *testing.T) {
	// Black keeps its Interference, which does not count.
	s := setup(t, "w", "Af1", "Rc3", "ae10", "ig6", "f'c5")
	s2 := play(t, s, "Rc3xc5")
	want := rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "Black is reduced to a bare Admiral", Ruling: "T6"}
	if s2.Outcome() != want || len(s2.Moves()) != 0 {
		t.Errorf("outcome %+v, want %+v", s2.Outcome(), want)
	}
	// A position with a bare side is over at once.
	s = setup(t, "b", "Af1", "Id5", "ae10", "f'c5")
	if o := s.Outcome(); o.Status != rules.Win || o.Winner != rules.Black {
		t.Errorf("bare White Admiral: %+v", o)
	}
}

func TestT6_FiftyMoveDraw(t *testing.T) {
	base := layout(t, "w", "Af1", "Rc3", "ae10", "rh8")
	s, err := Variant.New(rules.Options{Position: base + " 98 200"})
	if err != nil {
		t.Fatal(err)
	}
	s2 := play(t, s, "Rc3-c4")
	if s2.Outcome().Over() {
		t.Fatal("over after 99 half-moves")
	}
	s3 := play(t, s2, "Rh8-h7")
	want := rules.Outcome{Status: rules.Draw, Reason: "50 moves each without a capture or a Fighter move", Ruling: "T6"}
	if s3.Outcome() != want {
		t.Errorf("outcome %+v, want %+v", s3.Outcome(), want)
	}
	// A Fighter move restarts the count.
	s, _ = Variant.New(rules.Options{Position: layout(t, "w", "Af1", "F'c3", "ae10", "rh8") + " 99"})
	if s4 := play(t, s, "Fc3-d4"); s4.(*State).clock != 0 || s4.Outcome().Over() {
		t.Errorf("a Fighter move should reset the count")
	}
}

func TestT6_ThreefoldRepetition(t *testing.T) {
	s := rules.State(start(t))
	shuffle := []string{"Ig6-h6", "Id5-e5", "Ih6-g6", "Ie5-d5"}
	s = play(t, s, shuffle...)
	if s.Outcome().Over() {
		t.Fatal("over after the second occurrence")
	}
	s = play(t, s, shuffle[:3]...)
	if s.Outcome().Over() {
		t.Fatal("over too early")
	}
	s = play(t, s, shuffle[3])
	want := rules.Outcome{Status: rules.Draw, Reason: "threefold repetition", Ruling: "T6"}
	if s.Outcome() != want {
		t.Errorf("outcome %+v, want %+v", s.Outcome(), want)
	}
}

// T7: notation.

func TestT7_Notation(t *testing.T) {
	cases := []struct {
		pos  *State
		text string
	}{
		{setup(t, "w", "Af1", "Rd1", "ae10", "f'a6"), "Rd1-d7"},
		{setup(t, "w", "Af1", "Cd4", "F'd5", "rd8", "ae10"), "Cd4xd8"},
		{setup(t, "w", "Af1", "Fb2", "ae10", "f'a6"), "Fb2-c3"},
		{start(t).mustPlay(t, "Fc8-b7"), "Id5-h5"},
		{setup(t, "w", "Af1", "Rd3", "ae10", "f'a6"), "Rd3-a3@a8"},
		{setup(t, "w", "Af1", "F'c8", "ae10", "f'a6"), "Fc8-d9=S"},
	}
	for _, c := range cases {
		m := mustParse(t, c.pos, c.text)
		if got := c.pos.Format(m); got != c.text {
			t.Errorf("%s formats as %s", c.text, got)
		}
		for _, variant := range []string{strings.ToLower(c.text), strings.ReplaceAll(c.text, "-", " "),
			strings.NewReplacer("-", "", "x", "").Replace(c.text), c.text + "+"} {
			if m2, err := c.pos.Parse(variant); err != nil || m2 != m {
				t.Errorf("%q: %v, want %s", variant, err, c.text)
			}
		}
	}
	// Shortenings: the square reached with the piece letter.
	s := setup(t, "w", "Af1", "Rd3", "ae10", "f'a6")
	if got := s.Format(mustParse(t, s, "Ra3@a8")); got != "Rd3-a3@a8" {
		t.Errorf("Ra3@a8 read as %s", got)
	}
}

func TestT7_AmbiguousTransportListsBoth(t *testing.T) {
	s := setup(t, "w", "Af1", "Rd3", "ae10", "f'a6")
	me := moveErr(t, s, "Rd3-a3")
	if me.Kind != rules.Ambiguous || !reflect.DeepEqual(me.Options, []string{"Rd3-a3@a8", "Rd3-a3@j3"}) {
		t.Errorf("Rd3-a3: %v %v, want ambiguous between Rd3-a3@a8 and Rd3-a3@j3", me.Kind, me.Options)
	}
	if !strings.Contains(me.Player(), "Rd3-a3@a8 or Rd3-a3@j3") {
		t.Errorf("message %q does not list both", me.Player())
	}
	// Only one free: the short form is that move.
	s = setup(t, "w", "Af1", "Rd3", "ae10", "f'j3")
	if got := s.Format(mustParse(t, s, "Rd3-a3")); got != "Rd3-a3@a8" {
		t.Errorf("Rd3-a3 read as %s", got)
	}
	// A destination that is not opposite.
	wantErr(t, s, "Rd3-a3@j8", rules.Illegal, "T4.1", "a8 or j3 only")
	wantErr(t, s, "Rd3-d5@a8", rules.Illegal, "T4.1", "not a transporter square")
}

func TestT7_Errors(t *testing.T) {
	s := start(t)
	wantErr(t, s, "hello", rules.Unreadable, "T7", "write a move")
	wantErr(t, s, "Rd4-d6", rules.Illegal, "", "there is no piece on d4")
	wantErr(t, s, "Ra1-a2", rules.Illegal, "T1.1", "a1 is not a square of the board")
	wantErr(t, s, "Rg10-j10", rules.Illegal, "T1.1", "j10 is not a square")
	wantErr(t, s, "Re10-e9", rules.Illegal, "T2", "your Admiral, not a Commander")
	wantErr(t, s, "Rg10-g9", rules.Illegal, "T2", "cannot capture your own First Mate")
	me := moveErr(t, s, "Fc8-c7")
	if len(me.Options) == 0 {
		t.Error("no nearest moves offered")
	}
}

func filter(list []string, to string) []string {
	var out []string
	for _, m := range list {
		if strings.Contains(m, "-"+to) || strings.Contains(m, "x"+to) {
			out = append(out, m)
		}
	}
	return out
}

func mustParse(t testing.TB, s rules.State, text string) rules.Move {
	t.Helper()
	m, err := s.Parse(text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return m
}

func (s *State) mustPlay(t testing.TB, moves ...string) *State {
	t.Helper()
	return play(t, s, moves...).(*State)
}
