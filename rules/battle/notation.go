package battle

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Format writes m in the notation of C6: the piece letter, the square it
// leaves, "-" (or "x" for a capture, "!" for a shot) and the square it goes
// to or shoots at, then "^" and the square of the opposing piece removed
// when a soldier reaches the far end (C4).
func (s *State) Format(m rules.Move) string {
	sep := "-"
	switch {
	case m.Kind == kindShot:
		sep = "!"
	case board.Exists(m.To) && s.pos.cells[m.To] != 0:
		sep = "x"
	}
	b := make([]byte, 0, 12)
	b = append(b, letters[m.Piece%numTypes])
	b = append(b, board.Name(m.From)...)
	b = append(b, sep...)
	b = append(b, board.Name(m.To)...)
	if m.Aux != rules.NoSquare {
		b = append(b, '^')
		b = append(b, board.Name(m.Aux)...)
	}
	return string(b)
}

// safeFormat formats a move that may not belong to the position.
func (s *State) safeFormat(m rules.Move) string {
	if !board.Exists(m.From) || !board.Exists(m.To) || (m.Aux != rules.NoSquare && !board.Exists(m.Aux)) {
		return fmt.Sprintf("%+v", m)
	}
	return s.Format(m)
}

// Parse reads a move: the canonical form, the referee's record (with "+" or
// "#"), and every form notation reads (any case, no separators, SAN-style
// shortenings such as "Sd4", "Gc!c6", squares only "d3-d4").
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.GameOverError(text, s.outcome.Ruling, s.outcome, Variant.Sides())
	}
	if m, ok := s.canonical()[strings.TrimRight(strings.Join(strings.Fields(text), ""), "+#")]; ok {
		return m, nil
	}
	return notation.Match(text, s.spelled(), s.diagnose)
}

// notation is how Chess-Battle moves are read (C6): the letter (which the
// square left may stand for), from, - or x, or ! for a shot, to, and ^ with
// the square of the piece removed at the far end.
var notation = rules.Notation{
	Board:   board,
	Letters: letters[1:],
	Seps:    [][3]string{{"!", "!", ""}},
	AuxMark: "^",
}

// canonical maps each legal move's canonical text to it, built once.
func (s *State) canonical() map[string]rules.Move {
	c := s.cache
	c.exactOnce.Do(func() {
		c.exact = make(map[string]rules.Move, len(s.moves))
		for _, m := range s.moves {
			c.exact[s.Format(m)] = m
		}
	})
	return c.exact
}

// spelled lists the legal moves with every part written, for
// notation.Match, built once.
func (s *State) spelled() []rules.Spelled {
	c := s.cache
	c.spellOnce.Do(func() {
		c.spells = make([]rules.Spelled, len(s.moves))
		for i, m := range s.moves {
			w := rules.NewWritten()
			w.Letter, w.From, w.To, w.Aux = letters[m.Piece], m.From, m.To, m.Aux
			w.Capture = m.Kind != kindShot && s.pos.cells[m.To] != 0
			if m.Kind == kindShot {
				w.Mark = "!"
			}
			c.spells[i] = rules.Spelled{Move: m, Text: s.Format(m), Parts: []rules.Written{w}}
		}
	})
	return c.spells
}

// parsedMove is a move text read without reference to the position, as
// diagnose needs it.
type parsedMove struct {
	letter        uint8        // pNone when no piece letter was given
	from, to, aux rules.Square // grid cells, NoSquare when absent
	sep           byte         // '!' for a shot, else 0
	hasTo, hasAux bool
}

// parsed takes, of a text's readings, one that names the square left (else
// the first), as a parsedMove.
func parsed(readings []rules.Written) parsedMove {
	r := readings[0]
	for _, x := range readings {
		if x.From != rules.NoSquare {
			r = x
			break
		}
	}
	pr := parsedMove{letter: pieceType(r.Letter), from: r.From, to: r.To, aux: r.Aux, hasAux: r.Aux != rules.NoSquare}
	if r.From == rules.NoSquare {
		pr.from, pr.to = r.To, rules.NoSquare // only one square: the piece's, as C6 writes it first
	} else {
		pr.hasTo = true
	}
	if r.Mark == "!" {
		pr.sep = '!'
	}
	return pr
}

