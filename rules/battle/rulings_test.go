package battle

// One named test per ruling (C1–C6, docs/variants/chess-battle.md),
// with positions set up explicitly.

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func TestC1_1_TheCrossHas128Squares(t *testing.T) {
	if board.Count() != 128 {
		t.Fatalf("%d squares, want 128", board.Count())
	}
	for f := range 12 {
		for r := range 12 {
			if got := board.At(f, r) != rules.NoSquare; got != refExists(f, r) {
				t.Errorf("%s exists: %v", refName(f, r), got)
			}
		}
	}
	s := start(t)
	refused(t, s, "Sc2-b1", "b1 is not a square", "C1.1")
	refused(t, s, "Sj2-k2", "k2 is not a square", "C1.1")
	if !has(s, "Sc2-b3") || !has(s, "Sj2-k3") {
		t.Error("the soldiers on c2 and j2 should step out to b3 and k3")
	}
}

func TestC1_2_SquareColours(t *testing.T) {
	for _, sq := range []string{"c1", "a3", "c3", "e1", "d10", "c11", "b4"} {
		if !board.Has(board.MustParse(sq), rules.MarkDark) {
			t.Errorf("%s should be dark", sq)
		}
	}
	for _, sq := range []string{"d1", "c2", "d3", "j3", "c10", "j11", "a4"} {
		if board.Has(board.MustParse(sq), rules.MarkDark) {
			t.Errorf("%s should be light", sq)
		}
	}
	// The two-square soldier move depends on the colour (C2): from the
	// start, d3 (light) may step two, e3 (dark) may not.
	s := start(t)
	wantMoves(t, "soldier d3 (light)", from(s, "d3"), "Sd3-b5", "Sd3-c4", "Sd3-d4", "Sd3-d5", "Sd3-e4", "Sd3-f5")
	wantMoves(t, "soldier e3 (dark)", from(s, "e3"), "Se3-d4", "Se3-e4", "Se3-f4")
	refused(t, s, "Se3-e5", "only from a light square, and e3 is dark", "C1.2")
}

func TestC1_3_WhiteAndRedWhiteFirst(t *testing.T) {
	if Variant.Sides() != [2]string{"White", "Red"} {
		t.Fatalf("sides %v", Variant.Sides())
	}
	s := start(t)
	if s.ToMove() != rules.White {
		t.Fatal("Red moves first")
	}
	refused(t, s, "Sd10-d9", "the soldier on d10 is Red's; White is to move", "C1.3")
	s, _ = play(t, s, "Sd3-d4")
	if s.ToMove() != rules.Black || !has(s, "Sd10-d9") {
		t.Error("Red should move second")
	}
	v, err := rules.ParseViewer("red", Variant.Sides()[0], Variant.Sides()[1])
	if err != nil || v != rules.ViewBlack {
		t.Fatalf("viewer red: %v %v", v, err)
	}
	if txt := s.View(v).ASCII(); !strings.Contains(txt, "as Red sees it") || !strings.Contains(txt, "  1     G C M H B M C G     1") {
		t.Errorf("Red's view is not turned:\n%s", txt)
	}
}

func TestC1_4_Setup(t *testing.T) {
	s := start(t)
	want := map[string]string{
		"c1": "G", "d1": "C", "e1": "M", "f1": "B", "g1": "H", "h1": "M", "i1": "C", "j1": "G", "g2": "T",
		"c12": "g", "d12": "c", "e12": "m", "f12": "b", "g12": "h", "h12": "m", "i12": "c", "j12": "g", "g11": "t",
	}
	for _, f := range "cdefhij" {
		want[string(f)+"2"], want[string(f)+"11"] = "S", "s"
	}
	for _, f := range "cdefghij" {
		want[string(f)+"3"], want[string(f)+"10"] = "S", "s"
	}
	n := 0
	for _, sq := range board.Squares() {
		name := board.Name(sq)
		if got := at(s, name); got != want[name] {
			t.Errorf("%s holds %q, want %q", name, got, want[name])
		}
		if at(s, name) != "" {
			n++
		}
	}
	if n != 48 {
		t.Errorf("%d pieces, want 24 a side", n)
	}
	if s.Position() != StartPosition {
		t.Errorf("start position %q", s.Position())
	}
	// Red mirrors White on the same files, so its soldiers stand on the
	// other colour: c10 (light) may step two, d10 (dark) may not.
	s, _ = play(t, s, "Cd1-c4")
	wantMoves(t, "Red soldier c10 (light)", from(s, "c10"),
		"Sc10-a10", "Sc10-a8", "Sc10-b10", "Sc10-b9", "Sc10-c8", "Sc10-c9", "Sc10-d9", "Sc10-e8")
	wantMoves(t, "Red soldier d10 (dark)", from(s, "d10"), "Sd10-c9", "Sd10-d9", "Sd10-e9")
}

