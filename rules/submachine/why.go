package submachine

import (
	"slices"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): what the player wrote, from
// and to, with what the checks look at.
type whyMove struct {
	s        *State
	w        *written
	from, to rules.Square
	c        uint8 // the piece on from
	k        uint8 // its kind
	pseudo   []rules.Move
	gotMoves bool
}

// moves are the moves the piece on from makes to `to` by its pattern,
// whether or not they leave the king in check.
func (m *whyMove) moves() []rules.Move {
	if !m.gotMoves {
		m.gotMoves = true
		p := m.s.pos.clone()
		for _, x := range p.pieceMoves(nil, m.from, m.c) {
			if x.To == m.to {
				m.pseudo = append(m.pseudo, x)
			}
		}
	}
	return m.pseudo
}

// legalAs returns the legal move among moves that promotes as written.
func (m *whyMove) legalAs() (rules.Move, bool) {
	for _, x := range m.moves() {
		if slices.Contains(m.s.moves, x) && x.Promo == kindFromLetter(m.w.promo) {
			return x, true
		}
	}
	return rules.Move{}, false
}

func (m *whyMove) promoting() bool { return len(m.moves()) > 0 && m.moves()[0].Promo != 0 }

type whyCheck = rules.Check[*whyMove]

// whyTable is the explainer's table (M2–M7): the piece, the letter, the
// square reached, promotion and check, then how the piece moves.
var whyTable = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.c == 0 }, Say: func(m *whyMove) lang.Text { return lang.Msg("there is no piece on %s", board.Name(m.from)) }},
	{Fails: func(m *whyMove) bool { return sideOf(m.c) != m.s.pos.side }, Say: func(m *whyMove) lang.Text {
		return lang.Msg("the %s on %s is %s's", names[m.k], board.Name(m.from), sideName[sideOf(m.c)])
	}},
	{Fails: func(m *whyMove) bool { return m.w.kind != 0 && m.w.kind != m.k }, Ruling: "M7", Say: func(m *whyMove) lang.Text {
		return lang.Msg("the piece on %s is a %s, not a %s", board.Name(m.from), names[m.k], names[m.w.kind])
	}},
	{Fails: func(m *whyMove) bool { return m.w.kind == 0 && m.k != pawn }, Ruling: "M7", Say: func(m *whyMove) lang.Text {
		return lang.Msg("the piece on %s is a %s: write its letter, as in %c%s", board.Name(m.from), names[m.k], letters[m.k], m.w.input)
	}},
	{Fails: func(m *whyMove) bool { tc := m.s.pos.cells[m.to]; return tc != 0 && sideOf(tc) == m.s.pos.side },
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("you cannot capture your own piece on %s", board.Name(m.to))
		}},
	{Fails: func(m *whyMove) bool { _, ok := m.legalAs(); return ok }, Ruling: "M7",
		Say: func(m *whyMove) lang.Text { x, _ := m.legalAs(); return lang.Msg("write it as %s", m.s.Format(x)) }},
	{Fails: func(m *whyMove) bool { return m.promoting() && m.w.promo == 0 }, Ruling: "M5.3", Say: func(m *whyMove) lang.Text {
		return lang.Msg("a pawn reaching %s promotes: add =Q, =R, =B, =N, =C or =M", board.Name(m.to))
	}},
	{Fails: func(m *whyMove) bool { return len(m.moves()) > 0 && !m.promoting() && m.w.promo != 0 },
		Text: lang.Msg("only a pawn reaching rank 10, 11 or 12 (Black: 3, 2 or 1) promotes"), Ruling: "M5.3"},
	{Fails: func(m *whyMove) bool { return len(m.moves()) > 0 && m.s.check },
		Text: lang.Msg("your king is in check and this move does not get it out of check"), Ruling: "M6"},
	{Fails: func(m *whyMove) bool { return len(m.moves()) > 0 }, Text: lang.Msg("this move would leave your king in check"), Ruling: "M6"},
	{Fails: func(m *whyMove) bool { return isTeleport[m.from] && isTeleport[m.to] && m.k == pawn }, Text: lang.Msg("pawns may not teleport"), Ruling: "M3"},
}

// whyPawnTable says why a pawn cannot make a move its pattern rules out
// (M5).
var whyPawnTable = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.to == m.step() }, Ruling: "M5.1",
		Say: func(m *whyMove) lang.Text { return lang.Msg("the pawn is blocked: %s is occupied", board.Name(m.to)) }},
	{Fails: func(m *whyMove) bool {
		step := m.step()
		return step != rules.NoSquare && m.to == pawnStep[m.s.pos.side][step] && board.Rank(m.from) == startRank[m.s.pos.side]
	}, Ruling: "M5.1", Say: func(m *whyMove) lang.Text {
		return lang.Msg("the double step needs %s and %s empty", board.Name(m.step()), board.Name(m.to))
	}},
	{Fails: func(m *whyMove) bool { return hasSquare(pawnCaps[m.s.pos.side][m.from], m.to) }, Text: lang.Msg("a pawn moves diagonally only to capture"), Ruling: "M5.2"},
	{Fails: func(m *whyMove) bool { return board.File(m.from) == board.File(m.to) && m.step() != rules.NoSquare }, Ruling: "M5.1",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("a pawn steps to the next existing square ahead on its file, %s here; two such steps only from its start rank", board.Name(m.step()))
		}},
	{Fails: always, Text: pieceRule[pawn].text, Ruling: pieceRule[pawn].ruling},
}

// whyPieceTable says why another piece cannot: a blocked line, a
// teleport from an ordinary square, or its pattern (M2, M3).
var whyPieceTable = []whyCheck{
	{Fails: func(m *whyMove) bool { return blockedAt(m.s.pos, m.from, m.to, m.k) != rules.NoSquare }, Ruling: "M2",
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("the way from %s to %s is blocked on %s", board.Name(m.from), board.Name(m.to), board.Name(blockedAt(m.s.pos, m.from, m.to, m.k)))
		}},
	{Fails: func(m *whyMove) bool { return isTeleport[m.to] && !isTeleport[m.from] },
		Say: func(m *whyMove) lang.Text {
			return lang.Msg("%s; only a piece standing on a teleport square may teleport", pieceRule[m.k].text)
		},
		Cite: func(m *whyMove) string { return pieceRule[m.k].ruling + ", M3" }},
	{Fails: always, Say: func(m *whyMove) lang.Text { return pieceRule[m.k].text }, Cite: func(m *whyMove) string { return pieceRule[m.k].ruling }},
}

func (m *whyMove) step() rules.Square { return pawnStep[m.s.pos.side][m.from] }

// always is a check every move fails: a table's last word.
func always(*whyMove) bool { return true }

// why explains why the move written as w from `from` to `to` is not
// legal: the first check of whyTable, then of the pawn's or the piece's
// table, that it fails, with the ruling.
func (s *State) why(w *written, from, to rules.Square) (reason lang.Text, ruling string) {
	m := &whyMove{s: s, w: w, from: from, to: to, c: s.pos.cells[from]}
	m.k = kindOf(m.c)
	last := whyPieceTable
	if m.k == pawn {
		last = whyPawnTable
	}
	for _, table := range [][]whyCheck{whyTable, last} {
		if c, reason, ruling := rules.Explain(m, table); c != nil {
			return reason, ruling
		}
	}
	return lang.Text{}, ""
}
