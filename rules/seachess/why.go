package seachess

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): what the player wrote (in),
// judged on the board the mover knows (w: its own hidden things, none of
// the opponent's).
type whyMove struct {
	in      intent
	w       position
	x       rules.Side // the mover
	inCheck bool       // as the mover knows it
}

// from and to are the pieces on the squares the move names (0 for none).
func (m *whyMove) from() cell { return m.w.sq[m.in.from] }
func (m *whyMove) to() cell   { return m.w.sq[m.in.to] }

type whyCheck = rules.Check[*whyMove]

// always is a check every move fails: a table's last word.
func always(*whyMove) bool { return true }

// kindIs makes a check's condition on the kind of move written.
func kindIs(kinds ...uint8) func(*whyMove) bool {
	return func(m *whyMove) bool {
		for _, k := range kinds {
			if m.in.kind == k {
				return true
			}
		}
		return false
	}
}

// whyAny are the checks for every move: the aircraft in flight, a
// commando ship taken, and a move whose shape is fine but that check rules
// out (S7.3, S8.2–S8.4).
var whyAny = []whyCheck{
	{Fails: func(m *whyMove) bool {
		return m.w.airborne(m.x) != noSq && m.in.kind != mvAirCapture && m.in.kind != mvReturn
	}, Text: lang.Msg("your aircraft is in flight: it must capture on its carrier's outline (Aax…) or return (Aa-A), and nothing else may move"), Ruling: "S7.3"},
	{Fails: func(m *whyMove) bool {
		return kindIs(mvNormal, mvTorpedo, mvLaunch, mvAirCapture, mvSurfaceMove)(m) && m.in.to != noSq && m.to() == mk(commando, m.x.Other())
	}, Text: lang.Msg("a commando ship is never captured: a move onto its square is not a legal move"), Ruling: "S8.4"},
	{Fails: func(m *whyMove) bool { return m.shapeFits() && kindIs(mvCastleT, mvCastleC)(m) },
		Text: lang.Msg("your commando ship may not castle out of, through or into check, and nothing hidden from you could shield it"), Ruling: "S8.2"},
	{Fails: (*whyMove).shapeFits, Text: lang.Msg("your commando ship would be in check, and nothing hidden from you could shield it"), Ruling: "S8.3"},
}

// shapeFits reports whether a move the pieces allow has the shape written:
// then only the check test rules it out.
func (m *whyMove) shapeFits() bool {
	in := m.in
	for _, x := range m.w.pseudo(nil, m.inCheck) {
		if x.Kind == in.kind && x.Piece == uint8(in.piece) && (in.from == noSq || x.From == in.from) && (in.to == noSq || x.To == in.to) &&
			x.Promo == uint8(in.promo) {
			return true
		}
	}
	return false
}

// whyKind are the checks of the moves that start elsewhere than from a
// piece of the mover's on the board: castling, the aircraft, the
// submerged submarine (S5, S7, S8.2).
var whyKind = map[uint8][]whyCheck{
	mvCastleT: whyCastle,
	mvCastleC: whyCastle,
	mvReturn:  {{Fails: always, Text: lang.Msg("your aircraft is not in flight"), Ruling: "S7.3"}},
	mvAirCapture: {
		{Fails: func(m *whyMove) bool { return m.w.airborne(m.x) == noSq }, Text: lang.Msg("your aircraft is not in flight: launch it from its carrier (Ad4xag7)"), Ruling: "S7.2"},
		{Fails: always, Text: lang.Msg("the aircraft captures only an enemy piece on its carrier's outline, three squares away"), Ruling: "S7.2, S7.5"}},
	mvUnder:       append(whySubmerged, whyUnder...),
	mvSurfaceMove: append(whySubmerged, whySurfaceMove...),
	mvSurfaceHere: append(whySubmerged, whySurfaceHere...),
}

var whyCastle = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.w.castle&castleBit(m.x, m.in.kind == mvCastleT) == 0 },
		Text: lang.Msg("you may no longer castle on that side: the commando ship or its partner has moved"), Ruling: "S8.2"},
	{Fails: func(m *whyMove) bool { return m.inCheck }, Text: lang.Msg("you may not castle while in check"), Ruling: "S8.2"},
	{Fails: func(m *whyMove) bool {
		for _, t := range castlingOf(m.x, m.in.kind).empty {
			if m.w.sq[t] != 0 {
				return true
			}
		}
		return false
	}, Text: lang.Msg("the squares between the commando ship and its partner must be empty"), Ruling: "S8.2"},
	{Fails: func(m *whyMove) bool {
		cs := castlingOf(m.x, m.in.kind)
		for _, t := range append(append([]Square{}, cs.pass...), cs.partnerPath...) {
			if m.w.ownMine(t, m.x) {
				return true
			}
		}
		return false
	}, Text: lang.Msg("you may not castle across your own mine"), Ruling: "S3.4"},
	{Fails: always, Text: lang.Msg("your commando ship may not pass or land on an attacked square"), Ruling: "S8.2"},
}

