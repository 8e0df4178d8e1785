package baltic

import (
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// playoutGames is how many games each playout test plays: 1,000, 20,000
// with BOTTLEPOST_LONG=1, 100 under -short.
func playoutGames() int { return rulestest.Size(100, 1000, 20000) }

// TestPlayoutHoldorf plays random games of the board game (B4) to the end.
// Holdorf has no draw rule and no move limit; random games all ended well
// within MaxPlies in every run so far (see docs/variants/baltic.md), so an
// unfinished game fails the test rather than being excused.
func TestPlayoutHoldorf(t *testing.T) {
	t.Parallel()
	longest := 0
	st := rulestest.Playout(t, rulestest.Config{Variant: Variant, Games: playoutGames(), Seed: 1, MaxPlies: 3000,
		Every: func(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report) {
			checkPlayoutMove(t, before, after, m, rep)
			longest = max(longest, after.Ply())
		}})
	t.Log(st)
	t.Logf("longest game: %d plies", longest)
	eq(t, "finished", st.Finished, st.Games)
}

// TestPlayoutSC2022 plays random sc2022 games (B5), each from its own
// shuffled setup, to the end (at most 60 plies).
func TestPlayoutSC2022(t *testing.T) {
	t.Parallel()
	st := rulestest.Playout(t, rulestest.Config{Variant: Variant, Options: rules.Options{Ruleset: RulesSC2022},
		Games: playoutGames(), Seed: 2, MaxPlies: 2 * sc2022Rounds, Every: checkPlayoutMove})
	t.Log(st)
	eq(t, "finished", st.Finished, st.Games)
}

// TestPlayoutFirstBlack plays holdorf games in which Black begins (B1).
func TestPlayoutFirstBlack(t *testing.T) {
	t.Parallel()
	for _, rs := range bothRulesets {
		st := rulestest.Playout(t, rulestest.Config{Variant: Variant, Options: rules.Options{Ruleset: rs, Position: "first=black"},
			Games: rulestest.Size(10, 100, 1000), Seed: 3, Every: checkPlayoutMove})
		t.Log(rs, st)
	}
}

// checkPlayoutMove checks what a move's report says against the states.
func checkPlayoutMove(t testing.TB, before, after rules.State, m rules.Move, rep *rules.Report) {
	b, a := before.(*State), after.(*State)
	mover := b.toMove
	pts := a.points[mover] - b.points[mover]
	if a.points[mover.Other()] != b.points[mover.Other()] {
		t.Fatalf("the opponent's points changed")
	}
	want := recordText(b.Format(m), pts)
	if rep.Record[rules.ViewReferee] != want || rep.Record[rules.ViewWhite] != want {
		t.Fatalf("record %q, want %q", rep.Record[rules.ViewReferee], want)
	}
	back, err := b.Parse(want)
	if err != nil || back != m {
		t.Fatalf("record %q does not parse back: %v", want, err)
	}
	if b.rs == holdorf && pts > 1 || pts > 2 || pts < 0 {
		t.Fatalf("%q scored %d", want, pts)
	}
	if pts > 0 && !a.cells[m.To].empty() {
		t.Fatalf("%q scored but the piece stayed", want)
	}
}
