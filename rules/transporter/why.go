package transporter

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): the piece c, of kind k, on
// from going to `to`, with what the checks look at.
type whyMove struct {
	p                *position
	k, c, tc         uint8 // the kind and cell of the piece, and what stands on to
	from, to         rules.Square
	df, dr, adf, adr int
	fw               int  // the piece's forward rank step: 1 or -1
	line             bool // from and to lie on one rank, file or diagonal
}

func (w *whyMove) straight() bool { return w.df == 0 || w.dr == 0 }
func (w *whyMove) diagonal() bool { return w.adf == w.adr }

// between lists the squares strictly between from and to on a line
// (NoSquare for a cell off the board).
func (w *whyMove) between() []rules.Square {
	var out []rules.Square
	ff, fr := board.Coords(w.from)
	tf, tr := board.Coords(w.to)
	sf, sr := rules.Sign(w.df), rules.Sign(w.dr)
	for f, r := ff+sf, fr+sr; f != tf || r != tr; f, r = f+sf, r+sr {
		out = append(out, board.At(f, r))
	}
	return out
}

// blocked says what stops the line from from to to, or "".
func (w *whyMove) blocked() lang.Text {
	for _, sq := range w.between() {
		if sq == rules.NoSquare {
			return lang.Msg("the way leaves the board")
		}
		if b := w.p.cells[sq]; b != empty {
			if kindOf(b) == interference {
				return lang.Msg("the Interference on %s blocks the way (T3)", board.Name(sq))
			}
			return lang.Msg("the way is blocked by the %s on %s", rules.Word(kindNames[kindOf(b)]), board.Name(sq))
		}
	}
	return lang.Text{}
}

type whyCheck = rules.Check[*whyMove]

// isBlocked is the check of a line piece's way.
var isBlocked = whyCheck{Fails: func(w *whyMove) bool { return !w.blocked().IsZero() }, Say: (*whyMove).blocked}

// whyFirst are the checks for every piece, before its own (T2, T3).
var whyFirst = []whyCheck{
	{Fails: func(w *whyMove) bool { return w.from == w.to }, Text: lang.Msg("a move must go somewhere")},
	{Fails: func(w *whyMove) bool { return w.tc != empty && kindOf(w.tc) == interference },
		Text: lang.Msg("an Interference can never be captured nor landed on (T3)")},
	{Fails: func(w *whyMove) bool { return w.tc != empty && sideOf(w.tc) == sideOf(w.c) },
		Say: func(w *whyMove) lang.Text {
			return lang.Msg("you cannot capture your own %s", rules.Word(kindNames[kindOf(w.tc)]))
		}},
}

