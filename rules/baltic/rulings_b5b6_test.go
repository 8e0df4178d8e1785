package baltic

import (
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

// homeRankText is White's home rank a1–h1 of a state, as letters.
func homeRankText(s *State) string {
	var b strings.Builder
	for f := range 8 {
		b.WriteString(s.cells[board.At(f, 0)].text())
	}
	return b.String()
}

func TestB5_ShuffledHomeRankFromTheSeed(t *testing.T) {
	orders := map[string]bool{}
	for seed := range uint64(200) {
		s, err := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		st := s.(*State)
		var count [2][5]int
		for _, sq := range board.Squares() {
			c := st.cells[sq]
			if c.empty() {
				continue
			}
			f, r := board.Coords(sq)
			if r != homeRank[c.owner()] || c.height() != 1 {
				t.Fatalf("seed %d: %s on %s is not a single disc on its home rank", seed, c.text(), board.Name(sq))
			}
			count[c.owner()][c.animal()]++
			// Black's rank is White's turned 180°.
			w := st.cells[board.At(7-f, 7-r)]
			if w.empty() || w.animal() != c.animal() || w.owner() == c.owner() {
				t.Fatalf("seed %d: %s and %s are not each other turned 180°", seed, board.Name(sq), board.Name(board.At(7-f, 7-r)))
			}
		}
		for side := range 2 {
			if count[side] != [5]int{0, 2, 2, 2, 2} {
				t.Fatalf("seed %d: side %d has %v, want two of each animal", seed, side, count[side])
			}
		}
		s2, _ := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: seed})
		if homeRankText(s2.(*State)) != homeRankText(st) {
			t.Fatalf("seed %d: two different shuffles", seed)
		}
		orders[homeRankText(st)] = true
	}
	// 8!/(2!)^4 = 2520 orders; 200 seeds should give many.
	if len(orders) < 150 {
		t.Errorf("only %d different orders from 200 seeds", len(orders))
	}
	// The shuffle is part of the game record: a game replays from its seed
	// only while these stay as they are.
	for seed, want := range map[uint64]string{0: "LCSGCGLS", 1: "LSCLCGGS", 42: homeRankOf42} {
		s, _ := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: seed})
		eq(t, "home rank of seed", homeRankText(s.(*State)), want)
	}
	// The seed is kept: in the state, its serialisation and the board.
	s, _ := Variant.New(rules.Options{Ruleset: RulesSC2022, Seed: 42})
	s, _ = apply(t, s, s.(*State).Format(s.Moves()[0]))
	data, _ := s.MarshalBinary()
	if !strings.Contains(string(data), `"start":"shuffled","seed":42`) {
		t.Errorf("serialised state %s does not keep the seed", data)
	}
	if !strings.Contains(s.View(rules.ViewPublic).ASCII(), "Home ranks shuffled from seed 42 (B5).") {
		t.Errorf("the board does not show the seed")
	}
	back, err := Variant.Unmarshal(data)
	if err != nil || back.(*State).seed != 42 {
		t.Errorf("unmarshal: %v", err)
	}
	// holdorf does not shuffle: the seed is ignored.
	h, _ := Variant.New(rules.Options{Seed: 42})
	eq(t, "holdorf home rank", homeRankText(h.(*State)), "GLCSSCLG")
}

const homeRankOf42 = "SGGLCLSC" // recorded from the engine: a regression guard for replays

func TestB5_StacksAboveThreeAndScoring(t *testing.T) {
	// Two onto two: allowed, scores once (covered with B3.2); a single onto a
	// single scores nothing; stack of 3 plus far rank by a light piece: 2.
	s := at(t, RulesSC2022, "l6l/8/8/3s24/3G24/8/8/L6L")
	eq(t, "moves from d4", movesFrom(s, "d4"), []string{"d4-c4", "d4-d3", "d4-e4", "d4xd5"})
	next, rec := apply(t, s, "d4xd5")
	eq(t, "2+2", rec, "d4xd5+1")
	eq(t, "points", next.points, [2]int{1, 0})
	// A stack of 4 on the far rank scores 2 (B5: both scorings).
	s = at(t, RulesSC2022, "l..s2...l/3G24/8/8/8/8/8/L6L")
	_, rec = apply(t, s, "d7xd8")
	eq(t, "4 high on the far rank", rec, "d7xd8+2")
	_, rec = apply(t, at(t, RulesSC2022, "g6g/8/2L5/8/8/8/8/G6G"), "c6-d8")
	eq(t, "seals do not score on the far rank", rec, "c6-d8")
}

