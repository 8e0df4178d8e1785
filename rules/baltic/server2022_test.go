package baltic

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// The situations the Software Challenge 2022 server's own tests check
// (software-challenge/backend, tag 22.final,
// plugin/src/test/kotlin/sc/plugin2022/), written anew as tests of the
// sc2022 ruleset (B5). The server's coordinates (x, y) have x counted from
// team ONE's start line, so its square (x, y) is our file y, rank x+1:
// "6 y 0" is a7. Team ONE is White, TWO Black; the server's letters H, M, S,
// R are our C, G, S, L.

// sq converts the server's (x, y) to our square name.
func sq(x, y int) string { return board.Name(board.At(y, x)) }

// Mirrors BoardTest "Board generation / does not misplace pieces".
func TestSC2022Server_GeneratedBoardHasTwoOfEachOnTheStartLines(t *testing.T) {
	for seed := range uint64(20) {
		s, _ := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: seed})
		st := s.(*State)
		n := 0
		var count [2][5]int
		for _, q := range board.Squares() {
			if c := st.cells[q]; !c.empty() {
				n++
				count[c.owner()][c.animal()]++
				if r := board.Rank(q); r != 0 && r != 7 {
					t.Errorf("seed %d: a piece on rank %d", seed, r+1)
				}
			}
		}
		eq(t, "pieces on the board", n, 16)
		eq(t, "White's", count[0], [5]int{0, 2, 2, 2, 2})
		eq(t, "Black's", count[1], [5]int{0, 2, 2, 2, 2})
	}
}

// Mirrors BoardTest "is stringified apropriately": only the two outer
// lines hold pieces, and one is the other turned around, in the other
// case.
func TestSC2022Server_StartLinesAreRotationallySymmetric(t *testing.T) {
	for seed := range uint64(20) {
		s, _ := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: seed})
		ranks := strings.Split(boardText(&s.(*State).cells), "/")
		eq(t, "ranks", len(ranks), 8)
		for _, r := range ranks[1:7] {
			eq(t, "inner rank", r, "........")
		}
		rev := []byte(strings.ToLower(ranks[7]))
		for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
			rev[i], rev[j] = rev[j], rev[i]
		}
		eq(t, "rank 8 is rank 1 turned 180°", ranks[0], string(rev))
	}
}

// Mirrors BoardTest "clones well": a seal captures a gull; the state it
// was played on keeps both pieces.
func TestSC2022Server_MoveLeavesTheOriginalStateUntouched(t *testing.T) {
	pos := "8/8/8/8/8/8/2g5/L7" // R on 0 y 0 (a1), m on 1 y 2 (c2)
	eq(t, "squares", sq(0, 0)+" "+sq(1, 2), "a1 c2")
	s := at(t, RulesSC2022, pos)
	next, rec := apply(t, s, "a1xc2")
	eq(t, "record", rec, "a1xc2")
	eq(t, "after", boardText(&next.cells), "......../......../......../......../......../......../..[Lg]...../........")
	eq(t, "before", boardText(&s.cells), "......../......../......../......../......../......../..g...../L.......")
}

// Mirrors BoardTest "can't move backwards or off the fields": starfish
// and cockles of both teams, on (0..3, 4), may not step sideways.
func TestSC2022Server_StarfishAndCockleCannotMoveSideways(t *testing.T) {
	// S ONE e1, S TWO e2, H ONE e3, H TWO e4.
	pos := "8/8/8/8/4c3/4C3/4s3/4S3"
	white := at(t, RulesSC2022, pos)
	refuse(t, white, sq(0, 4)+"-"+sq(0, 3), rules.Illegal, "starfish", "B2")
	refuse(t, white, sq(2, 4)+"-"+sq(2, 3), rules.Illegal, "cockle", "B2")
	black := at(t, RulesSC2022, pos+" b")
	refuse(t, black, sq(1, 4)+"-"+sq(1, 5), rules.Illegal, "starfish", "B2")
	refuse(t, black, sq(3, 4)+"-"+sq(3, 5), rules.Illegal, "cockle", "B2")
	// And backwards, which the test's name promises.
	refuse(t, white, "e3-d2", rules.Illegal, "cockle", "B2")
	refuse(t, black, "e2-e3", rules.Illegal, "starfish", "B2")
}

// Mirrors BoardTest "can't move onto own piece".
func TestSC2022Server_CannotMoveOntoOwnPiece(t *testing.T) {
	s := at(t, RulesSC2022, "8/8/8/8/8/8/2L5/L7 points=0-0")
	refuse(t, s, "a1-c2", rules.Illegal, "own piece", "B3.2")
	eq(t, "moves from a1", movesFrom(s, "a1"), []string{"a1-b3"})
}

