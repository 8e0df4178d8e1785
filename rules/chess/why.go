package chess

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): the piece on from going to
// `to`, promoting to promo, with what the checks of the explainer tables
// look at.
type whyMove struct {
	p                *position
	from, to, promo  int
	pieceOnly        bool // the text named a piece, not a pawn
	us, them         int
	side, typ        int // the piece on from
	occ              bitboard
	df, dr, adf, adr int
	up               int  // a pawn's step forward: 8 or -8
	last             bool // to is on the first or last rank
	kind             int  // the move's kind, as far as its shape tells
	exposed          int8 // whether the move leaves the own king attacked: 0 not yet known, 1 yes, -1 no
}

func (s *State) whyMove(from, to, promo int, pieceOnly bool) *whyMove {
	p := &s.pos
	w := &whyMove{p: p, from: from, to: to, promo: promo, pieceOnly: pieceOnly,
		us: int(p.side), them: int(p.side) ^ 1, occ: p.col[0] | p.col[1],
		df: to%8 - from%8, dr: to/8 - from/8, last: to/8 == 7 || to/8 == 0}
	w.side, w.typ = p.pieceAt(from)
	w.adf, w.adr = max(w.df, -w.df), max(w.dr, -w.dr)
	w.up = 1 - 2*w.us
	if w.typ == Pawn {
		switch {
		case w.adr == 2:
			w.kind = KindDoubleStep
		case w.adf == 1 && to == int(p.ep):
			w.kind = KindEnPassant
		}
	}
	return w
}

// at names the piece on sq: "the knight on g1".
func (w *whyMove) at(sq int) lang.Text {
	_, t := w.p.pieceAt(sq)
	return lang.Msg("the %s on %s", piece(t), squareName(sq))
}

// exposes reports whether the move would leave the own king attacked.
func (w *whyMove) exposes() bool {
	if w.exposed == 0 {
		c := *w.p
		c.make(mkMove(w.from, w.to, w.typ, w.promo, w.kind))
		w.exposed = -1
		if c.attacked(c.kingSq(w.us), w.them, c.col[0]|c.col[1]) {
			w.exposed = 1
		}
	}
	return w.exposed == 1
}

func (w *whyMove) diagonal() bool { return w.adf == w.adr }
func (w *whyMove) straight() bool { return w.df == 0 || w.dr == 0 }

// castles reports whether the move has castling's shape: the king two
// squares along its home rank.
func (w *whyMove) castles() bool {
	return w.typ == King && w.adr == 0 && w.adf == 2 && w.from == 4+56*w.us
}

type whyCheck = rules.Check[*whyMove]

// whyFirst are the checks for any piece, before its own.
var whyFirst = []whyCheck{
	{Stage: 0, Fails: func(w *whyMove) bool { return w.typ == 0 },
		Say: func(w *whyMove) lang.Text { return lang.Msg("there is no piece on %s", squareName(w.from)) }},
	{Stage: 0, Fails: func(w *whyMove) bool { return w.side != w.us }, Ruling: "FIDE 1.2",
		Say: func(w *whyMove) lang.Text {
			sides := Variant.Sides()
			return lang.Msg("%s is %s's, and it is %s's move", w.at(w.from), rules.Word(sides[w.side]), rules.Word(sides[w.us]))
		}},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.from == w.to },
		Text: lang.Msg("a move has to take the piece to another square"), Ruling: "FIDE 3.10.1"},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.promo != 0 && w.typ != Pawn },
		Text: lang.Msg("only a pawn is promoted"), Ruling: "FIDE 3.7.3.3"},
}

// blocked is a slider's check that nothing stands between from and to.
var blocked = whyCheck{Stage: 2, Ruling: "FIDE 3.5",
	Fails: func(w *whyMove) bool { return between[w.from][w.to]&w.occ != 0 },
	Say: func(w *whyMove) lang.Text {
		b := between[w.from][w.to] & w.occ
		first := trailing(b)
		if w.to < w.from {
			first = 63 - leading(b)
		}
		return lang.Msg("the %s cannot move over %s", piece(w.typ), w.at(first))
	}}

// whyPiece are each piece's own checks: how it moves (FIDE 3.2–3.8).
var whyPiece = [...][]whyCheck{
	Knight: {{Stage: 1, Fails: func(w *whyMove) bool { return knightAtt[w.from]&bit(w.to) == 0 },
		Text: lang.Msg("a knight jumps to a square two squares along a rank or file and one across"), Ruling: "FIDE 3.6"}},
	Bishop: {{Stage: 1, Fails: func(w *whyMove) bool { return !w.diagonal() }, Text: lang.Msg("a bishop moves along a diagonal"), Ruling: "FIDE 3.2"},
		blocked},
	Rook: {{Stage: 1, Fails: func(w *whyMove) bool { return !w.straight() }, Text: lang.Msg("a rook moves along a rank or a file"), Ruling: "FIDE 3.3"},
		blocked},
	Queen: {{Stage: 1, Fails: func(w *whyMove) bool { return !w.diagonal() && !w.straight() },
		Text: lang.Msg("a queen moves along a rank, a file or a diagonal"), Ruling: "FIDE 3.4"},
		blocked},
	King: {{Stage: 1, Fails: func(w *whyMove) bool { return w.adf > 1 || w.adr > 1 },
		Text: lang.Msg("the king moves to an adjoining square, or castles"), Ruling: "FIDE 3.8.1"}},
	Pawn: whyPawn,
}

