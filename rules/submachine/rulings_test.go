package submachine

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// Board facts of M1, checked on the board the engine plays on.

func TestM1_1_FourSubBoardsAndTeleportCentres(t *testing.T) {
	// Every square of the four 5×5 sub-boards that is not a hole exists.
	for _, fr := range [][2]string{{"abcde", "1 2 4 5"}, {"ghijk", "1 2 4 5"}, {"abcde", "8 9 11 12"}, {"ghijk", "8 9 11 12"}} {
		for _, f := range fr[0] {
			for _, r := range strings.Fields(fr[1]) {
				if _, err := board.Parse(string(f) + r); err != nil {
					t.Errorf("%c%s: %v", f, r, err)
				}
			}
		}
	}
	if got := board.Names(teleports); got != "c3 i3 c10 i10" {
		t.Errorf("teleport squares %q, want the sub-board centres c3 i3 c10 i10", got)
	}
	s, _ := newGame(rules.Options{})
	v := s.View(rules.ViewReferee).ASCII()
	if !strings.Contains(v, "  3 .   o   . . .   o   . 3") || !strings.Contains(v, " 10 .   o   . . .   o   . 10") {
		t.Errorf("empty teleport squares are not marked \"o\" on ranks 3 and 10:\n%s", v)
	}
}

func TestM1_2_HolesAreNotSquares(t *testing.T) {
	for _, name := range strings.Fields("b3 d3 h3 j3 b10 d10 h10 j10") {
		if _, err := board.Parse(name); err == nil {
			t.Errorf("%s exists, want a hole", name)
		}
	}
	// A move naming a hole is answered with M1.
	s := setup(t, "w", "Kg1 Rb2 kg12")
	for _, text := range []string{"Rb2-b3", "Rb3-b4"} {
		me := parseErr(t, s, text)
		if me.Ruling != "M1" || !strings.Contains(me.Reason, "b3 is a hole") {
			t.Errorf("%s: %v, want b3 named as a hole (M1)", text, me)
		}
	}
	// And no piece may be set on one.
	if _, err := newGame(rules.Options{Position: "6k4/11/11/11/11/11/11/11/11/1R9/11/6K4 w - 0 1"}); err == nil ||
		!strings.Contains(err.Error(), "b3, a hole") {
		t.Errorf("a rook on b3 was accepted (%v)", err)
	}
}

func TestM1_3_LooseSquares(t *testing.T) {
	for _, name := range strings.Fields("f3 f10 c6 c7 i6 i7 f6 f7") {
		if _, err := board.Parse(name); err != nil {
			t.Errorf("loose square %s: %v", name, err)
		}
	}
	// They are real squares: a rook reaches f3 from e3 and a queen lands on c6.
	s := setup(t, "w", "Kg1 Re3 Qc4 kg12")
	// e3: west the hole d3; east f3 g3, then the hole h3; down e2 e1, shifted to d5 d4.
	if got, want := targets(s, "e3"), "d4 d5 e1 e2 e4 e5 f3 g3"; got != want {
		t.Errorf("rook e3 reaches %q, want %q", got, want)
	}
	if !has(s, "Qc4-c6") || !has(s, "Qc4-c7") {
		t.Errorf("queen c4 cannot reach the loose squares c6 c7: %v", from(s, "c4"))
	}
}

func TestM1_4_HundredSquares(t *testing.T) {
	want := map[int]string{
		1: "abcde ghijk", 2: "abcde ghijk", 4: "abcde ghijk", 5: "abcde ghijk",
		8: "abcde ghijk", 9: "abcde ghijk", 11: "abcde ghijk", 12: "abcde ghijk",
		3: "a c e f g i k", 10: "a c e f g i k", 6: "c f i", 7: "c f i",
	}
	n := 0
	for r := 1; r <= 12; r++ {
		var got strings.Builder
		for f := range 11 {
			if board.At(f, r-1) != rules.NoSquare {
				got.WriteString(rules.FileName(f))
				n++
			}
		}
		if w := strings.ReplaceAll(want[r], " ", ""); got.String() != w {
			t.Errorf("rank %d has files %s, want %s", r, got.String(), w)
		}
	}
	if n != 100 || board.Count() != 100 {
		t.Errorf("%d squares, want 100", n)
	}
}

// M2.1: the horizontal cylinders.

func TestM2_1_SeedRookB1ThroughA1ToE1(t *testing.T) {
	// The seed's example: "a rook can move from b1 to e1 through a1". With
	// c1 taken, the only way is west round the cylinder.
	s := setup(t, "w", "Rb1 Bc1 Kg1 kg12")
	if !has(s, "Rb1-e1") {
		t.Fatalf("Rb1-e1 is not offered: %v", from(s, "b1"))
	}
	// West a1 e1 d1 (then its own bishop); north b2 (then the hole b3);
	// south the shift to c5 and down to c2 (M2.2).
	if got, want := targets(s, "b1"), "a1 b2 c2 c3 c4 c5 d1 e1"; got != want {
		t.Errorf("rook b1 reaches %q, want %q", got, want)
	}
	// A piece on a1 closes the way: e1 and d1 are no longer reached.
	s = setup(t, "w", "Rb1 Bc1 Na1 Kg1 kg12")
	if has(s, "Rb1-e1") || has(s, "Rb1-d1") {
		t.Errorf("the rook passes its own knight on a1: %v", from(s, "b1"))
	}
	me := parseErr(t, s, "Rb1-e1")
	if me.Ruling != "M2" || !strings.Contains(me.Reason, "is blocked on") {
		t.Errorf("Rb1-e1 blocked: %v", me)
	}
}