var whySubmerged = []whyCheck{{Fails: func(m *whyMove) bool { return m.w.uw[m.x][m.in.from] == 0 }, Ruling: "S5.2",
	Say: func(m *whyMove) lang.Text {
		return lang.Msg("you have no submerged submarine on %s", sqName(m.in.from))
	}}}

var whySurfaceHere = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.from() != 0 && m.from().side() == m.x }, Text: lang.Msg("a submarine may not surface under your own piece"), Ruling: "S5.5"},
	{Fails: func(m *whyMove) bool { return m.from().is(commando) }, Text: lang.Msg("a submarine may not surface under a commando ship"), Ruling: "S5.5"},
	{Fails: func(m *whyMove) bool { return m.w.ownMine(m.in.from, m.x) }, Text: lang.Msg("a submarine may not surface onto your own mine"), Ruling: "S3.4"},
	{Fails: always, Text: lang.Msg("that is not a legal surfacing here"), Ruling: "S5.5"},
}

// notLeap is the check that a submarine's move is a knight's leap.
var notLeap = whyCheck{Fails: func(m *whyMove) bool { return !knightLeap(m.in.from, m.in.to) },
	Text: lang.Msg("a submarine moves like a knight, underwater too"), Ruling: "S5.1, S5.4"}

var whySurfaceMove = []whyCheck{
	notLeap,
	{Fails: func(m *whyMove) bool { return !m.to().enemy(m.x) },
		Text: lang.Msg("a submarine surfaces by moving only onto an enemy piece, which it captures; to come up on an empty square, surface in place (sSf5^)"), Ruling: "S5.5"},
	{Fails: always, Text: lang.Msg("a submarine cannot capture a destroyer"), Ruling: "S5.5"},
}

var whyUnder = append([]whyCheck{notLeap}, whyDive...)

// whyDive says why a submarine may not end underwater on to (S5.4).
var whyDive = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.to().is(destroyer) }, Text: lang.Msg("a submarine may not end underwater under a destroyer"), Ruling: "S5.4"},
	{Fails: func(m *whyMove) bool { return m.w.ownMine(m.in.to, m.x) }, Text: lang.Msg("a submarine may not end on your own mine"), Ruling: "S5.4"},
	{Fails: func(m *whyMove) bool { return m.w.uw[m.x][m.in.to] != 0 }, Text: lang.Msg("another of your submerged submarines is there"), Ruling: "S5.4"},
	{Fails: always, Text: lang.Msg("that is not a legal underwater move here"), Ruling: "S5.4"},
}

// whyFrom are the checks of the piece on the square a move starts from.
var whyFrom = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.from() == 0 }, Say: func(m *whyMove) lang.Text { return lang.Msg("there is no piece of yours on %s", sqName(m.in.from)) }},
	{Fails: func(m *whyMove) bool { return m.from().side() != m.x }, Say: func(m *whyMove) lang.Text { return lang.Msg("the piece on %s is not yours", sqName(m.in.from)) }},
	{Fails: func(m *whyMove) bool { return m.from().kind() != m.in.piece }, Say: func(m *whyMove) lang.Text {
		return lang.Msg("the piece on %s is a %s, not a %s", sqName(m.in.from), m.from().kind().String(), m.in.piece.String())
	}},
}

// whyPieceKind are the checks of the moves a piece on the board makes
// other than an ordinary move: the mine, the torpedo, the dive, the
// launch (S3–S7).
var whyPieceKind = map[uint8][]whyCheck{
	mvMine: {
		{Fails: func(m *whyMove) bool { return m.w.attr[m.in.from]&attrLoaded == 0 },
			Text: lang.Msg("this cruiser has laid its mine; it reloads by ending a move in your haven"), Ruling: "S3.2"},
		{Fails: always, Text: lang.Msg("there is a mine on this square already"), Ruling: "S3.2"}},
	mvTorpedo: {
		{Fails: func(m *whyMove) bool { return m.w.attr[m.in.from]&attrLoaded == 0 },
			Text: lang.Msg("this torpedo boat has fired; it reloads by ending a move in your haven"), Ruling: "S4.3"},
		{Fails: always, Ruling: "S4.2, S4.3", Say: func(m *whyMove) lang.Text {
			return lang.Msg("a torpedo hits an enemy piece one or two squares away on a forward diagonal (forward: the way the boat last moved, now %s), with no piece in between; it cannot hit a submerged submarine",
				facing(m.w.attr[m.in.from]).String())
		}}},
	mvSubmerge: append([]whyCheck{
		{Fails: func(m *whyMove) bool { return endurance(m.w.attr[m.in.from]) < 1 },
			Text: lang.Msg("this submarine may not dive yet: it must first be visible for 2 of your turns"), Ruling: "S5.3"},
		notLeap}, whyDive...),
	mvLaunch: {
		{Fails: func(m *whyMove) bool { return !onOutline(m.in.from, m.in.to) },
			Text: lang.Msg("the aircraft captures only on its carrier's outline, exactly three squares away"), Ruling: "S7.2"},
		{Fails: always, Text: lang.Msg("the aircraft captures only an enemy piece, never a submerged submarine"), Ruling: "S7.2, S7.5"}},
	mvNormal: whyOrdinary,
}