// Mirrors BoardTest "amber / from position": a gull on its own start line
// scores nothing; a White gull on the far line scores; a seal does not.
func TestSC2022Server_FarRankScoresForLightPiecesOnly(t *testing.T) {
	// "not when reaching target line of opponent": m from 6 y 0 to 7 y 0,
	// i.e. Black's gull back onto its own home rank.
	s, rec := apply(t, at(t, RulesSC2022, "8/g7/8/8/8/8/8/G7 b"), sq(6, 0)+"-"+sq(7, 0))
	eq(t, "record", rec, "a7-a8")
	eq(t, "the gull stays", cellAt(s, "a8"), "g")
	eq(t, "points", s.points, [2]int{0, 0})
	// "moewe": M from 6 y 0 to 7 y 0.
	s, rec = apply(t, at(t, RulesSC2022, "7g/G7/8/8/8/8/8/8"), "a7-a8")
	eq(t, "record", rec, "a7-a8+1")
	eq(t, "the gull left", cellAt(s, "a8"), "")
	eq(t, "points", s.points, [2]int{1, 0})
	// "not for Robbe": R from 6 y 0 to 7 y 2.
	s, rec = apply(t, at(t, RulesSC2022, "7g/L7/8/8/8/8/8/8"), sq(6, 0)+"-"+sq(7, 2))
	eq(t, "record", rec, "a7-c8")
	eq(t, "the seal stays", cellAt(s, "c8"), "L")
	eq(t, "points", s.points, [2]int{0, 0})
}

// Mirrors BoardTest "amber / from tower": M on 1 y 0 (a2), S2 on 0 y 0
// (a1), m on 0 y 1 (b1), r on 1 y 1 (b2).
//
// The server puts Black's gull on b1, White's home rank, where a light
// Black piece can never stand (it would have scored, B5), and our
// positions refuse it. For "move onto tower" we start the gull on a2
// instead, which reaches a1 the same way (onto the stack, on the far rank).
func TestSC2022Server_Towers(t *testing.T) {
	eq(t, "squares", sq(1, 0)+" "+sq(0, 0)+" "+sq(0, 1)+" "+sq(1, 1), "a2 a1 b1 b2")
	if _, err := Variant.New(rules.Options{Ruleset: RulesSC2022, Position: "8/8/8/8/8/8/Gl6/S2g6"}); err == nil ||
		!strings.Contains(err.Error(), "home rank") {
		t.Errorf("a Black gull on b1: %v", err)
	}
	s := at(t, RulesSC2022, "8/8/8/8/8/8/Gl6/S27")
	// "not onto own": S2 from a1 to a2 (White's gull).
	refuse(t, s, "a1-a2", rules.Illegal, "own piece", "B3.2")
	// "move tower": S2 from a1 onto r on b2 makes 3: 1 point.
	next, rec := apply(t, s, "a1xb2")
	eq(t, "record", rec, "a1xb2+1")
	eq(t, "points", next.points, [2]int{1, 0})
	eq(t, "the stack left", cellAt(next, "b2")+cellAt(next, "a1"), "")
	// "move onto tower": Black's gull onto S2 on a1: 3 high and on the far
	// rank: 2 points.
	s = at(t, RulesSC2022, "8/8/8/8/8/8/g7/S27 b")
	next, rec = apply(t, s, "a2xa1")
	eq(t, "record", rec, "a2xa1+2")
	eq(t, "points", next.points, [2]int{0, 2})
}

// Mirrors PieceTest "to and from String": pieces and stacks read and write
// as letters with a height ("M2" there, "G2" here).
func TestSC2022Server_PieceStrings(t *testing.T) {
	for text, want := range map[string]cell{
		"G":  mkCell(rules.White, Gull, 1),
		"L2": mkCell(rules.White, Seal, 2),
		"s2": mkCell(rules.Black, Starfish, 2),
		"c":  mkCell(rules.Black, Cockle, 1),
		"S1": mkCell(rules.White, Starfish, 1),
	} {
		var cells [64]cell
		if err := parseRanks("8/8/8/8/8/8/8/"+text+strings.Repeat(".", 7), 8, &cells); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		eq(t, text, cells[board.MustParse("a1")], want)
		eq(t, text+" written", want.text(), strings.TrimSuffix(text, "1"))
	}
}

// Mirrors PieceTest "can't move backwards": a White cockle's moves are the
// two forward diagonals, a starfish's the four diagonals and forward.
func TestSC2022Server_CockleAndStarfishDirections(t *testing.T) {
	s := at(t, RulesSC2022, "l6l/8/8/8/2C..S../8/8/L6L")
	eq(t, "cockle", movesFrom(s, "c4"), []string{"c4-b5", "c4-d5"})
	eq(t, "starfish", movesFrom(s, "f4"), []string{"f4-e3", "f4-e5", "f4-f5", "f4-g3", "f4-g5"})
}

// Mirrors MoveTest "Move from [0|7] to [17|5] is invalid": a target off
// the board is no move.
func TestSC2022Server_MoveOffTheBoardIsUnreadable(t *testing.T) {
	s := at(t, RulesSC2022, "")
	refuse(t, s, sq(0, 7)+"-r6", rules.Unreadable, "B6")
	if s.legal(rules.Move{From: board.MustParse("h1"), To: rules.Square(200), Aux: rules.NoSquare, Piece: Seal}) {
		t.Errorf("a move to square 200 is legal")
	}
}