func TestM2_1_NoWrapOnRanks3_6_7_10(t *testing.T) {
	// The seed: "a rook cannot move from a3 to e3".
	s := setup(t, "w", "Ra3 Rc6 Ra10 Kg1 kg12")
	if has(s, "Ra3-e3") || has(s, "Ra10-e10") {
		t.Errorf("a rook wraps on rank 3 or 10: %v %v", from(s, "a3"), from(s, "a10"))
	}
	if got := targets(s, "a3"); got != "a1 a2 a4 a5 b4 b5" {
		// a3 north a4 a5 (a6 missing); south a2 a1 then the shift b5 b4; east b3 is a hole.
		t.Errorf("rook a3 reaches %q", got)
	}
	if got := targets(s, "c6"); got != "c1 c10 c11 c12 c2 c3 c4 c5 c7 c8 c9" {
		t.Errorf("rook c6 reaches %q (no sideways move on rank 6)", got)
	}
}

func TestM2_1_DiagonalWrapsOnlyBetweenWrappingRanks(t *testing.T) {
	// e1 north-east wraps to a2; a3 and e2 are not neighbours.
	s := setup(t, "w", "Be1 Ka3 kg12")
	if !has(s, "Be1-a2") {
		t.Errorf("bishop e1 does not wrap to a2: %v", from(s, "e1"))
	}
	if has(s, "Ka3-e2") || has(s, "Ka3-e4") {
		t.Errorf("king a3 wraps off the unwrapped rank 3: %v", from(s, "a3"))
	}
	if got := targets(s, "a3"); got != "a2 a4 b2 b4" {
		t.Errorf("king a3 reaches %q, want a2 a4 b2 b4", got)
	}
	// e2 north-east is the loose f3 (plain, rank 3 does not wrap), then on.
	s = setup(t, "w", "Be2 Kg1 kg12")
	if got := targets(s, "e2"); !strings.Contains(got, "f3") || strings.Contains(got, "a3") {
		t.Errorf("bishop e2 reaches %q, want f3 and not a3", got)
	}
}

func TestM2_1_BishopsSeeTheWholeBoard(t *testing.T) {
	// "The wrap-arounds allow the Bishops to see the entire board": a bishop
	// changes colour round a cylinder; on an empty board it reaches every
	// square of both colours.
	reach := map[rules.Square]bool{board.MustParse("c1"): true}
	queue := []rules.Square{board.MustParse("c1")}
	p := newPos()
	for len(queue) > 0 {
		sq := queue[0]
		queue = queue[1:]
		for _, m := range p.pieceMoves(nil, sq, cellOf(rules.White, bishop)) {
			if !reach[m.To] {
				reach[m.To] = true
				queue = append(queue, m.To)
			}
		}
	}
	colours := map[int]int{}
	for sq := range reach {
		f, r := board.Coords(sq)
		colours[(f+r)%2]++
	}
	if colours[0] == 0 || colours[1] == 0 {
		t.Errorf("bishop from c1 keeps to one colour: %v", colours)
	}
	if len(reach) != 100 {
		var missed []string
		for _, sq := range board.Squares() {
			if !reach[sq] {
				missed = append(missed, board.Name(sq))
			}
		}
		t.Errorf("bishop from c1 reaches %d squares; never %v", len(reach), missed)
	}
}

func TestM2_1_SliderStopsBeforeItsOwnSquare(t *testing.T) {
	s := setup(t, "w", "Ra1 Kg1 kg12")
	rank1 := 0
	for _, m := range from(s, "a1") {
		if strings.HasSuffix(m, "1") {
			rank1++
		}
		if m == "Ra1-a1" {
			t.Errorf("the rook may come back to a1")
		}
	}
	if rank1 != 4 {
		t.Errorf("rook a1 has %d moves on rank 1, want 4 (b1 c1 d1 e1 once each): %v", rank1, from(s, "a1"))
	}
}

// M2.2: the one-way vertical shift.

func TestM2_2_SeedRookA5DownThroughA1ThenB5B4(t *testing.T) {
	// Kept from the seed: a5 down a4 a3 a2 a1, then b5 b4. Overruled: the
	// seed's b3 b2 b1 c5…c1, since b3 is a hole (M2.3).
	s := setup(t, "w", "Ra5 Bc5 Kg1 kg12")
	// Sideways: b5 (then its own bishop on c5), west round to e5 d5.
	if got, want := targets(s, "a5"), "a1 a2 a3 a4 b4 b5 d5 e5"; got != want {
		t.Errorf("rook a5 reaches %q, want %q", got, want)
	}
	for _, beyond := range []string{"b2", "b1", "c4", "c1"} {
		if has(s, "Ra5-"+beyond) {
			t.Errorf("the rook passes the hole b3 to %s (the seed's path, overruled by M2.3)", beyond)
		}
	}
}

