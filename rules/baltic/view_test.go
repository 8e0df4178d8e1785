package baltic

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// The positions drawn in golden files: each start and a position from the
// middle of each sample game (game_test.go), with stacks on the board.
var viewPositions = []struct {
	name  string
	opt   rules.Options
	moves []string
}{
	{"holdorf-start", rules.Options{}, nil},
	{"holdorf-mid", rules.Options{}, sampleHoldorf[:21]},
	{"sc2022-start", rules.Options{Ruleset: RulesSC2022, Seed: 5}, nil},
	{"sc2022-mid", rules.Options{Ruleset: RulesSC2022, Seed: 5}, sampleSC2022[:14]},
}

func TestViewGolden(t *testing.T) {
	for _, p := range viewPositions {
		s := rulestest.Play(t, Variant, p.opt, p.moves...)
		for v := range rules.NumViewers {
			rulestest.Golden(t, p.name+"-"+v.String()+".txt", s.View(v).ASCII())
		}
	}
}

// TestViewStacksLegible checks the cells and the turned board directly.
func TestViewStacksLegible(t *testing.T) {
	s := at(t, RulesHoldorf, "l6l/8/8/3s24/3G24/8/8/L6L")
	v := s.View(rules.ViewWhite)
	eq(t, "d5", v.Cells[board.MustParse("d5")], "s2")
	eq(t, "d4", v.Cells[board.MustParse("d4")], "G2")
	eq(t, "a1", v.Cells[board.MustParse("a1")], "L")
	eq(t, "d3", v.Cells[board.MustParse("d3")], "")
	white := strings.Split(v.ASCII(), "\n")
	black := strings.Split(s.View(rules.ViewBlack).ASCII(), "\n")
	eq(t, "White's bottom rank", strings.TrimSpace(white[10]), "1 L  .  .  .  .  .  .  L  1")
	eq(t, "Black's files", strings.TrimSpace(black[2]), "h  g  f  e  d  c  b  a")
	eq(t, "Black's rank 4", strings.TrimSpace(black[6]), "4 .  .  .  .  G2 .  .  .  4")
	eq(t, "Black's rank 5", strings.TrimSpace(black[7]), "5 .  .  .  .  s2 .  .  .  5")
	for _, viewer := range []rules.Viewer{rules.ViewReferee, rules.ViewPublic, rules.ViewBlack} {
		if got := s.View(viewer).Cells; strings.Join(got, ",") != strings.Join(v.Cells, ",") {
			t.Errorf("%v sees other cells than White: nothing is hidden", viewer)
		}
	}
	for _, l := range v.Legend {
		if len(l) > 72 {
			t.Errorf("legend line longer than 72: %q", l)
		}
	}
	if !strings.Contains(strings.Join(v.Legend, " "), "C cockle  S starfish  L seal  G gull") {
		t.Errorf("legend: %q", v.Legend)
	}
	if !strings.Contains(strings.Join(v.Status, " "), "Points: White 0, Black 0") {
		t.Errorf("status: %q", v.Status)
	}
}

func TestHelp(t *testing.T) {
	lines := strings.Split(Variant.Help(), "\n")
	if len(lines) > 40 {
		t.Errorf("help has %d lines", len(lines))
	}
	for _, l := range lines {
		if len([]rune(l)) > 72 {
			t.Errorf("help line longer than 72: %q", l)
		}
	}
	for _, want := range []string{"B2", "B3", "B4", "B5", "B6", "b1-c2", "b1xc2", "d7-d8+1", "sc2022"} {
		if !strings.Contains(Variant.Help(), want) {
			t.Errorf("help does not mention %s", want)
		}
	}
}