// Mirrors GameStateTest "state detection / isOver": round 29 after 58
// moves, round 30 after 59 (not over), over after 60.
func TestSC2022Server_GameEndsAfterRound30(t *testing.T) {
	s := at(t, RulesSC2022, "")
	eq(t, "start", s.Outcome().Status, rules.Ongoing)
	s = at(t, RulesSC2022, "l6l/1g6/8/8/8/8/1G6/L6L ply=58")
	if !strings.Contains(s.View(rules.ViewPublic).ASCII(), "round 30 of 30") {
		t.Errorf("ply 58 is not round 30")
	}
	s, _ = apply(t, s, "b2-b3")
	eq(t, "after 59 moves", s.Outcome().Status, rules.Ongoing)
	s, _ = apply(t, s, "b7-b6")
	eq(t, "after 60 moves", s.Outcome().Over(), true)
	eq(t, "moves after 60", len(s.Moves()), 0)
}

// Mirrors GameTest "WinConditions": H on 6 y 6 (g7) for ONE, s on 2 y 1
// (b3) for TWO, 2 points each.
func TestSC2022Server_WinConditions(t *testing.T) {
	eq(t, "squares", sq(6, 6)+" "+sq(2, 1), "g7 b3")
	pos := "8/6C./8/8/8/1s6/8/8 points=2-2"
	// Turn 1: not judged in the middle of a round.
	eq(t, "turn 1", at(t, RulesSC2022, pos+" ply=1").Outcome().Status, rules.Ongoing)
	// Turn 2: equal points; the cockle is 6 ranks from home, the starfish 5.
	eq(t, "turn 2", at(t, RulesSC2022, pos+" ply=2").Outcome(),
		rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "equal points, light pieces further forward", Ruling: "B5"})
	// Only the side to move may move (the server's WRONG_COLOR).
	refuse(t, at(t, RulesSC2022, "8/6C./8/8/8/1s6/8/8 points=1-1"), "b3-b2", rules.Illegal, "Black's", "B3.1")
	// The starfish steps from 2 y 1 to 1 y 1 (b2): 6 against 6, a draw.
	s, _ := apply(t, at(t, RulesSC2022, pos+" ply=1"), sq(2, 1)+"-"+sq(1, 1))
	eq(t, "turn 2 after b3-b2", s.Outcome(), rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"})
	// The cockle reaches the far line (6 y 6 to 7 y 7): 3 points to 2. The
	// server plays it at an even turn and skips Black; here Black begins so
	// that White moves second in the round.
	s, rec := apply(t, at(t, RulesSC2022, "8/6C./8/8/8/8/1s6/8 points=2-2 first=black ply=1"), sq(6, 6)+"-"+sq(7, 7))
	eq(t, "record", rec, "g7-h8+1")
	eq(t, "more points", s.Outcome(), rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "more points", Ruling: "B5"})
	// The starfish reaches its far line too (1 y 1 to 0 y 2): 3 all, and
	// no light pieces left to compare.
	s, rec = apply(t, at(t, RulesSC2022, "8/8/8/8/8/8/1s6/8 points=3-2 ply=1"), sq(1, 1)+"-"+sq(0, 2))
	eq(t, "record", rec, "b2-c1+1")
	eq(t, "3 all", s.Outcome(), rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"})
	// H 6 y 0, m 1 y 0, S 5 y 0, r 4 y 0, 2 points each, turn 0: White
	// [6, 5] against Black [6]: only one pair compared, a draw.
	eq(t, "squares", sq(6, 0)+" "+sq(1, 0)+" "+sq(5, 0)+" "+sq(4, 0), "a7 a2 a6 a5")
	eq(t, "pairwise", at(t, RulesSC2022, "8/C7/S7/l7/8/8/g7/8 points=2-2").Outcome(),
		rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"})
}

// Mirrors GamePlayTest "A Game started with two players played normally":
// random games finish, and the result is a win for one and a loss for the
// other, or a draw.
func TestSC2022Server_RandomGamesFinish(t *testing.T) {
	t.Parallel()
	st := rulestest.Playout(t, rulestest.Config{Variant: Variant, Options: rules.Options{Ruleset: RulesSC2022}, Games: 50, Seed: 2022,
		Every: func(t testing.TB, _, after rules.State, _ rules.Move, _ *rules.Report) {
			if o := after.Outcome(); o.Over() && o.Result() != "1-0" && o.Result() != "0-1" && o.Result() != "1/2-1/2" {
				t.Fatalf("result %q", o.Result())
			}
			if after.Ply() > 2*sc2022Rounds {
				t.Fatalf("ply %d", after.Ply())
			}
		}})
	eq(t, "finished", st.Finished, 50)
}
