package battle

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
)

func errorAs(err error, target **rules.MoveError) bool { return errors.As(err, target) }

// setUp builds a position from pieces written as letter and square ("Hg1"
// White, "hg12" Red) with side ("w" or "r") to move.
func setUp(t testing.TB, side, pieces string) *State {
	t.Helper()
	var p position
	for _, f := range strings.Fields(pieces) {
		typ := pieceType(f[0])
		sq, err := board.Parse(f[1:])
		if typ == pNone || err != nil {
			t.Fatalf("bad piece %q", f)
		}
		owner := rules.White
		if f[0] >= 'a' {
			owner = rules.Black
		}
		p.cells[sq] = cell(typ, owner)
	}
	p.move = 1
	if side == "r" {
		p.side = rules.Black
	}
	s, err := Variant.New(rules.Options{Position: p.String()})
	if err != nil {
		t.Fatalf("set-up %q: %v", pieces, err)
	}
	return s.(*State)
}

// from lists the canonical texts of the legal moves from a square, sorted.
func from(s *State, sq string) []string {
	at := board.MustParse(sq)
	var out []string
	for _, m := range s.moves {
		if m.From == at {
			out = append(out, s.Format(m))
		}
	}
	sort.Strings(out)
	return out
}

func texts(s *State) []string {
	var out []string
	for _, m := range s.moves {
		out = append(out, s.Format(m))
	}
	sort.Strings(out)
	return out
}

func wantMoves(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func has(s *State, text string) bool {
	return slices.Contains(texts(s), text)
}

// play parses and applies a move, failing the test on any error.
func play(t *testing.T, s *State, text string) (*State, *rules.Report) {
	t.Helper()
	m, err := s.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	next, rep, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return next.(*State), rep
}

// refused checks that text is rejected as illegal with a reason containing
// want and citing ruling.
func refused(t *testing.T, s *State, text, want, ruling string) {
	t.Helper()
	_, err := s.Parse(text)
	var me *rules.MoveError
	if !errorAs(err, &me) {
		t.Errorf("%s: accepted or wrong error %v", text, err)
		return
	}
	if me.Kind != rules.Illegal || !strings.Contains(me.Reason, want) || me.Ruling != ruling {
		t.Errorf("%s: %v (kind %v, ruling %q); want an illegal move because %q (%s)", text, me, me.Kind, me.Ruling, want, ruling)
	}
}

// at is the letter on a square ("" when empty).
func at(s *State, sq string) string {
	c := s.pos.cells[board.MustParse(sq)]
	if c == 0 {
		return ""
	}
	return string(letterOf(c))
}