// whyPiece are each kind's own checks (T2); a move that passes them all
// is told that the piece cannot move like that.
var whyPiece = [...][]whyCheck{
	interference: {
		{Fails: func(w *whyMove) bool { return w.dr != 0 }, Text: lang.Msg("the Interference can only move along its own rank (T2)")},
		{Fails: func(w *whyMove) bool { return w.tc != empty }, Text: lang.Msg("the Interference never captures: it moves to an empty square of its rank (T2)")},
		{Fails: always, Text: lang.Msg("the Interference cannot stop on a transporter square (T3)")}},
	commander: {
		{Fails: func(w *whyMove) bool { return !w.line || !w.straight() }, Text: lang.Msg("a Commander moves along ranks and files")},
		isBlocked},
	assistant: {
		{Fails: func(w *whyMove) bool { return !w.line || w.straight() }, Text: lang.Msg("an Assistant moves along diagonals")},
		isBlocked},
	commodore: {
		{Fails: func(w *whyMove) bool { return !w.line }, Text: lang.Msg("a Commodore moves like a bishop and captures like a cannon along ranks and files")},
		{Fails: func(w *whyMove) bool { return w.diagonal() && w.tc != empty },
			Text: lang.Msg("a Commodore does not capture diagonally: it captures along ranks and files by jumping exactly one piece")},
		{Fails: func(w *whyMove) bool { return w.diagonal() && !w.blocked().IsZero() }, Say: (*whyMove).blocked},
		{Fails: func(w *whyMove) bool { return !w.diagonal() && w.tc == empty },
			Text: lang.Msg("a Commodore moves only diagonally; along ranks and files it goes only to capture, jumping exactly one piece")},
		{Fails: func(w *whyMove) bool { _, inter := w.screens(); return !w.diagonal() && inter },
			Text: lang.Msg("a Commodore may not use an Interference as its screen nor jump over one (T3)")},
		{Fails: func(w *whyMove) bool { return !w.diagonal() }, Say: func(w *whyMove) lang.Text {
			n, _ := w.screens()
			return lang.Msg("a Commodore captures by jumping exactly one piece, and there are %d between", n)
		}}},
	admiral: append(whyCaptain, whyCheck{Fails: always, Text: lang.Msg("the Admiral moves one square any way, or two along a rank or file over an empty square")}),
	advisor: append(whyCaptain, whyCheck{Fails: always, Text: lang.Msg("an Advisor moves one square any way, or two diagonally over an empty square")}),
	mate: append([]whyCheck{{Fails: func(w *whyMove) bool { return w.adr == 0 && w.adf == 1 && w.tc != empty }, Text: lang.Msg("a First Mate does not capture sideways")}},
		whyCheck{Fails: always, Text: lang.Msg("a First Mate moves one square any way")}),
	fighter: {
		{Fails: func(w *whyMove) bool { return w.df == 0 && w.dr == w.fw && w.tc == empty }, Text: lang.Msg("a Fighter moves straight forward only to capture")},
		{Fails: func(w *whyMove) bool { return w.adf == 1 && w.dr == w.fw && w.tc != empty }, Text: lang.Msg("a Fighter does not capture diagonally; it captures straight forward")},
		{Fails: func(w *whyMove) bool { return w.fighterDouble() && w.c&freshBit == 0 }, Text: lang.Msg("only a Fighter that has never moved may step two squares")},
		{Fails: func(w *whyMove) bool { return w.fighterDouble() && !w.blocked().IsZero() }, Say: (*whyMove).blocked},
		{Fails: (*whyMove).fighterDouble, Text: lang.Msg("a Fighter's two-step goes to an empty square")},
		{Fails: always, Text: lang.Msg("a Fighter moves one square diagonally forward (two from its start) and captures straight forward")}},
	superFighter: {
		{Fails: func(w *whyMove) bool { return w.adf == 1 && w.adr == 1 && w.tc != empty }, Text: lang.Msg("a Super Fighter does not capture diagonally")},
		{Fails: func(w *whyMove) bool { return w.adf+w.adr == 1 && w.dr != -w.fw && w.tc == empty },
			Text: lang.Msg("a Super Fighter moves only diagonally; it goes left, right or forward only to capture")},
		{Fails: always, Text: lang.Msg("a Super Fighter moves one square diagonally and captures one square left, right or forward")}},
}

// whyCaptain is the Admiral's and the Advisor's check of a two-square
// step: the square passed must be empty.
var whyCaptain = []whyCheck{{Fails: func(w *whyMove) bool {
	two := (w.k == admiral && w.straight() && w.adf+w.adr == 2) || (w.k == advisor && w.adf == 2 && w.adr == 2)
	return two && !w.blocked().IsZero()
}, Say: (*whyMove).blocked}}

// always is a check every move fails: a table's last word.
func always(*whyMove) bool { return true }

func (w *whyMove) fighterDouble() bool { return w.adf == 2 && w.dr == 2*w.fw }

// screens counts the pieces between from and to, and tells whether one
// of them is an Interference.
func (w *whyMove) screens() (n int, inter bool) {
	for _, sq := range w.between() {
		if b := w.p.cells[sq]; b != empty {
			if kindOf(b) == interference {
				return n, true
			}
			n++
		}
	}
	return n, false
}

// why explains why the piece c on from cannot reach to even ignoring
// check (T2, T3): the first check of whyFirst and the kind's whyPiece that
// the move fails.
func (s *State) why(k, c uint8, from, to rules.Square) lang.Text {
	w := &whyMove{p: &s.pos, k: k, c: c, tc: s.pos.cells[to], from: from, to: to, fw: 1}
	ff, fr := board.Coords(from)
	tf, tr := board.Coords(to)
	w.df, w.dr = tf-ff, tr-fr
	w.adf, w.adr = max(w.df, -w.df), max(w.dr, -w.dr)
	w.line = w.straight() || w.diagonal()
	if sideOf(c) == rules.Black {
		w.fw = -1
	}
	for _, table := range [][]whyCheck{whyFirst, whyPiece[k]} {
		if c, reason, _ := rules.Explain(w, table); c != nil {
			return reason
		}
	}
	return lang.Msg("the %s cannot move like that", rules.Word(kindNames[k]))
}
