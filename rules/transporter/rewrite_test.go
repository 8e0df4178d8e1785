package transporter

import (
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// TestRewritesReadAsTheMoveOrRefused (issue 37): every legal move of
// random positions, rewritten in every form the notation accepts (with
// and without its letter, the square left in full, as a file, a rank or
// not at all, each separator, either case, spaces, dashes, marks), is read
// as that move or refused, never as another. 200 positions per ruleset
// (20 under -short, 3,000 with BOTTLEPOST_LONG=1).
func TestRewritesReadAsTheMoveOrRefused(t *testing.T) {
	t.Parallel()
	var st rulestest.RewriteStats
	r := rand.New(rand.NewPCG(37, 37))
	for i, ruleset := range Variant.Rulesets() {
		rulestest.RandomPositions(t, Variant, rules.Options{Ruleset: ruleset}, uint64(37+100*i), rulestest.Size(20, 200, 3000),
			func(s rules.State, where string) {
				rulestest.CheckRewrites(t, &notation, s, s.(*State).spelled(), r, where, &st)
			})
	}
	t.Log(st)
	if st.Read == 0 || st.Read < st.Moves {
		t.Errorf("too few texts were read as their move: %v", st)
	}
}

// FuzzMatch rewrites a legal move of a random position as the fuzzer
// chooses (the game, the position, the move, the form and how it is
// presented) and checks that the text is read as that move or refused;
// any other text must not upset Parse.
func FuzzMatch(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint16(3), uint64(7), "Rd3-a3@a8")
	f.Add(uint64(2), uint8(41), uint16(17), uint64(99), "x")
	f.Fuzz(func(t *testing.T, seed uint64, plies uint8, pick uint16, recipe uint64, text string) {
		var s rules.State
		rulestest.RandomPositions(t, Variant, rules.Options{}, seed%1000, int(plies%60)+1, func(p rules.State, _ string) { s = p })
		if _, err := s.Parse(text); err != nil && s.Outcome().Over() {
			return
		}
		moves := s.(*State).spelled()
		if len(moves) == 0 {
			return
		}
		m := moves[int(pick)%len(moves)]
		r := rand.New(rand.NewPCG(recipe, 0))
		texts := rulestest.Rewrites(&notation, m.Parts[int(recipe%uint64(len(m.Parts)))], m.Text, r)
		written := texts[int(recipe>>8%uint64(len(texts)))]
		if got, err := s.Parse(written); err == nil && got != m.Move {
			t.Fatalf("%q, written for %s, was read as %s", written, m.Text, s.Format(got))
		}
	})
}
