package chess

import (
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

func mustFEN(t testing.TB, fen string) *State {
	t.Helper()
	s, err := ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// play parses and applies moves, failing the test on any error.
func play(t testing.TB, s *State, moves ...string) *State {
	t.Helper()
	return rulestest.PlayFrom(t, s, moves...).(*State)
}

// from lists the SAN of the legal moves of the piece on square sq, sorted.
func from(s *State, sq string) string {
	var out []string
	for _, m := range s.Moves() {
		if squareName(int(m.From)) == sq {
			out = append(out, s.Format(m))
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func allMoves(s *State) string {
	var out []string
	for _, m := range s.Moves() {
		out = append(out, s.Format(m))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// parseErr parses text expecting a *rules.MoveError.
func parseErr(t testing.TB, s *State, text string) *rules.MoveError {
	t.Helper()
	return rulestest.ParseError(t, s, text)
}

// wantErr checks that text is refused with a reason containing reason and
// citing ruling.
func wantErr(t testing.TB, s *State, text, reason, ruling string) {
	t.Helper()
	e := parseErr(t, s, text)
	if !strings.Contains(e.Reason, reason) || e.Ruling != ruling {
		t.Errorf("%q: got %q (%s), want %q (%s)", text, e.Reason, e.Ruling, reason, ruling)
	}
}