func TestC1_5_MissingSquaresEndLines(t *testing.T) {
	s := setUp(t, "w", "Hg1 Gc1 Cd1 Sj1 Bj12 hc11 sa3 sl3 sl10")
	wantMoves(t, "gun c1", from(s, "c1"), "Gc1-c2", "Gc1-d2")
	refused(t, s, "Gc1!a3", "a missing square ends every line", "C1.5")
	wantMoves(t, "soldier j1 (light)", from(s, "j1"), "Sj1-h1", "Sj1-h3", "Sj1-i1", "Sj1-i2", "Sj1-j2", "Sj1-j3")
	refused(t, s, "Sj1-l3", "a missing square ends every line", "C1.5")
	refused(t, s, "Bj12xl10", "a missing square ends every line", "C1.5")
	// Only leaps cross the gaps.
	if !has(s, "Cd1xa3") {
		t.Error("the cavalry should leap from d1 over the gap to a3")
	}
}

func TestC2_HeadquarterIsRoyal(t *testing.T) {
	// A machine-gun on e4 covers g2 and h1 (C3.3, C3.4).
	s := setUp(t, "w", "Hg1 hj12 me4")
	wantMoves(t, "headquarter", texts(s), "Hg1-f1", "Hg1-f2", "Hg1-h2")
	refused(t, s, "Hg1-g2", "would leave your headquarter on g2 attacked by the machine-gun on e4", "C3.4")
	refused(t, s, "Hg1-g3", "the headquarter moves one square", "C2")
	// It captures like a king, a tank included.
	s = setUp(t, "w", "Hg1 hj12 tg2")
	if !has(s, "Hg1xg2") {
		t.Error("the headquarter should take the tank on g2")
	}
}

func TestC2_BomberPassesOverOneFriendlyPiece(t *testing.T) {
	s := setUp(t, "w", "Hg1 Bd4 Sd5 Sd7 Se5 hi12 se4 sg7")
	wantMoves(t, "bomber", from(s, "d4"),
		"Bd4-a4", "Bd4-a7", "Bd4-b4", "Bd4-b6", "Bd4-c3", "Bd4-c4", "Bd4-c5", "Bd4-d1", "Bd4-d2", "Bd4-d3",
		"Bd4-d6", "Bd4-e3", "Bd4-f2", "Bd4-f6", "Bd4xe4", "Bd4xg7")
	refused(t, s, "Bd4-d8", "at most one friendly piece per move, and there are 2 in the way", "C2")
	refused(t, s, "Bd4-f4", "never passes over an enemy piece (the soldier on e4)", "C2")
	refused(t, s, "Bd4-h8", "never passes over an enemy piece (the soldier on g7)", "C2")
	refused(t, s, "Bd4-e6", "the bomber moves along a rank, file or diagonal", "C2")
	// Its attack passes over one friendly piece too: Red is in check.
	s = setUp(t, "r", "Hg1 Bd4 Sd6 hd9")
	if s.check != board.MustParse("d4") {
		t.Errorf("the bomber on d4 should check d9 over d6, check from %s", board.Name(s.check))
	}
	if s = setUp(t, "r", "Hg1 Bd4 Sd6 Sd7 hd9"); s.check != rules.NoSquare {
		t.Error("two friendly pieces should block the bomber's check")
	}
	if s = setUp(t, "r", "Hg1 Bd4 sd6 hd9"); s.check != rules.NoSquare {
		t.Error("an enemy piece should block the bomber's check")
	}
}

