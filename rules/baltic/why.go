package baltic

import (
	"slices"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): from → to, written with
// suffix (the record's "+N", if any).
type whyMove struct {
	s        *State
	from, to rules.Square
	suffix   string
	c        cell // the piece on from
}

func (m *whyMove) me() rules.Side { return m.s.toMove }

// what names the piece on from: the animal, or the stack with its top.
func (m *whyMove) what() lang.Text {
	if m.c.height() > 1 {
		return lang.Msg("the stack on %s (a %s on top)", board.Name(m.from), rules.Word(animalName[m.c.animal()]))
	}
	return lang.Msg("the %s on %s", rules.Word(animalName[m.c.animal()]), board.Name(m.from))
}

// record is the move's text in the record, with its points.
func (m *whyMove) record() lang.Text {
	pts, _, _ := m.s.gain(m.from, m.to)
	return lang.Raw(recordText(m.s.Format(m.s.move(m.from, m.to)), pts))
}

func (m *whyMove) points() int { pts, _, _ := m.s.gain(m.from, m.to); return pts }

type whyCheck = rules.Check[*whyMove]

// whyTable is the explainer's table (B2, B3, B6): the piece, its reach,
// the square reached, the stack's height, then how the move is written.
var whyTable = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.c.empty() }, Ruling: "B3.1",
		Say: func(m *whyMove) lang.Text { return lang.Msg("there is no piece on %s", board.Name(m.from)) }},
	{Fails: func(m *whyMove) bool { return m.c.owner() != m.me() }, Ruling: "B3.1",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("%s is %s's: a stack belongs to the owner of its top disc", m.what(), rules.Word(sideName(m.c.owner())))
		}},
	{Fails: func(m *whyMove) bool { return m.from == m.to }, Text: lang.Msg("a piece has to move to another square"), Ruling: "B2"},
	{Fails: func(m *whyMove) bool { return !slices.Contains(targets[m.me()][m.c.animal()][m.from], m.to) }, Ruling: "B2, B3.1",
		Say: func(m *whyMove) lang.Text {
			why := moveRuling[m.c.animal()]
			if m.c.height() > 1 {
				why = lang.Msg("a stack moves by the animal on top, and %s", why)
			}
			return lang.Msg("%s cannot reach %s: %s", board.Name(m.from), board.Name(m.to), why)
		}},
	{Fails: func(m *whyMove) bool { return m.s.cells[m.to].ownedBy(m.me()) }, Ruling: "B3.2",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("%s holds your own piece: you may never move onto your own piece", board.Name(m.to))
		}},
	{Fails: func(m *whyMove) bool { _, _, ok := m.s.gain(m.from, m.to); return !ok }, Ruling: "B3.2",
		Say: func(m *whyMove) lang.Text {
			_, h, _ := m.s.gain(m.from, m.to)
			return lang.Msg("that would make a stack of %d discs; stacks are never 4 high", h)
		}},
	{Fails: func(m *whyMove) bool { return m.suffix != "" && m.points() == 0 }, Ruling: "B6",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("%s scores no point (write %s)", m.s.Format(m.s.move(m.from, m.to)), m.record())
		}},
	{Fails: func(m *whyMove) bool { return m.suffix != "" }, Ruling: "B6",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("%s scores %s: its record is %s", m.s.Format(m.s.move(m.from, m.to)), pointText(m.points()), m.record())
		}},
	{Fails: func(*whyMove) bool { return true }, Ruling: "B6",
		Say: func(m *whyMove) lang.Text { return lang.Msg("that move is written %s", m.record()) }},
}

// why explains why the move from → to, written with suffix, is not legal
// here: the first check of whyTable that it fails.
func (s *State) why(from, to rules.Square, suffix string) (reason lang.Text, ruling string) {
	_, reason, ruling = rules.Explain(&whyMove{s: s, from: from, to: to, suffix: suffix, c: s.cells[from]}, whyTable)
	return reason, ruling
}
