package baltic

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// One named test per ruling (B1–B6, docs/variants/baltic.md), each run
// under both rulesets; where sc2022 (B5) differs, the subtest says how.
// Positions are given as position strings (see position.go): ranks 8 to 1,
// "." or a digit for empty squares, "G2" a stack of two.

func TestB1_BoardSidesAndFirstMove(t *testing.T) {
	for _, rs := range bothRulesets {
		t.Run(rs, func(t *testing.T) {
			s := at(t, rs, "")
			eq(t, "files", board.Files(), 8)
			eq(t, "ranks", board.Ranks(), 8)
			eq(t, "default first", s.ToMove(), rules.White)
			for _, sq := range board.Squares() {
				c := s.cells[sq]
				r := board.Rank(sq)
				switch {
				case c.empty():
				case c.owner() == rules.White && r > 1, c.owner() == rules.Black && r < 6:
					t.Errorf("%s on %s: White starts on ranks 1-2, Black on 7-8", c.text(), board.Name(sq))
				}
			}
			// Forward is up the board for White, down for Black: a cockle's
			// two moves from the middle.
			w := at(t, rs, "l6l/8/8/8/3C4/8/8/L6L")
			eq(t, "White cockle d4", movesFrom(w, "d4"), []string{"d4-c5", "d4-e5"})
			b := at(t, rs, "l6l/8/8/8/3c4/8/8/L6L b")
			eq(t, "Black cockle d4", movesFrom(b, "d4"), []string{"d4-c3", "d4-e3"})
			// The creator may let Black begin.
			fb := at(t, rs, "first=black")
			eq(t, "first=black to move", fb.ToMove(), rules.Black)
			for _, m := range fb.Moves() {
				if fb.cells[m.From].owner() != rules.Black {
					t.Errorf("first=black offers White's %s", fb.Format(m))
				}
			}
			if !strings.Contains(fb.View(rules.ViewPublic).ASCII(), "Black moved first (B1)") {
				t.Errorf("the board does not say who moved first")
			}
			after, _ := apply(t, fb, "a8-a7")
			eq(t, "then White", after.ToMove(), rules.White)
			if _, err := Variant.New(rules.Options{Ruleset: rs, Position: "first=red"}); err == nil || !strings.Contains(err.Error(), "B1") {
				t.Errorf("first=red: got %v, want an error citing B1", err)
			}
		})
	}
}

func TestB2_Moves(t *testing.T) {
	cases := []struct {
		name, pos, from string
		want            []string
	}{
		{"White cockle", "l6l/8/8/8/3C4/8/8/L6L", "d4", []string{"d4-c5", "d4-e5"}},
		{"Black cockle", "l6l/8/8/8/3c4/8/8/L6L b", "d4", []string{"d4-c3", "d4-e3"}},
		{"cockle on the edge", "l6l/8/8/8/C7/8/8/L6L", "a4", []string{"a4-b5"}},
		{"White starfish", "l6l/8/8/8/3S4/8/8/L6L", "d4", []string{"d4-c3", "d4-c5", "d4-d5", "d4-e3", "d4-e5"}},
		{"Black starfish", "l6l/8/8/8/3s4/8/8/L6L b", "d4", []string{"d4-c3", "d4-c5", "d4-d3", "d4-e3", "d4-e5"}},
		{"seal", "g6g/8/8/8/3L4/8/8/G6G", "d4", []string{"d4-b3", "d4-b5", "d4-c2", "d4-c6", "d4-e2", "d4-e6", "d4-f3", "d4-f5"}},
		{"seal jumps over anything", "l6g/8/8/3S4/2GLG3/3S4/8/8", "d4", []string{"d4-b3", "d4-b5", "d4-c2", "d4-c6", "d4-e2", "d4-e6", "d4-f3", "d4-f5"}},
		{"Black seal in the corner", "l6g/8/8/8/8/8/8/G6G b", "a8", []string{"a8-b6", "a8-c7"}},
		{"gull", "l6l/8/8/8/3G4/8/8/L6L", "d4", []string{"d4-c4", "d4-d3", "d4-d5", "d4-e4"}},
		{"Black gull", "l6l/8/8/8/3g4/8/8/L6L b", "d4", []string{"d4-c4", "d4-d3", "d4-d5", "d4-e4"}},
	}
	for _, rs := range bothRulesets {
		for _, c := range cases {
			t.Run(rs+"/"+c.name, func(t *testing.T) {
				eq(t, c.from, movesFrom(at(t, rs, c.pos), c.from), c.want)
			})
		}
		t.Run(rs+"/wrong shape", func(t *testing.T) {
			s := at(t, rs, "l6l/8/8/8/3C4/8/8/L6L")
			refuse(t, s, "d4-d5", rules.Illegal, "cockle moves one square diagonally forward", "B2")
			refuse(t, s, "d4-c3", rules.Illegal, "B2")
		})
	}
}

