package submachine

import (
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// TestPlayouts plays random games to the end with the shared harness, which
// checks after every move the state's Check, the serialisation and notation
// round trips, that Apply leaves its receiver alone, and every viewer's
// board. Games end by the rules of M6 (mate, stalemate, repetition, fifty
// moves, bare kings): none is cut short. Uniformly random games take about
// 700 plies here, most ending by the fifty-move rule, so 4% of the games
// are uniform and the rest follow squeeze, which ends them in about 200
// plies with every kind of ending.
func TestPlayouts(t *testing.T) {
	games := rulestest.Size(50, 1000, 10000)
	for _, ruleset := range Variant.Rulesets() {
		uniform := rulestest.Playout(t, rulestest.Config{
			Variant: Variant, Options: rules.Options{Ruleset: ruleset}, Games: games / 25, Seed: 2011,
		})
		t.Logf("ruleset %s, uniform: %v", ruleset, uniform)
		squeezed := rulestest.Playout(t, rulestest.Config{
			Variant: Variant, Options: rules.Options{Ruleset: ruleset}, Games: games - games/25, Seed: 1,
			Choose: squeeze,
		})
		t.Logf("ruleset %s, squeeze: %v", ruleset, squeezed)
		if n := uniform.Finished + squeezed.Finished; n != games {
			t.Errorf("%d of %d games finished", n, games)
		}
		for _, reason := range []string{"checkmate", "stalemate", "threefold repetition", "fifty-move rule", "insufficient material: bare kings"} {
			if uniform.Results[reason]+squeezed.Results[reason] == 0 {
				t.Errorf("no game ended by %s", reason)
			}
		}
	}
}

// squeeze is a random player that ends games sooner: it takes something
// seven times in eight when it can; otherwise, three times in four, it
// plays the move that leaves the opponent fewest replies (a mate first, ties
// broken at random); otherwise any move.
func squeeze(r *rand.Rand, s rules.State, moves []rules.Move) int {
	st := s.(*State)
	if r.IntN(8) > 0 {
		var caps []int
		for i, m := range moves {
			if st.pos.cells[m.To] != 0 || m.Kind == kindEnPassant {
				caps = append(caps, i)
			}
		}
		if len(caps) > 0 {
			return caps[r.IntN(len(caps))]
		}
	}
	if r.IntN(4) > 0 {
		p := st.pos.clone()
		best, bestScore := 0, 1<<30
		var buf []rules.Move
		for i, m := range moves {
			u := p.make(m)
			buf = p.legal(buf[:0])
			score := 4*len(buf) + r.IntN(4)
			if len(buf) == 0 && p.inCheck(p.side) {
				score = -1
			}
			if score < bestScore {
				best, bestScore = i, score
			}
			p.unmake(m, u)
		}
		return best
	}
	return r.IntN(len(moves))
}