func TestM2_2_ShiftIsOneWay(t *testing.T) {
	// b1 leads down to c5, but c5 never leads to b1.
	s := setup(t, "w", "Rc5 Kg1 kg12")
	if got := targets(s, "c5"); got != "a5 b5 c1 c10 c11 c12 c2 c3 c4 c6 c7 c8 c9 d5 e5" {
		t.Errorf("rook c5 reaches %q", got)
	}
	s = setup(t, "w", "Rb1 Kg1 kg12")
	if !has(s, "Rb1-c5") || !has(s, "Rb1-c1") {
		t.Errorf("rook b1 does not shift down to c5: %v", from(s, "b1"))
	}
	// The king follows it too: g1 steps down to h5, but not back.
	s = setup(t, "w", "Kh5 kg12")
	if has(s, "Kh5-g1") {
		t.Errorf("king h5 steps back up to g1: %v", from(s, "h5"))
	}
	if s0, _ := newGame(rules.Options{}); !has(s0, "Kg1-h5") {
		t.Errorf("king g1 does not step down to h5 at the start")
	}
	// Attacks are one-way as well: a rook on a1 attacks b5, one on b5 not a1.
	s = setup(t, "b", "Ra1 Kg1 kb5")
	if !s.InCheck() {
		t.Errorf("king b5 is not in check from the rook a1 through the shift")
	}
	s = setup(t, "w", "rb5 Ka1 kg12")
	if s.InCheck() {
		t.Errorf("king a1 is in check from b5, against the one-way shift")
	}
}

func TestM2_2_CentreFilesAndUpperMirror(t *testing.T) {
	s := setup(t, "w", "Rc1 Ri1 Kg2 kg12")
	if got := targets(s, "c1"); got != "a1 b1 c10 c11 c12 c2 c3 c4 c5 c6 c7 c8 c9 d1 e1" {
		t.Errorf("rook c1 (centre file, no shift) reaches %q", got)
	}
	// Upper sub-boards mirror it: a12 up leads to b8; e12 to d8; j12 to i8.
	s = setup(t, "b", "Kg1 ra8 re12 rj12 kg11")
	// Up a9-a12, shifted to b8 b9 (then the hole b10), and b8-e8 sideways.
	if got, want := targets(s, "a8"), "a10 a11 a12 a9 b8 b9 c8 d8 e8"; got != want {
		t.Errorf("rook a8 reaches %q, want %q", got, want)
	}
	if !has(s, "Re12-d8") || !has(s, "Rj12-i8") {
		t.Errorf("upper shift missing: %v %v", from(s, "e12"), from(s, "j12"))
	}
	// A diagonal never shifts: a bishop on a1 has nothing south.
	s = setup(t, "w", "Ba1 Kg1 kg12")
	if got := targets(s, "a1"); got != "b2 c3 d4 e2 e5 f6" {
		t.Errorf("bishop a1 reaches %q, want b2 c3 d4 e5 f6 north-east and e2 (wrap) only", got)
	}
}

// M2.3: holes block every piece but pawns; knights jump them.

func TestM2_3_HolesBlockSlidersAndKings(t *testing.T) {
	s := setup(t, "w", "Rb2 Qd4 Kj2 kg12")
	if has(s, "Rb2-b4") {
		t.Errorf("rook b2 jumps the hole b3")
	}
	if has(s, "Qd4-d2") || has(s, "Qd4-d1") {
		t.Errorf("queen d4 passes the hole d3: %v", from(s, "d4"))
	}
	if has(s, "Kj2-j3") || has(s, "Kj2-j4") {
		t.Errorf("king j2 steps into or over the hole j3: %v", from(s, "j2"))
	}
	// The f-file gaps block too: a rook on f3 cannot go up to f6.
	s = setup(t, "w", "Rf3 Kg1 kg12")
	if got := targets(s, "f3"); got != "e3 g3" {
		t.Errorf("rook f3 reaches %q, want e3 g3 (then the holes d3 h3; f4 f5 are gaps)", got)
	}
}

func TestM2_3_KnightsJumpHoles(t *testing.T) {
	s := setup(t, "w", "Na2 Nf6 Kg1 kg12")
	if got := targets(s, "a2"); got != "b4 c1 c3" {
		t.Errorf("knight a2 reaches %q, want b4 c1 c3 (over the hole b3)", got)
	}
	if got := targets(s, "f6"); got != "d5 e4 e8 g4 g8 h5" {
		t.Errorf("knight f6 reaches %q, want d5 e4 e8 g4 g8 h5 (d7 h7 are holes)", got)
	}
}

// M2.4: leapers do not wrap.

func TestM2_4_LeapersDoNotWrap(t *testing.T) {
	s := setup(t, "w", "Na1 Ce4 Mk12 Kg1 kg10")
	if got := targets(s, "a1"); got != "c2" {
		t.Errorf("knight a1 reaches %q, want only c2 (b3 is a hole; no wrap)", got)
	}
	// The cardinal's leaps are the plain offsets c3 c5 d2 f6 g3 g5, across
	// the gap to the other sub-board but never wrapped (no a3, b2, b6);
	// its bishop part slides a5 (wrapped north-east), d5 c6, f3 g2 h1.
	if got, want := targets(s, "e4"), "a5 c3 c5 c6 d2 d5 f3 f6 g2 g3 g5 h1"; got != want {
		t.Errorf("cardinal e4 reaches %q, want %q", got, want)
	}
	// The marshall on k12 leaps to i11 only (j10 is a hole); its rook part
	// slides round rank 12, down the k file and up through the shift to j8 j9.
	if got, want := targets(s, "k12"), "g12 h12 i11 i12 j12 j8 j9 k10 k11 k8 k9"; got != want {
		t.Errorf("marshall k12 reaches %q, want %q", got, want)
	}
}