func TestB3_1_StackMovesByTopAnimalAndNeverSplits(t *testing.T) {
	for _, rs := range bothRulesets {
		t.Run(rs, func(t *testing.T) {
			s := at(t, rs, "l6l/8/8/8/3G24/8/8/L6L")
			eq(t, "a stack topped by a gull moves as a gull", movesFrom(s, "d4"), []string{"d4-c4", "d4-d3", "d4-d5", "d4-e4"})
			next, rec := apply(t, s, "d4-d5")
			eq(t, "record", rec, "d4-d5")
			eq(t, "the whole stack arrives", cellAt(next, "d5"), "G2")
			eq(t, "nothing is left behind", cellAt(next, "d4"), "")
			refuse(t, next, "d5-d4", rules.Illegal, "White's", "B3.1")

			seal := at(t, rs, "g6g/8/8/8/3l24/8/8/G6G b")
			eq(t, "a stack topped by a seal leaps", len(movesFrom(seal, "d4")), 8)
			refuse(t, seal, "d4-d3", rules.Illegal, "a stack moves by the animal on top", "seal", "B2, B3.1")
			refuse(t, seal, "a1-a2", rules.Illegal, "White's", "B3.1")
			refuse(t, seal, "e5-e4", rules.Illegal, "no piece on e5", "B3.1")
		})
	}
}

func TestB3_2_OntoOpposingPiecesOnlyAndNeverFourHigh(t *testing.T) {
	for _, rs := range bothRulesets {
		t.Run(rs, func(t *testing.T) {
			s := at(t, rs, "l6l/8/8/3s4/3G4/8/8/L6L")
			eq(t, "onto the starfish", movesFrom(s, "d4"), []string{"d4-c4", "d4-d3", "d4-e4", "d4xd5"})
			next, rec := apply(t, s, "d4xd5")
			eq(t, "record", rec, "d4xd5")
			eq(t, "the mover goes on top", cellAt(next, "d5"), "G2")
			eq(t, "Black's pieces", next.count[rules.Black], 2)
			eq(t, "White's pieces", next.count[rules.White], 3)

			own := at(t, rs, "l6l/8/8/3S4/3G4/8/8/L6L")
			eq(t, "never onto an own piece", movesFrom(own, "d4"), []string{"d4-c4", "d4-d3", "d4-e4"})
			refuse(t, own, "d4-d5", rules.Illegal, "your own piece", "B3.2")

			four := at(t, rs, "l6l/8/8/3s24/3G24/8/8/L6L")
			switch rs {
			case RulesHoldorf:
				eq(t, "no stack of 4", movesFrom(four, "d4"), []string{"d4-c4", "d4-d3", "d4-e4"})
				refuse(t, four, "d4xd5", rules.Illegal, "stack of 4", "B3.2")
			case RulesSC2022:
				// B5: stacks may exceed 3; 2+2 is allowed and scores.
				eq(t, "2+2 is allowed", movesFrom(four, "d4"), []string{"d4-c4", "d4-d3", "d4-e4", "d4xd5"})
				next, rec := apply(t, four, "d4xd5")
				eq(t, "record", rec, "d4xd5+1")
				eq(t, "the stack of 4 left", cellAt(next, "d5"), "")
				eq(t, "points", next.points, [2]int{1, 0})
			}
		})
	}
}

func TestB4_1_StackOfThreeScoresAndLeaves(t *testing.T) {
	for _, rs := range bothRulesets {
		t.Run(rs, func(t *testing.T) {
			for _, pos := range []string{
				"l6l/8/8/3s24/3G4/8/8/L6L", // one onto two
				"l6l/8/8/3s4/3G24/8/8/L6L", // two onto one
			} {
				s := at(t, rs, pos)
				next, rec := apply(t, s, "d4xd5")
				eq(t, pos+" record", rec, "d4xd5+1")
				eq(t, pos+" stack left the board", cellAt(next, "d5")+cellAt(next, "d4"), "")
				eq(t, pos+" points", next.points, [2]int{1, 0})
				eq(t, pos+" White's pieces", next.count[rules.White], 2)
				eq(t, pos+" Black's pieces", next.count[rules.Black], 2)
			}
			// Two high scores nothing in either ruleset.
			next, rec := apply(t, at(t, rs, "l6l/8/8/3s4/3G4/8/8/L6L"), "d4xd5")
			eq(t, "2 high", rec, "d4xd5")
			eq(t, "2 high points", next.points, [2]int{0, 0})
		})
	}
}