func TestC2_TankMovesOneOrTwoAndIsImmune(t *testing.T) {
	s := setUp(t, "w", "Hg1 Te5 Sd5 hj12 sf5 ce3")
	wantMoves(t, "tank", from(s, "e5"), "Te5-e4", "Te5-e6", "Te5-e7", "Te5xe3", "Te5xf5")
	refused(t, s, "Te5-c5", "the tank's way is blocked by the soldier on d5", "C2")
	refused(t, s, "Te5-g5", "the tank's way is blocked by the soldier on f5", "C2")
	refused(t, s, "Te5-e8", "one or two squares along a rank or file", "C2")
	refused(t, s, "Te5-f6", "one or two squares along a rank or file", "C2")
	// Immune to machine-gun, cavalry and soldier; not to gun or tank.
	s = setUp(t, "r", "Hg1 Te5 hj12 me7 cd8 sf6 gb5 te3")
	for _, ok := range []string{"Gb5!e5", "Te3xe5"} {
		if !has(s, ok) {
			t.Errorf("%s should take the tank", ok)
		}
	}
	refused(t, s, "Me7!e5", "a machine-gun never shoots at a tank", "C3.3")
	refused(t, s, "Cd8xe5", "a tank cannot be captured by a cavalry", "C2")
	refused(t, s, "Sf6xe5", "a tank cannot be captured by a soldier", "C2")
}

func TestC2_GunsAndMachineGunsMoveWithoutCapturing(t *testing.T) {
	s := setUp(t, "w", "Hg1 Gd4 Me6 hj12 sd5 se7")
	wantMoves(t, "gun", from(s, "d4"), "Gd4!d5", "Gd4-c3", "Gd4-c4", "Gd4-c5", "Gd4-d3", "Gd4-e3", "Gd4-e4", "Gd4-e5")
	wantMoves(t, "machine-gun", from(s, "e6"), "Me6!d5", "Me6!e7", "Me6-d6", "Me6-d7", "Me6-e5", "Me6-f5", "Me6-f6", "Me6-f7")
	refused(t, s, "Gd4xd5", "a gun never captures by moving; it shoots from where it stands, e.g. Gd4!d5", "C2")
	refused(t, s, "Me6xe7", "a machine-gun never captures by moving", "C2")
	refused(t, s, "Gd4-d6", "a gun moves one square in any direction", "C2")
	refused(t, s, "Cd4-d5", "the piece on d4 is a gun (G), not a cavalry (C)", "C6")
}

func TestC2_CavalryLeaps(t *testing.T) {
	s := setUp(t, "w", "Hg1 Cf6 Se8 hj12 tg9 si8")
	wantMoves(t, "cavalry f6", from(s, "f6"),
		"Cf6-c4", "Cf6-c5", "Cf6-c7", "Cf6-c8", "Cf6-d3", "Cf6-d5", "Cf6-d7", "Cf6-d9", "Cf6-e3", "Cf6-e4",
		"Cf6-e9", "Cf6-g3", "Cf6-g4", "Cf6-g8", "Cf6-h3", "Cf6-h5", "Cf6-h7", "Cf6-h9", "Cf6-i4", "Cf6-i5",
		"Cf6-i7", "Cf6xi8")
	refused(t, s, "Cf6xg9", "a tank cannot be captured by a cavalry", "C2")
	refused(t, s, "Cf6-f8", "a cavalry leaps (1,2), (1,3) or (2,3)", "C2")
	// The seed's example from a1 (with b4 for its slip b2), two ranks up
	// since a1 is no square here: from a3, b5 b6 c4 c6 d4 d5, and c2 d1 d2.
	s = setUp(t, "w", "Hg1 Ca3 hj12")
	wantMoves(t, "cavalry a3", from(s, "a3"), "Ca3-b5", "Ca3-b6", "Ca3-c2", "Ca3-c4", "Ca3-c6", "Ca3-d1", "Ca3-d2", "Ca3-d4", "Ca3-d5")
}