// M3: teleports.

func TestM3_TeleportMoves(t *testing.T) {
	s := setup(t, "w", "Nc3 Kg1 kg12")
	if got, want := targets(s, "c3"), "a2 a4 b1 b5 c10 d1 d5 e2 e4 i10 i3"; got != want {
		t.Errorf("knight c3 reaches %q, want %q (its leaps and the three other teleports)", got, want)
	}
	// The canonical text is the plain move.
	if !has(s, "Nc3-i10") {
		t.Errorf("no Nc3-i10 among %v", from(s, "c3"))
	}
	next := play(t, s, "Nc3-i10")
	if got := next.(*State).Position(); !strings.HasPrefix(got, "6k4/11/8N2/") {
		t.Errorf("after Nc3-i10 the position is %s", got)
	}
}

func TestM3_TeleportCapture(t *testing.T) {
	s := setup(t, "w", "Bc3 Kg1 kg12 ri10 pc10")
	if !has(s, "Bc3xi10") || !has(s, "Bc3xc10") || !has(s, "Bc3-i3") {
		t.Fatalf("bishop c3: %v", from(s, "c3"))
	}
	m, _ := s.Parse("Bc3xi10")
	next, rep, err := s.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := next.(*State).Position(); got != "6k4/11/2p5B2/11/11/11/11/11/11/11/11/6K4 b - 0 1" {
		t.Errorf("after the teleport capture: %s", got)
	}
	if !strings.Contains(strings.Join(rep.English(rules.ViewBlack), ";"), "teleported") {
		t.Errorf("notices %v do not tell of the teleport", rep.English(rules.ViewBlack))
	}
}

func TestM3_NoDuplicateWhenALineAlsoReaches(t *testing.T) {
	// A rook on c3 reaches c10 up the open c file and by teleport: one move.
	s := setup(t, "w", "Rc3 Kg1 kg12")
	n := 0
	for _, m := range s.Moves() {
		if s.Format(m) == "Rc3-c10" {
			n++
			if m.Kind != kindNormal {
				t.Errorf("Rc3-c10 is marked a teleport though the file is open")
			}
		}
	}
	if n != 1 {
		t.Errorf("Rc3-c10 offered %d times", n)
	}
}

func TestM3_KingsTeleportButNotIntoCheck(t *testing.T) {
	// Black's rook on i5 covers i3 (down the i file), the bishop on g8 covers
	// i10 (g8 h9 i10); c10 is free.
	s := setup(t, "w", "Kc3 kg12 ri5 bg8")
	got := targets(s, "c3")
	if !strings.Contains(got, "c10") {
		t.Errorf("king c3 cannot teleport to c10: %q", got)
	}
	if strings.Contains(got, "i3") || strings.Contains(got, "i10") {
		t.Errorf("king c3 teleports into check: %q", got)
	}
	me := parseErr(t, s, "Kc3-i3")
	if me.Ruling != "M6" {
		t.Errorf("Kc3-i3: %v, want the king-in-check reason (M6)", me)
	}
}

func TestM3_SeedPawnTeleportOverruled(t *testing.T) {
	// The seed's "any piece" would allow c2-c3 then c3-c10 (promoting).
	s, _ := newGame(rules.Options{})
	s2 := play(t, s, "c2-c3", "Nb12-a10")
	if got := targets(s2, "c3"); got != "c4" {
		t.Errorf("pawn c3 reaches %q, want only c4 (no teleport)", got)
	}
	me := parseErr(t, s2, "c3-c10=Q")
	if me.Ruling != "M3" {
		t.Errorf("c3-c10=Q: %v, want M3", me)
	}
}

func TestM3_TeleportGivesCheck(t *testing.T) {
	s := setup(t, "w", "Ne4 Kg1 ki10")
	next := play(t, s, "Ne4-c3")
	if !next.(*State).InCheck() {
		t.Fatalf("the knight on c3 does not check the king on i10")
	}
	m, _ := s.Parse("Ne4-c3")
	_, rep, _ := s.Apply(m)
	if rep.Record[rules.ViewReferee] != "Ne4-c3+" {
		t.Errorf("record %q, want Ne4-c3+", rep.Record[rules.ViewReferee])
	}
	// The king steps away or takes the knight by teleport; it may not
	// teleport to c10 or i3, which the knight on c3 attacks.
	if got, want := targets(next, "i10"), "c3 h11 h9 i11 i9 j11 j9"; got != want {
		t.Errorf("king i10 reaches %q, want %q", got, want)
	}
	// A pawn on a teleport square attacks nothing there.
	s = setup(t, "b", "Pc3 Kg1 ki10")
	if s.InCheck() {
		t.Errorf("a pawn on c3 checks the king on i10")
	}
}

// M4: setup.

