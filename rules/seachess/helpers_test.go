package seachess

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/rulestest"
)

// place builds a position string from cells written TOKEN@square, e.g.
// "K@g1 k@g12 C*@e5 bU@f6", then side, castling, en passant and extras.
func place(t testing.TB, cells, side string, extra ...string) string {
	t.Helper()
	grid := map[Square]string{}
	for _, c := range strings.Fields(cells) {
		tok, sq, ok := strings.Cut(c, "@")
		if !ok {
			t.Fatalf("cell %q: want TOKEN@square", c)
		}
		s, err := brd.Parse(sq)
		if err != nil {
			t.Fatal(err)
		}
		grid[s] = tok
	}
	var b strings.Builder
	for r := 11; r >= 0; r-- {
		if r < 11 {
			b.WriteByte('/')
		}
		empty := 0
		for f := range 12 {
			sq := brd.At(f, r)
			if sq == noSq {
				continue
			}
			tok, ok := grid[sq]
			if !ok {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			if len(tok) == 1 {
				b.WriteString(tok)
			} else {
				b.WriteString("[" + tok + "]")
			}
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
	}
	castle, ep, clock := "-", "-", "0"
	var rest []string
	for _, e := range extra {
		switch {
		case strings.HasPrefix(e, "castle:"):
			castle = strings.TrimPrefix(e, "castle:")
		case strings.HasPrefix(e, "ep:"):
			ep = strings.TrimPrefix(e, "ep:")
		case strings.HasPrefix(e, "clock:"):
			clock = strings.TrimPrefix(e, "clock:")
		default:
			rest = append(rest, e)
		}
	}
	return strings.Join(append([]string{b.String(), side, castle, ep, clock, "10"}, rest...), " ")
}

// setup starts a game from a position built by place.
func setup(t testing.TB, cells, side string, extra ...string) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{Position: place(t, cells, side, extra...)})
	if err != nil {
		t.Fatalf("position %q: %v", place(t, cells, side, extra...), err)
	}
	return s.(*State)
}

// start is the standard start.
func start(t testing.TB) *State {
	t.Helper()
	s, err := Variant.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// play applies moves given as text, failing on any error.
func play(t testing.TB, s *State, moves ...string) *State {
	t.Helper()
	for _, text := range moves {
		n, _ := step(t, s, text)
		s = n
	}
	return s
}

// step applies one move and returns the report.
func step(t testing.TB, s *State, text string) (*State, *rules.Report) {
	t.Helper()
	m, err := s.Parse(text)
	if err != nil {
		t.Fatalf("%q: %v\n%s", text, err, s.View(rules.ViewReferee).ASCII())
	}
	n, rep, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%q: %v\n%s", text, err, s.View(rules.ViewReferee).ASCII())
	}
	return n.(*State), rep
}

// tryMove parses and applies text, returning the error kind (0 for success).
func tryMove(t testing.TB, s *State, text string) (*State, *rules.Report, rules.ErrorKind) {
	t.Helper()
	m, err := s.Parse(text)
	if err == nil {
		var n rules.State
		var rep *rules.Report
		n, rep, err = s.Apply(m)
		if err == nil {
			return n.(*State), rep, 0
		}
	}
	var me *rules.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("%q: not a MoveError: %v", text, err)
	}
	return nil, nil, me.Kind
}

// texts lists the moves offered, sorted.
func texts(s *State) []string { return rulestest.MoveTexts(s) }

// from lists the offered moves whose text starts with prefix.
func from(s *State, prefix string) []string {
	var out []string
	for _, m := range texts(s) {
		if strings.HasPrefix(m, prefix) {
			out = append(out, m)
		}
	}
	return out
}

func has(s *State, text string) bool { return slices.Contains(texts(s), text) }

// wantMoves asserts the offered moves starting with prefix.
func wantMoves(t testing.TB, s *State, prefix string, want ...string) {
	t.Helper()
	got := from(s, prefix)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("moves %s…: got %v, want %v", prefix, got, want)
	}
}

// at returns the cell text the referee sees on a square.
func at(s *State, sq string) string {
	return s.pos.cellText(brd.MustParse(sq), everything)
}

func sqr(name string) Square { return brd.MustParse(name) }

// kindMoves lists the offered moves of one kind.
func kindMoves(s *State, k uint8) []string {
	var out []string
	for _, m := range s.Moves() {
		if m.Kind == k {
			out = append(out, s.Format(m))
		}
	}
	slices.Sort(out)
	return out
}