// whyOrdinary are the checks of an ordinary move or capture (S2–S8), the
// last saying how the piece moves.
var whyOrdinary = []whyCheck{
	{Fails: func(m *whyMove) bool { return m.to() != 0 && m.to().side() == m.x }, Text: lang.Msg("you cannot capture your own piece")},
	{Fails: func(m *whyMove) bool { return m.w.ownMine(m.in.to, m.x) }, Text: lang.Msg("you may never move onto your own mine"), Ruling: "S3.4"},
	{Fails: func(m *whyMove) bool {
		return m.in.piece == boat && brd.Rank(m.in.to) == lastRank(m.x) && m.in.promo == 0
	}, Ruling: "S2.4", Say: func(m *whyMove) lang.Text {
		sep := "-"
		if m.to() != 0 {
			sep = "x"
		}
		return lang.Msg("a boat reaching the last rank is promoted: name the piece it becomes, as in B%s%s%s=C (=C, =T, =S, =D or =A)", sqName(m.in.from), sep, sqName(m.in.to))
	}},
	{Fails: func(m *whyMove) bool { return m.in.promo == boat || m.in.promo == commando },
		Text: lang.Msg("a boat promotes to a cruiser, torpedo boat, submarine, destroyer or aircraft carrier"), Ruling: "S2.4"},
	{Fails: func(m *whyMove) bool { _, mine, ok := m.lineWay(); return ok && mine }, Text: lang.Msg("nothing may move across your own mine"), Ruling: "S3.4"},
	{Fails: func(m *whyMove) bool { _, mine, ok := m.lineWay(); return ok && !mine },
		Say: func(m *whyMove) lang.Text {
			sq, _, _ := m.lineWay()
			return lang.Msg("the way is blocked on %s", sqName(sq))
		},
		Cite: func(m *whyMove) string { return pieceRule[m.in.piece].ruling }},
	{Fails: func(m *whyMove) bool { return m.in.piece == boat && brd.Next(m.in.from, forward(m.x)) == noSq },
		Text: lang.Msg("a boat that cannot move forward may step sideways one square toward the centre, onto an empty square, and still captures diagonally"), Ruling: "S2.5"},
	{Fails: func(m *whyMove) bool { return m.in.piece == boat && m.in.capture },
		Text: lang.Msg("a boat captures one square diagonally forward, en passant only onto the square just passed by an enemy boat's first move"), Ruling: "S2.2, S2.3"},
	{Fails: always, Say: func(m *whyMove) lang.Text { return pieceRule[m.in.piece].text }, Cite: func(m *whyMove) string { return pieceRule[m.in.piece].ruling }},
}

// lineWay walks the line from the move's from to its to, when they share
// one: the first of the mover's own mines on it (mine), or the first
// square whose piece blocks the moving piece; ok is false when neither
// is met (a commando ship is never blocked, S8.1; a submarine leaps).
func (m *whyMove) lineWay() (sq Square, mine, ok bool) {
	in := m.in
	d, line := lineDir(in.from, in.to)
	if !line {
		return noSq, false, false
	}
	for t := brd.Next(in.from, d); t != noSq && t != in.to; t = brd.Next(t, d) {
		if m.w.ownMine(t, m.x) {
			return t, true, true
		}
		if m.w.sq[t] != 0 && in.piece != commando {
			if in.piece == boat || in.piece == carrier || movesLike(in.piece, in.from, in.to) {
				return t, false, true
			}
			return noSq, false, false
		}
	}
	return noSq, false, false
}

// why explains, for the player and with the ruling, why the move written
// (in) is not legal, judging on what the mover knows: the first check of
// whyAny, then of the move's own tables (whyKind, or whyFrom and
// whyPieceKind), that it fails.
func (s *State) why(in intent) (reason lang.Text, ruling string) {
	m := &whyMove{in: in, x: s.pos.toMove}
	m.w, m.inCheck = s.pos.knowledge(s.inCheck)
	tables := [][]whyCheck{whyAny, whyKind[in.kind]}
	if _, special := whyKind[in.kind]; !special {
		tables = [][]whyCheck{whyAny, whyFrom, whyPieceKind[in.kind]}
	}
	for _, table := range tables {
		if c, reason, ruling := rules.Explain(m, table); c != nil {
			return reason, ruling
		}
	}
	return lang.Text{}, ""
}