func TestC2_SoldierMoves(t *testing.T) {
	s := setUp(t, "w", "Hg1 Sd5 hj12")
	wantMoves(t, "soldier on light d5", from(s, "d5"),
		"Sd5-b3", "Sd5-b5", "Sd5-b7", "Sd5-c4", "Sd5-c5", "Sd5-c6", "Sd5-d3", "Sd5-d4",
		"Sd5-d6", "Sd5-d7", "Sd5-e4", "Sd5-e5", "Sd5-e6", "Sd5-f3", "Sd5-f5", "Sd5-f7")

	s = setUp(t, "w", "Hg1 Se5 hj12")
	wantMoves(t, "soldier on dark e5", from(s, "e5"),
		"Se5-d4", "Se5-d5", "Se5-d6", "Se5-e4", "Se5-e6", "Se5-f4", "Se5-f5", "Se5-f6")
	refused(t, s, "Se5-e7", "a soldier steps two squares only from a light square, and e5 is dark", "C1.2")

	s = setUp(t, "w", "Hg1 Sd5 Cd6 hj12 sd7 sf7")
	refused(t, s, "Sd5-d7", "the soldier cannot pass over the cavalry on d6", "C2")
	refused(t, s, "Sd5xf7", "a soldier never captures with a two-square move", "C2")

	// Captures: sideways, straight forward, diagonally forward; never back.
	s = setUp(t, "w", "Hg1 Se5 hj12 sd6 se6 sf6 sd5 sf5 sd4 se4 sf4")
	wantMoves(t, "White soldier e5", from(s, "e5"), "Se5xd5", "Se5xd6", "Se5xe6", "Se5xf5", "Se5xf6")
	refused(t, s, "Se5xe4", "a soldier captures only one square sideways, straight forward or diagonally forward", "C2")
	refused(t, s, "Se5xf4", "a soldier captures only one square sideways", "C2")
	// Red's forward is down the board.
	s = setUp(t, "r", "Hg1 Sd5 Se5 Sf5 Sd6 Sf6 Sd7 Se7 Sf7 hj12 se6")
	wantMoves(t, "Red soldier e6", from(s, "e6"), "Se6xd5", "Se6xd6", "Se6xe5", "Se6xf5", "Se6xf6")
	refused(t, s, "Se6xe7", "a soldier captures only one square sideways", "C2")
}

func TestC3_1_AShotIsAWholeMove(t *testing.T) {
	s := setUp(t, "w", "Hg1 Gc4 hj12 sc8 mh4")
	next, rep := play(t, s, "Gc4!c8")
	if at(next, "c4") != "G" || at(next, "c8") != "" || next.ToMove() != rules.Black || next.pos.quiet != 0 {
		t.Errorf("after the shot: c4 %q, c8 %q, to move %v, quiet %d", at(next, "c4"), at(next, "c8"), next.ToMove(), next.pos.quiet)
	}
	if rep.Record[rules.ViewReferee] != "Gc4!c8" || !strings.Contains(strings.Join(rep.English(rules.ViewPublic), " "), "White's gun on c4 shot Red's soldier on c8 (C3).") {
		t.Errorf("report %+v", rep)
	}
	s = setUp(t, "w", "Hg1 Gc4 Sd4 hj12 sc6 sc8 mh4")
	wantMoves(t, "shots of the gun on c4", shots(s, "c4"), "Gc4!c6")
	refused(t, s, "Gc4!c8", "the line of fire is blocked by the soldier on c6", "C3.1")
	refused(t, s, "Gc4!c7", "there is no piece on c7 to shoot", "C3.1")
	refused(t, s, "Gc4!d4", "shoot only at enemy pieces", "C3.1")
	refused(t, s, "Sd4!d5", "only guns and machine-guns shoot", "C3")
}

// shots lists the shots from a square.
func shots(s *State, sq string) []string {
	var out []string
	for _, m := range from(s, sq) {
		if strings.Contains(m, "!") {
			out = append(out, m)
		}
	}
	return out
}

func TestC3_2_GunFiresFiveSquaresSidewaysAndForward(t *testing.T) {
	s := setUp(t, "w", "Hg1 Gf5 hj12 sf10 sa5 sl5 sk10 sa10 sf3 sd3 sh3")
	wantMoves(t, "White gun f5", shots(s, "f5"), "Gf5!a10", "Gf5!a5", "Gf5!f10", "Gf5!k10")
	refused(t, s, "Gf5!l5", "a gun shoots up to 5 squares left, right, straight forward or diagonally forward", "C3.2")
	refused(t, s, "Gf5!f3", "a gun shoots up to 5 squares", "C3.2")
	refused(t, s, "Gf5!h3", "a gun shoots up to 5 squares", "C3.2")
	// Red's gun fires down the board.
	s = setUp(t, "r", "Hg1 Sf3 Sa3 Sk3 Sa8 Sl8 Sf10 hj12 gf8")
	wantMoves(t, "Red gun f8", shots(s, "f8"), "Gf8!a3", "Gf8!a8", "Gf8!f3", "Gf8!k3")
	refused(t, s, "Gf8!f10", "a gun shoots up to 5 squares", "C3.2")
}