func TestM4_Setup(t *testing.T) {
	s, err := newGame(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Position() != StartPosition {
		t.Errorf("start position %s, want %s", s.Position(), StartPosition)
	}
	want := map[string]string{
		"a1": "R", "b1": "N", "c1": "B", "d1": "C", "e1": "Q", "g1": "K", "h1": "M", "i1": "B", "j1": "N", "k1": "R",
		"a12": "r", "b12": "n", "c12": "b", "d12": "c", "e12": "q", "g12": "k", "h12": "m", "i12": "b", "j12": "n", "k12": "r",
	}
	v := s.View(rules.ViewReferee)
	for _, sq := range board.Squares() {
		name := board.Name(sq)
		w, ok := want[name]
		switch r := board.Rank(sq); {
		case ok:
		case r == 1:
			w = "P"
		case r == 10:
			w = "p"
		}
		if v.Cells[sq] != w {
			t.Errorf("%s holds %q, want %q", name, v.Cells[sq], w)
		}
	}
	if s.ToMove() != rules.White {
		t.Errorf("%v to move, want White", s.ToMove())
	}
	// No castling: the king's only move is down through the shift.
	if got := from(s, "g1"); strings.Join(got, " ") != "Kg1-h5" {
		t.Errorf("king g1 moves %v", got)
	}
	for _, text := range []string{"O-O", "0-0-0", "o-o"} {
		if me := parseErr(t, s, text); me.Ruling != "M4" {
			t.Errorf("%s: %v, want M4", text, me)
		}
	}
	if _, err := newGame(rules.Options{Ruleset: "castling"}); err == nil {
		t.Errorf("ruleset castling accepted")
	}
}

// M5: pawns.

func TestM5_1_SeedExamplesF3F6AndB2B4(t *testing.T) {
	s := setup(t, "w", "Pf3 Pb2 Kg1 kg12")
	if got := from(s, "f3"); strings.Join(got, " ") != "f3-f6" {
		t.Errorf("pawn f3: %v, want f3-f6 over the gaps f4 f5", got)
	}
	// b2-b4 is a single step over the hole b3; the double step is b2-b5.
	if got := from(s, "b2"); strings.Join(got, " ") != "b2-b4 b2-b5" {
		t.Errorf("pawn b2: %v, want b2-b4 b2-b5", got)
	}
	m, _ := s.Parse("b2-b4")
	if m.Kind != kindNormal {
		t.Errorf("b2-b4 is kind %d, want a single step", m.Kind)
	}
}

func TestM5_1_AcrossTheMiddle(t *testing.T) {
	// a5-a8 jumps the missing a6 a7; c5 goes to the loose c6 (the literal
	// "next existing square": decided so), then c7, c8.
	s := setup(t, "w", "Pa5 Pc5 Pf7 Pi7 Kg1 kg12")
	if got := from(s, "a5"); strings.Join(got, " ") != "a5-a8" {
		t.Errorf("pawn a5: %v", got)
	}
	if got := from(s, "c5"); strings.Join(got, " ") != "c5-c6" {
		t.Errorf("pawn c5: %v, want c5-c6", got)
	}
	if got := from(s, "i7"); strings.Join(got, " ") != "i7-i8" {
		t.Errorf("pawn i7: %v", got)
	}
	// f7 jumps f8 f9 (gaps) to f10, a promotion square.
	if got := from(s, "f7"); len(got) != 6 || got[0] != "f7-f10=B" {
		t.Errorf("pawn f7: %v, want the six promotions on f10", got)
	}
	// Black mirrors: a8-a5, c6-c5.
	s = setup(t, "b", "Kg1 kg12 pa8 pc6 pf6")
	if got := from(s, "a8"); strings.Join(got, " ") != "a8-a5" {
		t.Errorf("black pawn a8: %v", got)
	}
	if got := from(s, "f6"); strings.Join(got, " ") != "f6-f3=B f6-f3=C f6-f3=M f6-f3=N f6-f3=Q f6-f3=R" {
		t.Errorf("black pawn f6: %v", got)
	}
}

func TestM5_1_DoubleStepAndEnPassant(t *testing.T) {
	s := setup(t, "w", "Pb2 Pd2 Kg1 kg12 pa5 pc5")
	s2 := play(t, s, "b2-b5")
	if got := s2.(*State).Position(); !strings.HasSuffix(got, "b b4 0 1") {
		t.Errorf("after b2-b5 the en passant square is not b4: %s", got)
	}
	for _, text := range []string{"a5xb4", "c5xb4"} {
		if !has(s2, text) {
			t.Errorf("%s (en passant) not offered: %v", text, rulestestMoves(s2))
		}
	}
	s3 := play(t, s2, "a5xb4")
	if got := s3.(*State).Position(); got != "6k4/11/11/11/11/11/11/2p8/1p9/11/3P7/6K4 w - 0 2" {
		t.Errorf("after a5xb4 e.p.: %s", got)
	}
	// The right lasts one move only.
	s4 := play(t, s2, "kg12-g11", "d2-d4")
	if has(s4, "c5xb4") {
		t.Errorf("en passant still offered a move later")
	}
	// A double step needs both squares empty.
	s = setup(t, "w", "Pb2 Kg1 kg12 nb5")
	if got := from(s, "b2"); strings.Join(got, " ") != "b2-b4" {
		t.Errorf("pawn b2 with b5 taken: %v", got)
	}
	s = setup(t, "w", "Pb2 Kg1 kg12 nb4")
	if got := from(s, "b2"); len(got) != 0 {
		t.Errorf("pawn b2 with b4 taken: %v", got)
	}
	me := parseErr(t, s, "b2-b5")
	if me.Ruling != "M5.1" {
		t.Errorf("b2-b5 blocked: %v", me)
	}
}

func rulestestMoves(s rules.State) []string {
	var out []string
	for _, m := range s.Moves() {
		out = append(out, s.Format(m))
	}
	return out
}

func TestM5_2_PawnCapturesNoWrapNoJump(t *testing.T) {
	// e5 captures the loose f6 (plain diagonal); a4 does not capture e5
	// round the cylinder; a5 does not capture b8 over the gap.
	s := setup(t, "w", "Pe5 Kg1 kg12 nf6")
	if !has(s, "e5xf6") {
		t.Errorf("pawn e5 cannot capture f6: %v", from(s, "e5"))
	}
	s = setup(t, "w", "Pa4 Kg1 kg12 qe5")
	if has(s, "a4xe5") {
		t.Errorf("pawn a4 captures round the cylinder")
	}
	s = setup(t, "w", "Pa5 Kg1 kg12 qb8 ra8")
	if got := from(s, "a5"); len(got) != 0 {
		t.Errorf("pawn a5 (blocked by a8) moves %v; it may not capture b8 over the gap", got)
	}
	me := parseErr(t, s, "a5xb8")
	if me.Ruling == "" {
		t.Errorf("a5xb8: %v, want a ruling", me)
	}
	// A pawn does not capture straight ahead, nor move diagonally to an empty square.
	s = setup(t, "w", "Pe2 Kg1 kg12 ne3")
	if got := from(s, "e2"); len(got) != 0 {
		t.Errorf("pawn e2 facing a knight on e3: %v", got)
	}
	if me := parseErr(t, s, "e2-f3"); me.Ruling != "M5.2" {
		t.Errorf("e2-f3: %v, want M5.2", me)
	}
}

func TestM5_3_Promotion(t *testing.T) {
	s := setup(t, "w", "Pg9 Pb9 Kg1 kk12")
	if got := from(s, "g9"); strings.Join(got, " ") != "g9-g10=B g9-g10=C g9-g10=M g9-g10=N g9-g10=Q g9-g10=R" {
		t.Errorf("pawn g9: %v", got)
	}
	// b9 jumps the hole b10 and promotes on b11.
	if !has(s, "b9-b11=Q") || has(s, "b9-b10=Q") {
		t.Errorf("pawn b9: %v", from(s, "b9"))
	}
	next := play(t, s, "g9-g10=C")
	if got := next.(*State).Position(); !strings.Contains(got, "/6C4/") {
		t.Errorf("after g9-g10=C: %s", got)
	}
	me := parseErr(t, s, "g9-g10")
	if me.Ruling != "M5.3" {
		t.Errorf("g9-g10 without a piece: %v", me)
	}
	if me := parseErr(t, s, "g9-g10=K"); me.Ruling != "M5.3" {
		t.Errorf("g9-g10=K: %v", me)
	}
}

func TestM5_3_EnPassantOntoThePromotionRank(t *testing.T) {
	// The rulings' b4xc3=Q: White's c2-c4 passes the teleport c3, rank 3 is
	// a Black promotion rank, so the en passant capture promotes.
	s := setup(t, "w", "Pc2 Kg1 kk12 pb4")
	s2 := play(t, s, "c2-c4")
	if got := from(s2, "b4"); strings.Join(got, " ") != "b4-b2=B b4-b2=C b4-b2=M b4-b2=N b4-b2=Q b4-b2=R b4xc3=B b4xc3=C b4xc3=M b4xc3=N b4xc3=Q b4xc3=R" {
		t.Errorf("pawn b4 after c2-c4: %v", got)
	}
	s3 := play(t, s2, "b4xc3=Q")
	if got := s3.(*State).Position(); got != "10k/11/11/11/11/11/11/11/11/2q8/11/6K4 w - 0 2" {
		t.Errorf("after b4xc3=Q: %s", got)
	}
}

// M6: everything else is FIDE.

func TestM6_Checkmate(t *testing.T) {
	// The black king on the loose c6 has four neighbours: c5 c7 b5 d5. The
	// rook on a5 covers b5 c5 d5; Rb1-c1 checks up the c file, which also
	// covers c7 behind the king.
	s := setup(t, "w", "Kg1 Ra5 Rb1 kc6")
	m, err := s.Parse("Rb1-c1")
	if err != nil {
		t.Fatal(err)
	}
	next, rep, err := s.Apply(m)
	if err != nil {
		t.Fatal(err)
	}
	if o := next.Outcome(); o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" || o.Ruling != "M6" {
		t.Errorf("after Rb1-c1: %+v, want White wins by checkmate (M6)", o)
	}
	if rep.Record[rules.ViewReferee] != "Rb1-c1#" || len(next.Moves()) != 0 {
		t.Errorf("record %q, %d moves offered", rep.Record[rules.ViewReferee], len(next.Moves()))
	}
	// Rb1-c5 mates too: the king may not take the rook, which the rook on
	// a5 guards along rank 5. Rb1-b2 is no check and the game goes on.
	if n := play(t, s, "Rb1-c5"); n.Outcome().Reason != "checkmate" {
		t.Errorf("after Rb1-c5: %+v", n.Outcome())
	}
	if n := play(t, s, "Rb1-b2"); n.Outcome().Over() || !has(n, "Kc6-c7") {
		t.Errorf("after Rb1-b2: %+v, moves %v", n.Outcome(), rulestestMoves(n))
	}
}

