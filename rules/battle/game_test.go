package battle

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// sampleGame is the annotated game of docs/variants/chess-battle.md, as
// the referee records it.
var sampleGame = []string{
	"Sc2-b3", "Sj11-l9",
	"Sb3-b5", "Sl9-l7",
	"Gc1-c2", "Se10-g8",
	"Gc2-b3", "Sl7-l5",
	"Gb3!g8", "Sl5-l3",
	"Cd1-e4", "Sl3-k3",
	"Sj3xk3", "Sd10-e9",
	"Sk3-k4", "Bf12-a7",
	"Sk4-k6", "Ci12-g9",
	"Sk6-k8", "Sj10-i9",
	"Ce4-d6", "Cd12-e10",
	"Sk8-k10", "Cg9-i8",
	"Sk10-i12^f10", "Si10-h9",
	"Cd6xe9#",
}

// sampleMiddle is the number of plies after which the mid-game golden
// boards are drawn: White's soldier has just left the board on i12.
const sampleMiddle = 25

func TestSampleGame(t *testing.T) {
	var s rules.State = start(t)
	for i, text := range sampleGame {
		m, err := s.Parse(text)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		next, rep, err := s.Apply(m)
		if err != nil {
			t.Fatalf("move %d %s: %v", i+1, text, err)
		}
		if rep.Record[rules.ViewReferee] != text {
			t.Errorf("move %d recorded as %q, want %q", i+1, rep.Record[rules.ViewReferee], text)
		}
		s = next
	}
	o := s.Outcome()
	if o.Status != rules.Win || o.Winner != rules.White || o.Reason != "checkmate" || s.Ply() != len(sampleGame) {
		t.Errorf("outcome %+v after %d plies", o, s.Ply())
	}
	final := s.(*State)
	for sq, want := range map[string]string{"e9": "C", "e10": "c", "i8": "c", "a7": "b", "h9": "s", "b3": "G", "b5": "S",
		"f10": "", "d12": "", "i12": "", "f12": "", "g8": "", "d6": ""} {
		if got := at(final, sq); got != want {
			t.Errorf("after the game %s holds %q, want %q", sq, got, want)
		}
	}
}

func TestGoldenBoards(t *testing.T) {
	middle := rulestest.Play(t, Variant, rules.Options{}, sampleGame[:sampleMiddle]...)
	for name, s := range map[string]rules.State{"start": start(t), "middle": middle} {
		for v := range rules.NumViewers {
			rulestest.Golden(t, name+"-"+v.String()+".txt", s.View(v).ASCII())
		}
	}
}

func TestReportsAndViews(t *testing.T) {
	s := rulestest.Play(t, Variant, rules.Options{}, sampleGame[:sampleMiddle-1]...).(*State)
	next, rep := play(t, s, "Sk10-i12^f10")
	want := "White's soldier reached i12 and left the board; White removed Red's soldier on f10 (C4)."
	for v := range rules.NumViewers {
		if rep.Record[v] != "Sk10-i12^f10" || strings.Join(rep.English(v), " ") != want {
			t.Errorf("%v: record %q, notices %q", v, rep.Record[v], rep.English(v))
		}
	}
	if rep.Mover != rules.White || rep.Text != "Sk10-i12^f10" || rep.Secret {
		t.Errorf("report %+v", rep)
	}
	// Nothing is hidden: every viewer sees the same cells.
	ref := next.View(rules.ViewReferee)
	for v := range rules.NumViewers {
		if got := next.View(v); strings.Join(got.Cells, ",") != strings.Join(ref.Cells, ",") {
			t.Errorf("%v sees other cells than the referee", v)
		}
	}
	if ref.Cells[board.MustParse("d6")] != "C" || ref.Cells[board.MustParse("e10")] != "c" {
		t.Errorf("cells: d6 %q, e10 %q", ref.Cells[board.MustParse("d6")], ref.Cells[board.MustParse("e10")])
	}
}