func TestB4_2_FarRankScoresAndLeaves(t *testing.T) {
	cases := []struct {
		name, pos, move string
		holdorf, sc2022 string // records
		stays           string // what stands on the target square afterwards in sc2022
	}{
		{"gull", "l6l/3G4/8/8/8/8/8/L6L", "d7-d8", "d7-d8+1", "d7-d8+1", ""},
		{"stack", "l6l/3G24/8/8/8/8/8/L6L", "d7-d8", "d7-d8+1", "d7-d8+1", ""},
		{"onto a piece on the far rank", "l..g...l/3G4/8/8/8/8/8/L6L", "d7xd8", "d7xd8+1", "d7xd8+1", ""},
		{"Black cockle on rank 1", "l6l/8/8/8/8/8/3c4/L6L b", "d2-c1", "d2-c1+1", "d2-c1+1", ""},
		// B4.2 counts seals too; B5 does not.
		{"seal", "g6g/8/2L5/8/8/8/8/G6G", "c6-d8", "c6-d8+1", "c6-d8", "L"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hs, rec := apply(t, at(t, RulesHoldorf, c.pos), c.move)
			eq(t, "holdorf record", rec, c.holdorf)
			to := c.move[3:]
			eq(t, "holdorf: the piece left", cellAt(hs, to), "")
			eq(t, "holdorf points", hs.points[1-hs.ToMove()], 1)
			ss, rec := apply(t, at(t, RulesSC2022, c.pos), c.move)
			eq(t, "sc2022 record", rec, c.sc2022)
			eq(t, "sc2022: what stands there", cellAt(ss, to), c.stays)
		})
	}
}

func TestB4_3_BothAtOnce(t *testing.T) {
	// A gull onto a stack of two on the far rank: 3 high and the far rank.
	hs, rec := apply(t, at(t, RulesHoldorf, "l..s2...l/3G4/8/8/8/8/8/L6L"), "d7xd8")
	eq(t, "holdorf: 1 point only", rec, "d7xd8+1")
	eq(t, "holdorf points", hs.points, [2]int{1, 0})
	ss, rec := apply(t, at(t, RulesSC2022, "l..s2...l/3G4/8/8/8/8/8/L6L"), "d7xd8")
	eq(t, "sc2022: 2 points (B5)", rec, "d7xd8+2")
	eq(t, "sc2022 points", ss.points, [2]int{2, 0})
	// A seal doing the same scores only for the stack in sc2022.
	_, rec = apply(t, at(t, RulesSC2022, "g..s2...g/8/4L3/8/8/8/8/G6G"), "e6xd8")
	eq(t, "sc2022 seal", rec, "e6xd8+1")
	_, rec = apply(t, at(t, RulesHoldorf, "g..s2...g/8/4L3/8/8/8/8/G6G"), "e6xd8")
	eq(t, "holdorf seal", rec, "e6xd8+1")
}