func TestM6_CheckThroughWrapsTeleportsCardinalMarshall(t *testing.T) {
	tests := []struct {
		name, pieces string
		check        bool
	}{
		{"rook round the cylinder, e1 east to a1", "Re1 Kg2 ka1", true},
		{"rook round the cylinder blocked both ways", "Rd1 Nc1 Be1 Kg2 ka1", false},
		{"bishop round the cylinder, e1 north-east to a2", "Be1 Kg2 ka2", true},
		{"queen down the shift, a1 to b5", "Qa1 Kg2 kb5", true},
		{"cardinal leap", "Cc2 Kg2 ke3", true},
		{"cardinal slide", "Ca1 Kg2 kd4", true},
		{"marshall leap across the gap", "Mg3 Kg1 ki4", true},
		{"marshall up the i file", "Mi4 Kg1 ki12", true},
		{"knight leaps do not wrap", "Na1 Kg1 kd2", false},
		{"teleport c3 to i10", "Bc3 Kg1 ki10", true},
		{"teleport i3 to c10", "Ri3 Kg1 kc10", true},
		{"no teleport from a pawn", "Pc3 Kg1 ki10", false},
		{"pawn diagonal to g8", "Pf7 Kg1 kg8", true},
		{"pawn captures do not wrap", "Pa4 Kg1 ke5", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := setup(t, "b", tt.pieces)
			if s.InCheck() != tt.check {
				t.Errorf("%s: in check %v, want %v", tt.pieces, s.InCheck(), tt.check)
			}
		})
	}
}

