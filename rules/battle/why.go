package battle

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// whyMove is a move under explanation (why): the piece of type t on from
// going to (or shooting at) to, with what the checks look at.
type whyMove struct {
	p        *position
	t        uint8
	from, to rules.Square
	me       rules.Side
	c        uint8 // what stands on to
	d        rules.Dir
	k        int  // the distance along d
	straight bool // from and to lie on one rank, file or diagonal
}

// way returns the first square strictly between from and to that is
// missing or occupied, or NoSquare and false when the line is clear.
func (w *whyMove) way() (sq rules.Square, missing, ok bool) {
	for _, sq := range between(w.from, w.to, w.d, w.k) {
		if sq == rules.NoSquare {
			return sq, true, true
		}
		if w.p.cells[sq] != 0 {
			return sq, false, true
		}
	}
	return rules.NoSquare, false, false
}

type whyCheck = rules.Check[*whyMove]

// pathChecks say what stops a line from from to to (what: "the tank's
// way"): a gap (C1.5) or a piece.
func pathChecks(what lang.Text, ruling string) []whyCheck {
	return []whyCheck{
		{Fails: func(w *whyMove) bool { _, missing, _ := w.way(); return missing },
			Text: lang.Msg("a missing square ends every line: %s cannot cross the gap", what), Ruling: "C1.5"},
		{Fails: func(w *whyMove) bool { _, _, ok := w.way(); return ok }, Ruling: ruling,
			Say: func(w *whyMove) lang.Text {
				sq, _, _ := w.way()
				return lang.Msg("%s is blocked by the %s on %s", what, piece(typeOf(w.p.cells[sq])), board.Name(sq))
			}},
	}
}

// whyShot are the checks of a shot (C3).
var whyShot = append([]whyCheck{
	{Fails: func(w *whyMove) bool { return w.c == 0 }, Ruling: "C3.1",
		Say: func(w *whyMove) lang.Text { return lang.Msg("there is no piece on %s to shoot", board.Name(w.to)) }},
	{Fails: func(w *whyMove) bool { return sideOf(w.c) == w.me }, Text: lang.Msg("guns and machine-guns shoot only at enemy pieces"), Ruling: "C3.1"},
	{Fails: func(w *whyMove) bool { return w.t == pMGun && typeOf(w.c) == pTank }, Text: lang.Msg("a machine-gun never shoots at a tank"), Ruling: "C3.3"},
	{Fails: func(w *whyMove) bool { return w.t == pGun && !(w.straight && w.k <= gunRange && isForward[w.me][w.d]) },
		Text: lang.Msg("a gun shoots up to 5 squares left, right, straight forward or diagonally forward"), Ruling: "C3.2"},
	{Fails: func(w *whyMove) bool { return w.t == pMGun && !(w.straight && w.k <= mgunRange) },
		Text: lang.Msg("a machine-gun shoots up to 3 squares along a rank, file or diagonal"), Ruling: "C3.3"},
}, pathChecks(lang.Msg("the line of fire"), "C3.1")...)

// always is a check every move fails: a table's last word.
func always(*whyMove) bool { return true }