func TestC3_3_MachineGunFiresThreeSquaresNeverAtATank(t *testing.T) {
	s := setUp(t, "w", "Hg1 Mf5 hj12 sf8 cf1 sc2 th7 sd5 se6 sd7")
	wantMoves(t, "machine-gun f5", shots(s, "f5"), "Mf5!c2", "Mf5!d5", "Mf5!e6", "Mf5!f8")
	refused(t, s, "Mf5!h7", "a machine-gun never shoots at a tank", "C3.3")
	refused(t, s, "Mf5!f1", "a machine-gun shoots up to 3 squares", "C3.3")
	refused(t, s, "Mf5!d7", "the line of fire is blocked by the soldier on e6", "C3.1")
}

func TestC3_4_ShotsGiveCheck(t *testing.T) {
	// A gun's shot that clears its own line checks the headquarter.
	s := setUp(t, "w", "Hg1 Ge4 se6 he8")
	if s.check != rules.NoSquare {
		t.Fatal("no check yet")
	}
	s, rep := play(t, s, "Ge4!e6")
	if s.check != board.MustParse("e4") || rep.Record[rules.ViewReferee] != "Ge4!e6+" {
		t.Errorf("after Ge4!e6: check from %s, record %q", board.Name(s.check), rep.Record[rules.ViewReferee])
	}
	if !strings.Contains(strings.Join(rep.English(rules.ViewBlack), " "), "Red's headquarter is in check from e4") {
		t.Errorf("notices %v", rep.English(rules.ViewBlack))
	}
	// Red must leave the line of fire, which reaches five squares: e9 too.
	wantMoves(t, "Red's answers", texts(s), "He8-d7", "He8-d8", "He8-d9", "He8-f7", "He8-f8", "He8-f9")
	refused(t, s, "He8-e7", "would leave your headquarter on e7 attacked by the gun on e4", "C3.4")
	refused(t, s, "He8-e9", "would leave your headquarter on e9 attacked by the gun on e4", "C3.4")

	// A gun moving into line checks too; so does a machine-gun, which pins.
	s = setUp(t, "w", "Hg1 Ge3 he9")
	s, rep = play(t, s, "Ge3-e4")
	if s.check == rules.NoSquare || rep.Record[rules.ViewReferee] != "Ge3-e4+" {
		t.Errorf("Ge3-e4 should check e9: record %q", rep.Record[rules.ViewReferee])
	}
	s = setUp(t, "r", "Hg1 Md5 hd8 sd7 ca10")
	refused(t, s, "Sd7-c6", "would leave your headquarter on d8 attacked by the machine-gun on d5", "C3.4")
	if !has(s, "Sd7-d6") {
		t.Error("the pinned soldier may stay in the line of fire")
	}
}

