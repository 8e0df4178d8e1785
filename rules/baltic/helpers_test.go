package baltic

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

var bothRulesets = []string{RulesHoldorf, RulesSC2022}

// at builds a state from a position string, failing the test on error.
func at(t testing.TB, ruleset, position string) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{Ruleset: ruleset, Position: position})
	if err != nil {
		t.Fatalf("%s %q: %v", ruleset, position, err)
	}
	return s.(*State)
}

// movesFrom lists the canonical moves from one square, sorted.
func movesFrom(s rules.State, from string) []string {
	var out []string
	for _, m := range s.Moves() {
		if board.Name(m.From) == from {
			out = append(out, s.Format(m))
		}
	}
	slices.Sort(out)
	return out
}

// apply plays one move given as text and returns the new state and its
// referee record.
func apply(t testing.TB, s rules.State, text string) (*State, string) {
	t.Helper()
	m, err := s.Parse(text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	next, rep, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return next.(*State), rep.Record[rules.ViewReferee]
}

// refuse asserts that text is not accepted, with the given kind and an
// error that mentions each of want (ruling numbers, words).
func refuse(t testing.TB, s rules.State, text string, kind rules.ErrorKind, want ...string) {
	t.Helper()
	_, err := s.Parse(text)
	var me *rules.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("%q: want a MoveError, got %v", text, err)
	}
	if me.Kind != kind {
		t.Errorf("%q: kind %v, want %v (%s)", text, me.Kind, kind, me.Player())
	}
	for _, w := range want {
		if !strings.Contains(me.Player(), w) {
			t.Errorf("%q: error %q does not mention %q", text, me.Player(), w)
		}
	}
}

// cellAt is the text of one square ("G2", "s", "").
func cellAt(s *State, name string) string { return s.cells[board.MustParse(name)].text() }

func eq(t testing.TB, what string, got, want any) {
	t.Helper()
	if !equal(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func equal(a, b any) bool {
	as, ok1 := a.([]string)
	bs, ok2 := b.([]string)
	if ok1 && ok2 {
		return slices.Equal(as, bs)
	}
	return a == b
}