func TestM6_Stalemate(t *testing.T) {
	// The king on c6: the rook on a5 covers b5 c5 d5, the knight from e8
	// covers c7; nothing else of Black's can move.
	s := setup(t, "w", "Kg1 Ra5 Ng9 kc6")
	next := play(t, s, "Ng9-e8")
	if o := next.Outcome(); o.Status != rules.Draw || o.Reason != "stalemate" || o.Ruling != "M6" {
		t.Errorf("after Ng9-e8: %+v, want stalemate", o)
	}
	if next.(*State).InCheck() {
		t.Errorf("stalemate with the king in check")
	}
}

func TestM6_ThreefoldRepetition(t *testing.T) {
	s, _ := newGame(rules.Options{})
	shuffle := []string{"Nb1-a3", "Nb12-a10", "Na3-b1", "Na10-b12"}
	var moves []string
	for range 2 {
		moves = append(moves, shuffle...)
	}
	next := play(t, s, moves[:7]...)
	if next.Outcome().Over() {
		t.Fatalf("over after 7 plies: %+v", next.Outcome())
	}
	next = play(t, next, moves[7])
	if o := next.Outcome(); o.Status != rules.Draw || o.Reason != "threefold repetition" || o.Ruling != "M6" {
		t.Errorf("after the start position came back twice: %+v", o)
	}
	if len(next.Moves()) != 0 {
		t.Errorf("moves offered after the draw")
	}
	if _, err := next.Parse("e2-e3"); err == nil {
		t.Errorf("a move parsed after the end")
	}
}

func TestM6_FiftyMoveRule(t *testing.T) {
	s, err := newGame(rules.Options{Position: "6k4/11/11/11/11/11/11/11/11/11/R10/6K4 w - 99 80"})
	if err != nil {
		t.Fatal(err)
	}
	next := play(t, s, "Ra2-a3")
	if o := next.Outcome(); o.Reason != "fifty-move rule" || o.Status != rules.Draw {
		t.Errorf("after the 100th quiet ply: %+v", o)
	}
	// A pawn move resets the count.
	s, _ = newGame(rules.Options{Position: "6k4/11/11/11/11/11/11/11/11/11/P10/6K4 w - 99 80"})
	if next := play(t, s, "a2-a3"); next.Outcome().Over() {
		t.Errorf("a pawn move ended the game: %+v", next.Outcome())
	}
}

func TestM6_BareKings(t *testing.T) {
	s := setup(t, "b", "Kg1 Nh11 kg12")
	next := play(t, s, "Kg12xh11")
	if o := next.Outcome(); o.Reason != "insufficient material: bare kings" || o.Status != rules.Draw {
		t.Errorf("bare kings: %+v", o)
	}
}

// M7: notation.

func TestM7_CanonicalNotation(t *testing.T) {
	s, _ := newGame(rules.Options{})
	for _, want := range []string{"Nb1-c3", "b2-b4", "Qe1-d5", "Mh1-i5", "Cd1-e3", "Kg1-h5"} {
		if !has(s, want) {
			t.Errorf("%s not among the start moves", want)
		}
	}
	// The rulings' Qe1xe7 only shows the form: e7 is a hole (M1); e5 here.
	s = setup(t, "w", "Qe1 Pc4 Pg9 Kg1 kk12 be5 pd5 rf10")
	for _, want := range []string{"Qe1xe5", "c4xd5", "g9-g10=Q", "g9xf10=C"} {
		if !has(s, want) {
			t.Errorf("%s not offered: %v", want, rulestestMoves(s))
		}
	}
}