func TestC4_SoldierAtTheFarEnd(t *testing.T) {
	s := setUp(t, "w", "Hg1 Sd11 hj12 gh9 ce12 sa5")
	wantMoves(t, "soldier d11", from(s, "d11"),
		"Sd11-b9", "Sd11-c10", "Sd11-c11", "Sd11-c12^a5", "Sd11-c12^e12", "Sd11-c12^h9",
		"Sd11-d10", "Sd11-d12^a5", "Sd11-d12^e12", "Sd11-d12^h9", "Sd11-d9",
		"Sd11-e10", "Sd11-e11", "Sd11-f11", "Sd11-f9", "Sd11xe12^a5", "Sd11xe12^h9")

	next, rep := play(t, s, "Sd11-d12^h9")
	if at(next, "d11") != "" || at(next, "d12") != "" || at(next, "h9") != "" || at(next, "e12") != "c" || at(next, "a5") != "s" {
		t.Errorf("after Sd11-d12^h9:\n%s", next.View(rules.ViewReferee).ASCII())
	}
	if rep.Record[rules.ViewReferee] != "Sd11-d12^h9" || !strings.Contains(strings.Join(rep.English(rules.ViewReferee), " "),
		"White's soldier reached d12 and left the board; White removed Red's gun on h9 (C4).") {
		t.Errorf("report %+v", rep)
	}
	next, _ = play(t, s, "Sd11xe12^h9")
	if at(next, "e12") != "" || at(next, "h9") != "" || at(next, "a5") != "s" {
		t.Errorf("after Sd11xe12^h9:\n%s", next.View(rules.ViewReferee).ASCII())
	}

	refused(t, s, "Sd11-d12^j12", "the headquarter cannot be removed", "C4")
	refused(t, s, "Sd11-d12^h8", "there is no piece on h8 to remove", "C4")
	refused(t, s, "Sd11-d12^g1", "the headquarter on g1 is your own", "C4")
	refused(t, s, "Sd11-d12", "name it with ^, e.g. Sd11-d12^a5", "C4")
	refused(t, s, "Sd11xe12^e12", "the cavalry on e12 is the piece you capture", "C4")
	refused(t, s, "Sd11-d10^h9", "only a soldier that reaches the far end removes", "C4")

	// With nothing but the headquarter left, the soldier simply leaves.
	s = setUp(t, "w", "Hg1 Sd11 hj12")
	var arrivals []string
	for _, m := range from(s, "d11") {
		if strings.HasSuffix(m, "12") {
			arrivals = append(arrivals, m)
		}
	}
	wantMoves(t, "arrivals without a choice", arrivals, "Sd11-c12", "Sd11-d12", "Sd11-e12")
	refused(t, s, "Sd11-d12^j12", "Red has nothing but the headquarter, which cannot be removed: write Sd11-d12", "C4")
	next, rep = play(t, s, "Sd11-d12")
	if at(next, "d12") != "" || !strings.Contains(strings.Join(rep.English(rules.ViewWhite), " "), "nothing else is removed (C4)") {
		t.Errorf("after Sd11-d12: %v", rep.English(rules.ViewWhite))
	}

	// The removal may resolve a check...
	s = setUp(t, "w", "Hg1 Sf11 hj12 gg5")
	wantMoves(t, "in check from g5", texts(s), "Hg1-f1", "Hg1-f2", "Hg1-h1", "Hg1-h2", "Sf11-e12^g5", "Sf11-f12^g5", "Sf11-g12^g5")
	// ...and leaving the board may expose one, unless the removal answers it.
	s = setUp(t, "w", "He10 Se11 hj12 ge12 sa5")
	wantMoves(t, "shielding soldier", from(s, "e11"), "Se11-d12^e12", "Se11-f12^e12", "Se11xe12^a5")
	refused(t, s, "Se11-d12^a5", "would leave your headquarter on e10 attacked by the gun on e12", "C3.4")

	// Red arrives on rank 1.
	s = setUp(t, "r", "Hg1 Ma5 hj12 se2")
	wantMoves(t, "Red soldier e2", from(s, "e2"), "Se2-d1^a5", "Se2-d2", "Se2-d3", "Se2-e1^a5", "Se2-e3", "Se2-e4", "Se2-f1^a5", "Se2-f2", "Se2-f3", "Se2-c4", "Se2-g4", "Se2-c2", "Se2-g2")
}