// whyPawn are the pawn's checks (FIDE 3.7).
var whyPawn = []whyCheck{
	{Stage: 0, Fails: func(w *whyMove) bool { return w.pieceOnly },
		Say: func(w *whyMove) lang.Text { return lang.Msg("%s is a pawn", w.at(w.from)) }},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.df == 0 && w.dr*w.up > 2 },
		Text: lang.Msg("a pawn advances one square, or two on its first move"), Ruling: "FIDE 3.7.1, 3.7.2"},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.dr*w.up <= 0 || w.adr > 2 || w.adf > 1 || w.adf == 1 && w.adr != 1 },
		Text: lang.Msg("a pawn moves straight forward, or captures one square diagonally forward"), Ruling: "FIDE 3.7.1, 3.7.3"},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.adr == 2 && w.df != 0 },
		Text: lang.Msg("a pawn captures only one square diagonally forward"), Ruling: "FIDE 3.7.3"},
	{Stage: 1, Fails: func(w *whyMove) bool { return w.adr == 2 && w.from/8 != 1+5*w.us },
		Text: lang.Msg("a pawn may advance two squares only on its first move"), Ruling: "FIDE 3.7.2"},
	{Stage: 2, Fails: func(w *whyMove) bool { return w.adr == 2 && w.occ&(bit(w.from+8*w.up)|bit(w.to)) != 0 },
		Text: lang.Msg("a pawn advances two squares only when both squares are empty"), Ruling: "FIDE 3.7.2"},
	{Stage: 2, Fails: func(w *whyMove) bool { return w.adf == 0 && w.occ&bit(w.to) != 0 }, Ruling: "FIDE 3.7.1",
		Say: func(w *whyMove) lang.Text {
			return lang.Msg("a pawn cannot capture straight ahead, and %s blocks it", w.at(w.to))
		}},
	{Stage: 2, Fails: func(w *whyMove) bool {
		return w.diagonalToNothing() && w.p.pt[Pawn]&w.p.col[w.them]&bit(w.to-8*w.up) != 0 && w.to/8 == 5-3*w.us
	}, Text: lang.Msg("a pawn can be taken en passant only on the move right after its double step"), Ruling: "FIDE 3.7.3.2"},
	{Stage: 2, Fails: (*whyMove).diagonalToNothing, Text: lang.Msg("a pawn moves diagonally only to capture"), Ruling: "FIDE 3.7.3"},
	{Stage: 2, Fails: func(w *whyMove) bool { return w.last && w.promo == 0 }, Ruling: "FIDE 3.7.3.3",
		Say: func(w *whyMove) lang.Text {
			return lang.Msg("a pawn that reaches the last rank must be exchanged for a queen, rook, bishop or knight: write %s=Q", squareName(w.to))
		}},
	{Stage: 2, Fails: func(w *whyMove) bool { return !w.last && w.promo != 0 },
		Text: lang.Msg("only a pawn that reaches the last rank is promoted"), Ruling: "FIDE 3.7.3.3"},
	{Stage: 2, Fails: func(w *whyMove) bool { return w.last && (w.promo < Knight || w.promo > Queen) },
		Text: lang.Msg("a pawn is promoted to a queen, rook, bishop or knight"), Ruling: "FIDE 3.7.3.3"},
}

// diagonalToNothing: a pawn's diagonal step onto a square with nothing to
// capture, en passant or otherwise.
func (w *whyMove) diagonalToNothing() bool {
	return w.adf == 1 && w.p.col[w.them]&bit(w.to) == 0 && w.to != int(w.p.ep)
}

// whyLast are the checks after the piece's own: the square reached and
// the own king (FIDE 3.1, 3.9.2).
var whyLast = []whyCheck{
	{Stage: 2, Fails: func(w *whyMove) bool { return w.p.col[w.us]&bit(w.to) != 0 }, Ruling: "FIDE 3.1",
		Say: func(w *whyMove) lang.Text {
			_, t := w.p.pieceAt(w.to)
			return lang.Msg("%s holds %s's own %s; no piece may move to a square its own side occupies", squareName(w.to), rules.Word(Variant.Sides()[w.us]), piece(t))
		}},
	{Stage: 3, Fails: func(w *whyMove) bool { return w.typ == King && w.exposes() }, Ruling: "FIDE 3.9.2",
		Say: func(w *whyMove) lang.Text { return lang.Msg("the king would be in check on %s", squareName(w.to)) }},
	{Stage: 3, Fails: func(w *whyMove) bool { return w.p.inCheck() && w.exposes() }, Ruling: "FIDE 3.9.2",
		Text: lang.Msg("the king is in check, and this move does not parry it")},
	{Stage: 3, Fails: (*whyMove).exposes, Ruling: "FIDE 3.9.2",
		Say: func(w *whyMove) lang.Text {
			return lang.Msg("%s is pinned: moving it would expose the king to check", w.at(w.from))
		}},
}

// why explains why the piece on from may not go to `to` (promoting to
// promo), going down the tables whyFirst, whyPiece and whyLast; stage says
// how far the move got through the rules (0: no such piece of the mover,
// 1: the piece does not move like that, 2: the way or the target square is
// wrong, 3: the own king would be in check, 4: legal), so that of several
// pieces the most telling explanation wins. pieceOnly tells that the text
// named a piece, not a pawn.
func (s *State) why(from, to, promo int, pieceOnly bool) (stage int, reason lang.Text, ruling string) {
	w := s.whyMove(from, to, promo, pieceOnly)
	if c, reason, ruling := rules.Explain(w, whyFirst); c != nil {
		return c.Stage, reason, ruling
	}
	if w.castles() {
		return s.whyCastle(from, to)
	}
	for _, table := range [][]whyCheck{whyPiece[w.typ], whyLast} {
		if c, reason, ruling := rules.Explain(w, table); c != nil {
			return c.Stage, reason, ruling
		}
	}
	return 4, lang.Text{}, ""
}
