package transporter

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// layout writes a position string from piece specs such as "Af1", "ae10"
// (Black), "F'c4" (a Fighter that has moved) or "S+e8" (promoted).
func layout(t testing.TB, side string, pieces ...string) string {
	t.Helper()
	at := map[rules.Square]string{}
	for _, spec := range pieces {
		i := 1
		for i < len(spec) && (spec[i] == '\'' || spec[i] == '+') {
			i++
		}
		sq, err := board.Parse(spec[i:])
		if err != nil {
			t.Fatalf("layout %q: %v", spec, err)
		}
		at[sq] = spec[:i]
	}
	var rows []string
	for r := 9; r >= 0; r-- {
		row, run := "", 0
		for _, sq := range rankSquares[r] {
			if p, ok := at[sq]; ok {
				if run > 0 {
					row += strconv.Itoa(run)
				}
				row, run = row+p, 0
			} else {
				run++
			}
		}
		if run > 0 {
			row += strconv.Itoa(run)
		}
		rows = append(rows, row)
	}
	return strings.Join(rows, "/") + " " + side
}

// setup starts a game from the pieces given.
func setup(t testing.TB, side string, pieces ...string) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{Position: layout(t, side, pieces...)})
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	return s.(*State)
}

// start is a new standard game.
func start(t testing.TB) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// from lists the canonical texts of the legal moves starting on square sq, sorted.
func from(t testing.TB, s rules.State, sq string) []string {
	t.Helper()
	f := board.MustParse(sq)
	var out []string
	for _, m := range s.Moves() {
		if m.From == f {
			out = append(out, s.Format(m))
		}
	}
	sort.Strings(out)
	return out
}

func sorted(list ...string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

func wantMoves(t testing.TB, s rules.State, sq string, want ...string) {
	t.Helper()
	got := from(t, s, sq)
	if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, sorted(want...))) {
		t.Errorf("moves from %s:\n got %v\nwant %v", sq, got, sorted(want...))
	}
}

// play applies moves given as text and returns the final state.
func play(t testing.TB, s rules.State, moves ...string) rules.State {
	t.Helper()
	return rulestest.PlayFrom(t, s, moves...)
}

// moveErr parses text and returns the *MoveError it must give.
func moveErr(t testing.TB, s rules.State, text string) *rules.MoveError {
	t.Helper()
	return rulestest.ParseError(t, s, text)
}

// wantErr checks that text is refused with the ruling and a reason
// containing the fragment.
func wantErr(t testing.TB, s rules.State, text string, kind rules.ErrorKind, ruling, fragment string) {
	t.Helper()
	me := moveErr(t, s, text)
	if me.Kind != kind || me.Ruling != ruling || !strings.Contains(me.Reason, fragment) {
		t.Errorf("%q: got %v %q (%s), want %v containing %q (%s)", text, me.Kind, me.Reason, me.Ruling, kind, fragment, ruling)
	}
}

func cell(s rules.State, sq string) string {
	return s.View(rules.ViewReferee).Cells[board.MustParse(sq)]
}