// diagnose explains, for a player and citing the ruling, why a text names
// no legal move.
func (s *State) diagnose(input string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	sides := Variant.Sides()
	me, them := s.pos.side, s.pos.side.Other()
	if s.outcome.Over() {
		return rules.GameOver, lang.Msg("the game is over: %s", s.outcome.Text(sides)), s.outcome.Ruling
	}
	if len(readings) == 0 {
		return rules.Unreadable, lang.Msg("write the piece letter, the square it leaves, - or x and the square it goes to (Sd3-d4, Bf1xf7); a shot with ! (Gc1!c6); a soldier at the far end with ^ and the piece removed (Sd11-d12^h9)"), "C6"
	}
	pr := parsed(readings)
	for _, sq := range []rules.Square{pr.from, pr.to, pr.aux} {
		if sq != rules.NoSquare && !board.Exists(sq) {
			return rules.Illegal, lang.Msg("%s is not a square of the board: ranks 1, 2, 11 and 12 have only the files c to j", board.Name(sq)), "C1.1"
		}
	}
	if !pr.hasTo {
		return rules.Illegal, lang.Msg("no legal move fits; name the square the piece leaves and the square it goes to, e.g. Sd3-d4"), "C6"
	}
	c := s.pos.cells[pr.from]
	if c == 0 {
		return rules.Illegal, lang.Msg("there is no piece on %s", board.Name(pr.from)), ""
	}
	t := typeOf(c)
	if sideOf(c) != me {
		return rules.Illegal, lang.Msg("the %s on %s is %s's; %s is to move", piece(t), board.Name(pr.from), rules.Word(sides[them]), rules.Word(sides[me])), "C1.3"
	}
	if pr.letter != pNone && pr.letter != t {
		return rules.Illegal, lang.Msg("the piece on %s is a %s (%c), not a %s (%c)", board.Name(pr.from), piece(t), letters[t], piece(pr.letter), letters[pr.letter]), "C6"
	}
	isShot := pr.sep == '!'
	if isShot && t != pGun && t != pMGun {
		return rules.Illegal, lang.Msg("only guns and machine-guns shoot; other pieces capture by moving (%s with x)", board.Name(pr.to)), "C3"
	}
	var fits []rules.Move
	for _, m := range s.pos.pieceMoves(nil, pr.from) {
		if m.To == pr.to && (m.Kind == kindShot) == isShot {
			fits = append(fits, m)
		}
	}
	if len(fits) == 0 {
		reason, ruling := s.why(t, pr.from, pr.to, isShot)
		return rules.Illegal, reason, ruling
	}
	arrival := t == pSoldier && board.Rank(pr.to) == farRank[me]
	if !arrival && pr.hasAux {
		return rules.Illegal, lang.Msg("only a soldier that reaches the far end removes an opposing piece with ^"), "C4"
	}
	m := fits[0]
	if arrival {
		choices := fits[0].Aux != rules.NoSquare
		switch {
		case !pr.hasAux && choices:
			return rules.Illegal, lang.Msg("the soldier leaves the board at the far end and you remove one of %s's pieces: name it with ^, e.g. %s^%s", rules.Word(sides[them]), s.Format(fits[0]), board.Name(fits[0].Aux)), "C4"
		case pr.hasAux && !choices:
			return rules.Illegal, lang.Msg("%s has nothing but the headquarter, which cannot be removed: write %s, and the soldier just leaves the board", rules.Word(sides[them]), s.Format(fits[0])), "C4"
		case pr.hasAux:
			ac := s.pos.cells[pr.aux]
			switch {
			case pr.aux == pr.to && ac != 0:
				return rules.Illegal, lang.Msg("the %s on %s is the piece you capture; remove another of %s's pieces", piece(typeOf(ac)), board.Name(pr.aux), rules.Word(sides[them])), "C4"
			case ac == 0:
				return rules.Illegal, lang.Msg("there is no piece on %s to remove; name one of %s's pieces", board.Name(pr.aux), rules.Word(sides[them])), "C4"
			case sideOf(ac) == me:
				return rules.Illegal, lang.Msg("the %s on %s is your own; you remove one of %s's pieces", piece(typeOf(ac)), board.Name(pr.aux), rules.Word(sides[them])), "C4"
			case typeOf(ac) == pHQ:
				return rules.Illegal, lang.Msg("the headquarter cannot be removed; name another of %s's pieces", rules.Word(sides[them])), "C4"
			}
			for _, f := range fits {
				if f.Aux == pr.aux {
					m = f
				}
			}
		}
	}
	n, _ := s.pos.play(m)
	if a := n.attacker(n.hq[me], them); a != rules.NoSquare {
		at := typeOf(n.cells[a])
		ruling := "C2"
		if at == pGun || at == pMGun {
			ruling = "C3.4"
		}
		return rules.Illegal, lang.Msg("that would leave your headquarter on %s attacked by the %s on %s", board.Name(n.hq[me]), piece(at), board.Name(a)), ruling
	}
	return rules.Illegal, lang.Text{}, ""
}

// line reports the direction and distance from a to b when they lie on one
// rank, file or diagonal of the grid (whether the squares between exist or
// not).
func line(a, b rules.Square) (d rules.Dir, k int, ok bool) {
	fa, ra := board.Coords(a)
	fb, rb := board.Coords(b)
	df, dr := fb-fa, rb-ra
	if (df == 0 && dr == 0) || (df != 0 && dr != 0 && rules.Abs(df) != rules.Abs(dr)) {
		return 0, 0, false
	}
	k = max(rules.Abs(df), rules.Abs(dr))
	for _, d := range rules.AllDirs {
		if x, y := d.Delta(); x == rules.Sign(df) && y == rules.Sign(dr) {
			return d, k, true
		}
	}
	return 0, 0, false
}

// between lists the grid cells strictly between a and b on a line, as
// squares (NoSquare for a missing one).
func between(a, b rules.Square, d rules.Dir, k int) []rules.Square {
	fa, ra := board.Coords(a)
	df, dr := d.Delta()
	out := make([]rules.Square, 0, k)
	for i := 1; i < k; i++ {
		out = append(out, board.At(fa+i*df, ra+i*dr))
	}
	return out
}