func TestB4_4_EndOfTheGame(t *testing.T) {
	type want struct {
		status rules.Status
		winner rules.Side
		reason string
	}
	cases := []struct {
		name, rs, pos, move string
		want                want
	}{
		{"3 points win", RulesHoldorf, "l6l/3G4/8/8/8/8/8/L6L points=2-0", "d7-d8",
			want{rules.Win, rules.White, "3 victory points"}},
		{"3 points win though the mover has one piece left", RulesHoldorf, "l6l/3G4/8/8/8/8/8/L7 points=2-1", "d7-d8",
			want{rules.Win, rules.White, "3 victory points"}},
		{"the opponent left with one piece loses", RulesHoldorf, "7l/8/8/3s4/3G4/8/8/L6L", "d4xd5",
			want{rules.Win, rules.White, "the opponent is left with a single piece"}},
		{"the mover left with one piece after scoring loses", RulesHoldorf, "l6l/3G4/8/8/8/8/8/L7", "d7-d8",
			want{rules.Win, rules.Black, "the opponent is left with a single piece"}},
		{"both left with one piece: draw", RulesHoldorf, "7l/8/8/3s24/3G4/8/8/L7", "d4xd5",
			want{rules.Draw, 0, "both sides are left with a single piece"}},
		{"no piece at all is less than a single piece", RulesHoldorf, "8/8/8/8/8/8/3C4/G..G4 ply=1", "",
			want{rules.Win, rules.White, "the opponent is left with a single piece"}},
		// B5 has no single-piece rule: the game goes on.
		{"sc2022 plays on with one piece", RulesSC2022, "7l/8/8/3s4/3G4/8/8/L6L", "d4xd5",
			want{rules.Ongoing, 0, ""}},
		{"sc2022: 2 points end the game only after the round", RulesSC2022, "l6l/3G4/8/8/8/8/8/L6L points=1-0", "d7-d8",
			want{rules.Ongoing, 0, ""}},
		{"sc2022 no legal move loses", RulesSC2022, "8/8/8/8/8/8/3C4/G..G4 ply=1", "",
			want{rules.Win, rules.White, "the opponent has no legal move"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := at(t, c.rs, c.pos)
			if c.move != "" {
				s, _ = apply(t, s, c.move)
			}
			o := s.Outcome()
			if o.Status != c.want.status || (o.Status == rules.Win && o.Winner != c.want.winner) || o.Reason != c.want.reason {
				t.Errorf("outcome %+v, want %+v", o, c.want)
			}
			if o.Over() {
				if len(s.Moves()) != 0 {
					t.Errorf("moves offered after the end")
				}
				if !strings.HasPrefix(o.Ruling, "B") {
					t.Errorf("ruling %q", o.Ruling)
				}
			}
		})
	}
	// Blocked: Black's two cockle stacks could only go onto White's stacks
	// of two (B3.2: never 4 high). In sc2022 they may, and score.
	blocked := "8/8/8/c26c2/1G24S21/8/8/8 b"
	hs := at(t, RulesHoldorf, blocked)
	if o := hs.Outcome(); o.Status != rules.Win || o.Winner != rules.White || o.Reason != "the opponent has no legal move" || o.Ruling != "B4.4" {
		t.Errorf("holdorf blocked: %+v", o)
	}
	ss := at(t, RulesSC2022, blocked)
	eq(t, "sc2022 blocked?", strings.Join(movesFromAll(ss), " "), "a5xb4 h5xg4")
}

func movesFromAll(s rules.State) []string {
	var out []string
	for _, sq := range board.Squares() {
		out = append(out, movesFrom(s, board.Name(sq))...)
	}
	return out
}

func TestB4_5_Setup(t *testing.T) {
	s := at(t, RulesHoldorf, "")
	eq(t, "standard setup", boardText(&s.cells), "glcssclg/....s.../......../......../......../......../...S..../GLCSSCLG")
	eq(t, "start", s.start, startStandard)
	c := at(t, RulesHoldorf, "setup=SSS5/GGLLCC.. first=black")
	eq(t, "custom setup, turned 180° for Black", boardText(&c.cells),
		"..ccllgg/.....sss/......../......../......../......../SSS...../GGLLCC..")
	eq(t, "custom setup: Black begins", c.ToMove(), rules.Black)
	for _, bad := range []struct{ pos, want string }{
		{"setup=SS6/GGLLCC..", "B4.5"},                 // 8 pieces
		{"setup=SSS5/GGGLCC..", "B4.5"},                // 3 gulls
		{"setup=sss5/GGLLCC..", "upper case"},          // Black's letters
		{"setup=8/SSS5/GGLLCC..", "rank 2 and rank 1"}, // three ranks
		{"setup=SSS5/GGLLC2C..", "single discs"},       // "C2" is a stack
		{"setup=SSS5/GGLLCC.. ply=3", "ply="},
		{"glcssclg/8/8/8/8/8/8/GLCSSCLG setup=GLCSSCLG", "both"},
	} {
		_, err := Variant.New(rules.Options{Position: bad.pos})
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: got %v, want an error mentioning %q", bad.pos, err, bad.want)
		}
	}
	// sc2022 takes a custom home rank of its 8 pieces (B5), e.g. to replay a
	// server game.
	sc := at(t, RulesSC2022, "setup=GGLLCCSS")
	eq(t, "sc2022 custom rank", boardText(&sc.cells), "ssccllgg/......../......../......../......../......../......../GGLLCCSS")
	if _, err := Variant.New(rules.Options{Ruleset: RulesSC2022, Position: "setup=...S..../GLCSSCLG"}); err == nil || !strings.Contains(err.Error(), "B5") {
		t.Errorf("sc2022 with the holdorf setup: %v", err)
	}
}
