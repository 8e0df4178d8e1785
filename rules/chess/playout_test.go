package chess

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// TestPlayout plays random games to their end through the shared harness
// (consistency, serialisation, notation and rendering after every move).
// Random play ends by the fifty-move rule, dead positions, repetitions,
// and now and then a mate or stalemate.
func TestPlayout(t *testing.T) {
	games := rulestest.Size(50, 1000, 10000)
	start := time.Now()
	st := rulestest.Playout(t, rulestest.Config{Variant: Variant, Games: games, Seed: 1,
		// Half the time a capture when there is one: games reach their end
		// sooner (and mates, promotions and bare kings more often).
		Choose: func(r *rand.Rand, s rules.State, moves []rules.Move) int {
			i := r.IntN(len(moves))
			if r.IntN(2) == 0 {
				p := &s.(*State).pos
				for k := range moves {
					j := (i + k) % len(moves)
					if p.col[p.side^1]&bit(int(moves[j].To)) != 0 {
						return j
					}
				}
			}
			return i
		},
		Every: func(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report) {
			if after.Ply() != before.Ply()+1 || after.ToMove() == before.ToMove() {
				t.Fatalf("ply or side did not advance")
			}
		}})
	t.Logf("%v in %v", st, time.Since(start))
	if st.Finished != games {
		t.Errorf("%d of %d games finished", st.Finished, games)
	}
}