func TestC5_EndOfGame(t *testing.T) {
	t.Run("checkmate", func(t *testing.T) {
		s := setUp(t, "w", "Hg1 Ce6 hg12 sf11 sg11 sh11 gf12 mh12")
		s, rep := play(t, s, "Ce6-f9")
		o := s.Outcome()
		if o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" || o.Ruling != "C5" {
			t.Errorf("outcome %+v", o)
		}
		if rep.Record[rules.ViewReferee] != "Ce6-f9#" || len(s.Moves()) != 0 {
			t.Errorf("record %q, %d moves", rep.Record[rules.ViewReferee], len(s.Moves()))
		}
		_, err := s.Parse("Hg12-g13")
		var me *rules.MoveError
		if !errorAs(err, &me) || me.Kind != rules.GameOver || !strings.Contains(me.Reason, "White wins: checkmate (C5)") {
			t.Errorf("a move after the mate: %v", err)
		}
	})
	t.Run("stalemate", func(t *testing.T) {
		s := setUp(t, "w", "Hg1 Te9 Cg10 hc12")
		s, _ = play(t, s, "Te9-e11")
		if o := s.Outcome(); o.Status != rules.Draw || o.Reason != "stalemate" || o.Ruling != "C5" {
			t.Errorf("outcome %+v", o)
		}
	})
	t.Run("threefold repetition", func(t *testing.T) {
		moves := []string{"Cd1-e4", "Cd12-e9", "Ce4-d1", "Ce9-d12", "Cd1-e4", "Cd12-e9", "Ce4-d1", "Ce9-d12"}
		var s rules.State = start(t)
		for i, text := range moves {
			if s.Outcome().Over() {
				t.Fatalf("over after %d moves", i)
			}
			s, _ = play(t, s.(*State), text)
		}
		if o := s.Outcome(); o.Status != rules.Draw || o.Reason != "threefold repetition" {
			t.Errorf("outcome %+v", o)
		}
	})
	t.Run("repetition across soldier moves", func(t *testing.T) {
		// Soldiers move backwards, so their moves do not end the span in
		// which a position can recur; captures and shots do.
		var s rules.State = start(t)
		for _, text := range []string{"Sd3-d4", "Sd10-d9", "Sd4-d3", "Sd9-d10", "Sd3-d4", "Sd10-d9", "Sd4-d3", "Sd9-d10"} {
			s, _ = play(t, s.(*State), text)
		}
		if o := s.Outcome(); o.Reason != "threefold repetition" {
			t.Errorf("outcome %+v", o)
		}
	})
	t.Run("50 moves", func(t *testing.T) {
		s := setUp(t, "w", "Hg1 Se4 hg12")
		s.pos.quiet = 99 // counters via the position string are tested below
		pos99 := strings.Replace(s.Position(), " 99 1", " 99 80", 1)
		st, err := Variant.New(rules.Options{Position: pos99})
		if err != nil {
			t.Fatal(err)
		}
		s = st.(*State)
		quiet, _ := play(t, s, "Hg1-g2")
		if o := quiet.Outcome(); o.Status != rules.Draw || o.Reason != "50 moves each without capture, shot or soldier move" || o.Ruling != "C5" {
			t.Errorf("after the 100th quiet ply: %+v", o)
		}
		soldier, _ := play(t, s, "Se4-e5")
		if soldier.Outcome().Over() || soldier.pos.quiet != 0 {
			t.Errorf("a soldier move should reset the count: %+v, %d", soldier.Outcome(), soldier.pos.quiet)
		}
	})
}

func TestC6_Notation(t *testing.T) {
	s := setUp(t, "w", "Hg1 Cd1 Bf1 Sd3 Sd11 Gc1 hj12 sf7 se4 sc6 gh9")
	for _, text := range []string{"Cd1xe4", "Bf1xf7", "Sd3-d4", "Sd3xe4", "Gc1!c6", "Sd11-d12^h9", "Sd11-c12^h9"} {
		m, err := s.Parse(text)
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if got := s.Format(m); got != text {
			t.Errorf("%s formats as %s", text, got)
		}
	}
	for text, want := range map[string]string{
		"sd3d4":       "Sd3-d4",
		"S d3 - d4":   "Sd3-d4",
		"d3-d4":       "Sd3-d4",
		"Sd3-d5":      "Sd3-d5",
		"sd3xe4":      "Sd3xe4",
		"Gc1!c6+":     "Gc1!c6",
		"G!c6":        "Gc1!c6",
		"c1!c6":       "Gc1!c6",
		"sd11-d12^H9": "Sd11-d12^h9",
		"Sd12^h9":     "Sd11-d12^h9",
		"Bxf7":        "Bf1xf7",
		"Bf1-f7":      "Bf1xf7",
		"Ce4":         "Cd1xe4",
	} {
		m, err := s.Parse(text)
		if err != nil || s.Format(m) != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", text, m, err, want)
		}
	}
	_, err := s.Parse("hello")
	var me *rules.MoveError
	if !errorAs(err, &me) || me.Kind != rules.Unreadable || me.Ruling != "C6" {
		t.Errorf("hello: %v", err)
	}
	_, err = start(t).Parse("Sd4")
	if !errorAs(err, &me) || me.Kind != rules.Ambiguous || strings.Join(me.Options, " ") != "Sc3-d4 Sd3-d4 Se3-d4" {
		t.Errorf("Sd4 at the start: %v", err)
	}
}