// whyPiece are each piece's checks of a move (C2), after the one that the
// square reached is not the mover's own.
var whyPiece = [numTypes][]whyCheck{
	pHQ: {{Fails: always, Text: lang.Msg("the headquarter moves one square in any direction, like a king"), Ruling: "C2"}},
	pGun: {{Fails: func(w *whyMove) bool { return w.c != 0 }, Ruling: "C2", Say: neverCapturesByMoving},
		{Fails: always, Ruling: "C2", Say: func(w *whyMove) lang.Text { return lang.Msg("a %s moves one square in any direction", piece(w.t)) }}},
	pCavalry: {{Fails: func(w *whyMove) bool { return w.c != 0 && typeOf(w.c) == pTank && isCavalryLeap(w.from, w.to) },
		Text: lang.Msg("a tank cannot be captured by a cavalry"), Ruling: "C2"},
		{Fails: always, Text: lang.Msg("a cavalry leaps (1,2), (1,3) or (2,3) squares, in any orientation"), Ruling: "C2"}},
	pTank: append([]whyCheck{{Fails: func(w *whyMove) bool { return !w.straight || w.d.Diagonal() || w.k > 2 },
		Text: lang.Msg("the tank moves one or two squares along a rank or file"), Ruling: "C2"}},
		pathChecks(lang.Msg("the tank's way"), "C2")...),
	pBomber: {{Fails: func(w *whyMove) bool { return !w.straight }, Text: lang.Msg("the bomber moves along a rank, file or diagonal, like a queen"), Ruling: "C2"},
		{Fails: func(w *whyMove) bool { _, _, gap := w.bomberWay(); return gap },
			Text: lang.Msg("a missing square ends every line: the bomber cannot cross the gap"), Ruling: "C1.5"},
		{Fails: func(w *whyMove) bool { _, enemy, _ := w.bomberWay(); return enemy != rules.NoSquare }, Ruling: "C2",
			Say: func(w *whyMove) lang.Text {
				_, enemy, _ := w.bomberWay()
				return lang.Msg("the bomber never passes over an enemy piece (the %s on %s)", piece(typeOf(w.p.cells[enemy])), board.Name(enemy))
			}},
		{Fails: func(w *whyMove) bool { friends, _, _ := w.bomberWay(); return friends > 1 }, Ruling: "C2",
			Say: func(w *whyMove) lang.Text {
				friends, _, _ := w.bomberWay()
				return lang.Msg("the bomber passes over at most one friendly piece per move, and there are %d in the way", friends)
			}}},
	pSoldier: {{Fails: func(w *whyMove) bool { return w.c != 0 && typeOf(w.c) == pTank }, Text: lang.Msg("a tank cannot be captured by a soldier"), Ruling: "C2"},
		{Fails: func(w *whyMove) bool { return w.straight && w.k == 1 },
			Text: lang.Msg("a soldier captures only one square sideways, straight forward or diagonally forward"), Ruling: "C2"},
		{Fails: func(w *whyMove) bool { return w.soldierDouble() && !light[w.from] }, Ruling: "C1.2",
			Say: func(w *whyMove) lang.Text {
				return lang.Msg("a soldier steps two squares only from a light square, and %s is dark", board.Name(w.from))
			}},
		{Fails: func(w *whyMove) bool { _, missing, _ := w.way(); return w.soldierDouble() && missing },
			Text: lang.Msg("a missing square ends every line: the soldier cannot cross the gap"), Ruling: "C1.5"},
		{Fails: func(w *whyMove) bool { _, _, ok := w.way(); return w.soldierDouble() && ok }, Ruling: "C2",
			Say: func(w *whyMove) lang.Text {
				mid, _, _ := w.way()
				return lang.Msg("the soldier cannot pass over the %s on %s", piece(typeOf(w.p.cells[mid])), board.Name(mid))
			}},
		{Fails: func(w *whyMove) bool { return w.soldierDouble() && w.c != 0 }, Text: lang.Msg("a soldier never captures with a two-square move"), Ruling: "C2"},
		{Fails: always, Text: lang.Msg("a soldier moves one square in any direction, or two in a straight line from a light square"), Ruling: "C2"}},
}

func init() { whyPiece[pMGun] = whyPiece[pGun] }

func neverCapturesByMoving(w *whyMove) lang.Text {
	return lang.Msg("a %s never captures by moving; it shoots from where it stands, e.g. %c%s!%s", piece(w.t), letters[w.t], board.Name(w.from), board.Name(w.to))
}

func isCavalryLeap(from, to rules.Square) bool {
	fa, ra := board.Coords(from)
	fb, rb := board.Coords(to)
	for _, o := range cavalryOffsets {
		if fb-fa == o[0] && rb-ra == o[1] {
			return true
		}
	}
	return false
}

// soldierDouble reports whether the move has the shape of a soldier's
// two-square step.
func (w *whyMove) soldierDouble() bool { return w.straight && w.k == 2 }

// bomberWay walks the bomber's line: the friendly pieces it would pass
// over, the first enemy piece in the way (NoSquare if none) and whether a
// missing square comes before either stops it.
func (w *whyMove) bomberWay() (friends int, enemy rules.Square, gap bool) {
	for _, sq := range between(w.from, w.to, w.d, w.k) {
		if sq == rules.NoSquare {
			return friends, rules.NoSquare, true
		}
		switch bc := w.p.cells[sq]; {
		case bc == 0:
		case sideOf(bc) != w.me:
			return friends, sq, false
		default:
			friends++
		}
	}
	return friends, rules.NoSquare, false
}

// whyOwn is the check that a move does not go onto the mover's own piece.
var whyOwn = []whyCheck{{Fails: func(w *whyMove) bool { return w.c != 0 && sideOf(w.c) == w.me },
	Say: func(w *whyMove) lang.Text {
		return lang.Msg("the %s on %s is your own piece", piece(typeOf(w.c)), board.Name(w.to))
	}}}

// why says why the piece of type t on from cannot go to (or shoot at)
// to, a move that the piece's own pattern (C2, C3) rules out: the first
// check of whyShot, or of whyOwn and whyPiece, that the move fails.
func (s *State) why(t uint8, from, to rules.Square, isShot bool) (lang.Text, string) {
	w := &whyMove{p: &s.pos, t: t, from: from, to: to, me: s.pos.side, c: s.pos.cells[to]}
	w.d, w.k, w.straight = line(from, to)
	tables := [][]whyCheck{whyOwn, whyPiece[t]}
	if isShot {
		tables = [][]whyCheck{whyShot}
	}
	for _, table := range tables {
		if c, reason, ruling := rules.Explain(w, table); c != nil {
			return reason, ruling
		}
	}
	return lang.Text{}, ""
}
