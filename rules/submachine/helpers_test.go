package submachine

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// place builds a position string from pieces written as letter+square,
// upper case White and lower case Black ("Kg1 Ra5 kb12 pb4"); toMove is
// "w" or "b", ep the en passant square or "-".
func place(t testing.TB, toMove, ep, pieces string) string {
	t.Helper()
	p := newPos()
	for _, f := range strings.Fields(pieces) {
		side := rules.White
		l := f[0]
		if l >= 'a' && l <= 'z' {
			side, l = rules.Black, l-'a'+'A'
		}
		k := kindFromLetter(l)
		sq, err := board.Parse(f[1:])
		if k == 0 || err != nil {
			t.Fatalf("bad piece %q", f)
		}
		p.put(sq, cellOf(side, k))
	}
	text := p.String()
	text = text[:strings.Index(text, " ")] + " " + toMove + " " + ep + " 0 1"
	return text
}

// setup starts a game from the pieces given (see place).
func setup(t testing.TB, toMove, pieces string) *State {
	t.Helper()
	return setupEP(t, toMove, "-", pieces)
}

func setupEP(t testing.TB, toMove, ep, pieces string) *State {
	t.Helper()
	s, err := newGame(rules.Options{Position: place(t, toMove, ep, pieces)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// from lists the canonical moves of the piece on square name, sorted.
func from(s rules.State, name string) []string {
	var out []string
	for _, m := range s.Moves() {
		if board.Name(m.From) == name {
			out = append(out, s.Format(m))
		}
	}
	sort.Strings(out)
	return out
}

// targets lists the destination squares of the moves from name, sorted by
// square name as written ("a1 a2 b4").
func targets(s rules.State, name string) string {
	var out []string
	for _, m := range s.Moves() {
		if board.Name(m.From) == name && !slices.Contains(out, board.Name(m.To)) {
			out = append(out, board.Name(m.To))
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func sorted(s string) string {
	f := strings.Fields(s)
	sort.Strings(f)
	return strings.Join(f, " ")
}

// play applies moves by text and returns the final state.
func play(t testing.TB, s rules.State, moves ...string) rules.State {
	t.Helper()
	for i, text := range moves {
		m, err := s.Parse(text)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
		s, _, err = s.Apply(m)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
		rulestest.CheckState(t, s, text)
	}
	return s
}

// has reports whether text is a legal move (by its canonical text).
func has(s rules.State, text string) bool {
	return slices.Contains(rulestest.MoveTexts(s), text)
}

// parseErr parses text expecting a *rules.MoveError.
func parseErr(t testing.TB, s rules.State, text string) *rules.MoveError {
	t.Helper()
	return rulestest.ParseError(t, s, text)
}
