package seachess

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// TestPlayouts plays random games to the end through rulestest.Playout,
// which checks after every move the state's consistency, its serialisation,
// the notation of every offered move, that Apply leaves its receiver alone
// and that every viewer's board renders. Games are split over parallel
// runs; captures are favoured a little so that games end sooner.
func TestPlayouts(t *testing.T) {
	games, runs := rulestest.Size(40, 1000, 5000), 4
	for run := range runs {
		t.Run(fmt.Sprint("run", run), func(t *testing.T) {
			t.Parallel()
			st := rulestest.Playout(t, rulestest.Config{
				Variant: Variant, Games: games / runs, Seed: uint64(100 + run), Choose: preferCaptures,
				Every: func(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report) {
					checkReport(t, before.(*State), after.(*State), m, rep)
				},
			})
			t.Log(st)
			if st.Finished != st.Games {
				t.Errorf("%d of %d games unfinished", st.Games-st.Finished, st.Games)
			}
		})
	}
}

// preferCaptures tries a capture first four times in five.
func preferCaptures(r *rand.Rand, s rules.State, moves []rules.Move) int {
	p := &s.(*State).pos
	var caps []int
	for i, m := range moves {
		if !hidden(m.Kind) && m.Kind != mvReturn && p.sq[m.To].enemy(p.toMove) {
			caps = append(caps, i)
		}
	}
	if len(caps) > 0 && r.IntN(5) != 0 {
		return caps[r.IntN(len(caps))]
	}
	return r.IntN(len(moves))
}

// checkReport checks what every move reports (S10): the sealed text is the
// canonical move, a hidden move reaches the opponent and the public as
// "(h)" at the start of their record, and the opponent's record is the
// public one.
func checkReport(t testing.TB, before, after *State, m rules.Move, rep *rules.Report) {
	x := before.ToMove()
	opp := rules.ViewerOf(x.Other())
	if rep.Text != before.Format(m) || rep.Move != m || rep.Mover != x || rep.Secret != hidden(m.Kind) {
		t.Fatalf("report of %s: %+v", before.Format(m), rep)
	}
	if rep.Secret && rep.Record[opp][:3] != "(h)" {
		t.Fatalf("hidden move %s reaches the opponent as %q", rep.Text, rep.Record[opp])
	}
	if rep.Record[opp] != rep.Record[rules.ViewPublic] {
		t.Fatalf("%s: the opponent's record %q differs from the public's %q", rep.Text, rep.Record[opp], rep.Record[rules.ViewPublic])
	}
	if after.Ply() != before.Ply()+1 || after.ToMove() == x {
		t.Fatalf("%s: ply or side to move not advanced", rep.Text)
	}
}