func TestM7_LenientForms(t *testing.T) {
	s, _ := newGame(rules.Options{})
	tests := map[string]string{
		"Nb1-c3": "Nb1-c3", "nb1c3": "Nb1-c3", "Nb1 c3": "Nb1-c3", "NB1-C3": "Nb1-c3",
		"Nb1-c3+": "Nb1-c3", "Na3": "Nb1-a3", "b4": "b2-b4", "b5": "b2-b5", "Kh5": "Kg1-h5",
		"Mi4": "Mh1-i4", "Ce3": "Cd1-e3", "Qd5": "Qe1-d5", "Ra1b5": "Ra1-b5",
	}
	for in, want := range tests {
		m, err := s.Parse(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got := s.Format(m); got != want {
			t.Errorf("%q parsed as %s, want %s", in, got, want)
		}
	}
	// "c3": the pawn c2-c3 only; "Nc3" both the knight and … only the knight
	// (the cardinal is C).
	if m, err := s.Parse("Nc3"); err != nil || s.Format(m) != "Nb1-c3" {
		t.Errorf("Nc3: %v %v", s.Format(m), err)
	}
	// Promotion without "=" and an en passant suffix.
	p := setup(t, "w", "Pg9 Kg1 kk12")
	for _, in := range []string{"g9-g10Q", "g9g10q", "g10=Q", "g10Q"} {
		if m, err := p.Parse(in); err != nil || p.Format(m) != "g9-g10=Q" {
			t.Errorf("%q: %v %v", in, p.Format(m), err)
		}
	}
	e := play(t, setup(t, "w", "Pb2 Kg1 kg12 pa5"), "b2-b5")
	for _, in := range []string{"a5xb4", "a5xb4 e.p.", "axb4", "a5b4"} {
		if m, err := e.Parse(in); err != nil || e.Format(m) != "a5xb4" {
			t.Errorf("%q: %v %v", in, e.Format(m), err)
		}
	}
}

func TestM7_AmbiguousShortening(t *testing.T) {
	s := setup(t, "w", "Ra4 Re2 Kg1 kg12")
	me := parseErr(t, s, "Re4")
	if me.Kind != rules.Ambiguous || strings.Join(me.Options, " ") != "Ra4-e4 Re2-e4" {
		t.Errorf("Re4: %+v, want ambiguous between Ra4-e4 and Re2-e4", me)
	}
	if m, err := s.Parse("Rae4"); err != nil || s.Format(m) != "Ra4-e4" {
		t.Errorf("Rae4: %v %v", s.Format(m), err)
	}
}

func TestM7_ErrorsCiteTheRulings(t *testing.T) {
	s, _ := newGame(rules.Options{})
	tests := []struct {
		in, reason, ruling string
		kind               rules.ErrorKind
	}{
		{"Bb1-c3", "is a knight, not a bishop", "M7", rules.Illegal},
		{"b1-c3", "write its letter", "M7", rules.Illegal},
		{"Nb3-c5", "b3 is a hole", "M1", rules.Illegal},
		{"e5-e6", "e6 is a hole", "M1", rules.Illegal},
		{"Ra1-a2", "you cannot capture your own piece", "", rules.Illegal},
		{"Ra1-a3", "blocked on a2", "M2", rules.Illegal},
		{"Qe1-c3", "blocked on d2", "M2", rules.Illegal},
		{"Nb12-c10", "is Black's", "", rules.Illegal},
		{"Ne4-f6", "no piece on e4", "", rules.Illegal},
		{"Nb1-e3", "knight leaps", "M2.4", rules.Illegal},
		{"Mh1-i6", "marshall slides like a rook or leaps", "M2, M4", rules.Illegal},
		{"a2-a5", "two such steps only", "M5.1", rules.Illegal},
		{"Kg1-g3", "a king steps", "M2, M4", rules.Illegal},
		{"Re4", "no rook of yours can move to e4", "M7", rules.Illegal},
		{"hello", "write a move", "M7", rules.Unreadable},
	}
	for _, tt := range tests {
		me := parseErr(t, s, tt.in)
		if !strings.Contains(me.Reason, tt.reason) || me.Ruling != tt.ruling || me.Kind != tt.kind {
			t.Errorf("%q: kind %v reason %q ruling %q; want %v, %q, %q", tt.in, me.Kind, me.Reason, me.Ruling, tt.kind, tt.reason, tt.ruling)
		}
		if len(me.Options) == 0 {
			t.Errorf("%q: no nearest moves offered", tt.in)
		}
	}
	// The pawn letter is accepted.
	if m, err := s.Parse("Pb2-b4"); err != nil || s.Format(m) != "b2-b4" {
		t.Errorf("Pb2-b4: %v", err)
	}
}

func TestM7_BlockedPathAndCheck(t *testing.T) {
	// b4 lies on the rook's southern path a4 a3 a2 a1 b5 b4 (M2.2).
	s := setup(t, "w", "Ra5 Na2 Kg1 kg12")
	me := parseErr(t, s, "Ra5-b4")
	if me.Ruling != "M2" || !strings.Contains(me.Reason, "blocked on a2") {
		t.Errorf("Ra5-b4 past the knight on a2: %v", me)
	}
	// Leaving the king in check: the rook on g5 pins the knight on g2
	// against the king on g1 (down the g file: g4 g3 g2 g1).
	s = setup(t, "w", "Kg1 Ng2 rg5 kg12")
	me = parseErr(t, s, "Ng2-i3")
	if me.Ruling != "M6" || !strings.Contains(me.Reason, "in check") {
		t.Errorf("pinned knight: %v", me)
	}
}