func TestB5_EndAfterTheRound(t *testing.T) {
	// 2 points end the game only after the full round: Black still moves.
	s := at(t, RulesSC2022, "l6l/3G4/8/8/8/8/8/L6L points=1-0")
	s, rec := apply(t, s, "d7-d8")
	eq(t, "record", rec, "d7-d8+1")
	eq(t, "after White's move", s.Outcome().Status, rules.Ongoing)
	s, _ = apply(t, s, "h8-g6")
	eq(t, "after the round", s.Outcome(), rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "more points", Ruling: "B5"})

	// Black draws level in the same round; the tie-break then finds no
	// light pieces to compare (only seals are left).
	s = at(t, RulesSC2022, "l6l/3G4/8/8/8/8/3g4/L6L points=1-1")
	s, _ = apply(t, s, "d7-d8")
	s, rec = apply(t, s, "d2-d1")
	eq(t, "Black's record", rec, "d2-d1+1")
	eq(t, "2-2", s.points, [2]int{2, 2})
	eq(t, "2-2, no light pieces to compare", s.Outcome(), rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"})

	// Round 30 is the last; the second player moves in it.
	s = at(t, RulesSC2022, "l6l/8/8/8/8/8/8/L6L ply=58")
	if !strings.Contains(s.View(rules.ViewWhite).ASCII(), "round 30 of 30") {
		t.Errorf("the board does not show round 30:\n%s", s.View(rules.ViewWhite).ASCII())
	}
	s, _ = apply(t, s, "a1-b3")
	eq(t, "ply 59", s.Outcome().Status, rules.Ongoing)
	s, _ = apply(t, s, "a8-b6")
	eq(t, "ply 60", s.Outcome(), rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"})
	if !strings.Contains(s.View(rules.ViewWhite).ASCII(), "ended in round 30 of 30") {
		t.Errorf("the board does not say the rounds are over")
	}
	if _, err := Variant.New(rules.Options{Ruleset: RulesSC2022, Position: "l6l/8/8/8/8/8/8/L6L ply=61"}); err == nil {
		t.Errorf("ply 61 accepted")
	}
}

func TestB5_TieBreakOnLightPieces(t *testing.T) {
	cases := []struct {
		name, pos string
		want      rules.Outcome
	}{
		{"more points win", "l6l/8/8/8/8/8/8/L6L points=1-0 ply=60",
			rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "more points", Ruling: "B5"}},
		{"equal distances", "l6l/8/8/3C4/4c3/8/8/L6L ply=60", // C d5: 4 ranks from home; c e4: 4 ranks
			rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"}},
		{"White further", "l6l/8/3C4/8/4c3/8/8/L6L ply=60", // 5 against 4
			rules.Outcome{Status: rules.Win, Winner: rules.White, Reason: "equal points, light pieces further forward", Ruling: "B5"}},
		{"second pair decides", "l6l/8/3C4/8/2G.c3/4g3/8/L6L points=1-1 ply=60", // [5,3] against [5,4]
			rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "equal points, light pieces further forward", Ruling: "B5"}},
		{"only as many pairs as the shorter list", "l6l/8/3C4/3S4/8/4c3/8/L6L ply=60", // [5,4] against [5]
			rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"}},
		{"seals are not light", "l6l/8/3L4/8/8/4c3/8/L7 ply=60", // [] against [5]
			rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"}},
		{"stacks count by the top", "l6l/8/3C24/8/8/4c3/8/L6L ply=60", // [5] against [5]
			rules.Outcome{Status: rules.Draw, Reason: "equal points and equal light pieces", Ruling: "B5"}},
		{"stacks count by the top, further", "l6l/8/3C24/8/8/8/4c3/L6L ply=60", // [5] against [6]
			rules.Outcome{Status: rules.Win, Winner: rules.Black, Reason: "equal points, light pieces further forward", Ruling: "B5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eq(t, c.pos, at(t, RulesSC2022, c.pos).Outcome(), c.want)
		})
	}
}

func TestB6_Notation(t *testing.T) {
	for _, rs := range bothRulesets {
		t.Run(rs, func(t *testing.T) {
			s := at(t, rs, "l6l/3G4/8/3s4/3G4/8/8/L6L")
			texts := rulesMoveTexts(s)
			for _, want := range []string{"d4xd5", "d4-d3", "d7-d8", "a1-b3"} {
				if !slices.Contains(texts, want) {
					t.Errorf("%s not among %v", want, texts)
				}
			}
			// Accepted forms of the same move, the record form included.
			for _, text := range []string{"d7-d8", "d7-d8+1", "d7d8", "D7-D8", "d7 d8", "d7:d8", " d7 - d8 +1 ", "d7-d8+"} {
				m, err := s.Parse(text)
				if err != nil || s.Format(m) != "d7-d8" {
					t.Errorf("%q: %v %v", text, s.Format(m), err)
				}
			}
			for _, text := range []string{"d4xd5", "d4-d5", "d4d5"} {
				if m, err := s.Parse(text); err != nil || s.Format(m) != "d4xd5" {
					t.Errorf("%q: %v", text, err)
				}
			}
			_, rec := apply(t, s, "d7-d8")
			eq(t, "record", rec, "d7-d8+1")
			refuse(t, s, "d7-d8+2", rules.Illegal, "scores 1 point", "d7-d8+1", "B6")
			refuse(t, s, "d4xd5+1", rules.Illegal, "scores no point", "B6")
			refuse(t, s, "hello", rules.Unreadable, "b1-c2", "B6")
			refuse(t, s, "", rules.Unreadable)
			refuse(t, s, "h1-f18", rules.Unreadable, "B6")
			refuse(t, s, "Gd7-d8", rules.Unreadable, "B6")
		})
	}
	// sc2022's double point.
	s := at(t, RulesSC2022, "l..s2...l/3G4/8/8/8/8/8/L6L")
	for _, text := range []string{"d7xd8", "d7xd8+2", "d7-d8+2"} {
		if m, err := s.Parse(text); err != nil || s.Format(m) != "d7xd8" {
			t.Errorf("%q: %v", text, err)
		}
	}
	refuse(t, s, "d7xd8+1", rules.Illegal, "scores 2 points", "d7xd8+2")
	// After the end nothing is accepted.
	over := at(t, RulesHoldorf, "l6l/3G4/8/8/8/8/8/L6L points=3-0")
	refuse(t, over, "d7-d8", rules.GameOver, "White wins")
	if _, _, err := over.Apply(rules.Move{From: board.MustParse("d7"), To: board.MustParse("d8"), Aux: rules.NoSquare, Piece: Gull}); err == nil {
		t.Errorf("Apply after the end accepted a move")
	}
}

func rulesMoveTexts(s rules.State) []string {
	var out []string
	for _, m := range s.Moves() {
		out = append(out, s.Format(m))
	}
	return out
}

// TestApplyRefusesUnlisted checks Apply's own validation (not only Parse's):
// moves that are not exactly one of Moves are refused, with the ruling.
func TestApplyRefusesUnlisted(t *testing.T) {
	s := at(t, RulesHoldorf, "l6l/8/8/3s24/3G24/8/8/L6L")
	before, _ := s.MarshalBinary()
	d4, d5, d3 := board.MustParse("d4"), board.MustParse("d5"), board.MustParse("d3")
	for _, c := range []struct {
		m    rules.Move
		want string
	}{
		{rules.Move{From: d4, To: d5, Aux: rules.NoSquare, Piece: Gull, Kind: KindOnto}, "B3.2"},          // 2+2
		{rules.Move{From: d4, To: d3, Aux: rules.NoSquare, Piece: Gull, Kind: KindOnto}, "written d4-d3"}, // wrong kind
		{rules.Move{From: d4, To: d3, Aux: rules.NoSquare, Piece: Seal}, ""},                              // wrong piece
		{rules.Move{From: d5, To: d4, Aux: rules.NoSquare, Piece: Starfish, Kind: KindOnto}, "B3.1"},
		{rules.Move{From: -1, To: 99}, ""},
	} {
		next, rep, err := s.Apply(c.m)
		if err == nil || next != nil || rep != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v %v", c.m, next, err)
		}
	}
	after, _ := s.MarshalBinary()
	eq(t, "unchanged", string(after), string(before))
	ok := rules.Move{From: d4, To: d3, Aux: rules.NoSquare, Piece: Gull}
	if _, _, err := s.Apply(ok); err != nil {
		t.Errorf("d4-d3: %v", err)
	}
}
