package transporter

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// notation is how Transporter Chess moves are read (T7): the piece letter
// always, from, - or x, to, the transporter's @square (which may be left
// out where only one move fits, T4.1) and the promotion (which may be left
// out: it is compulsory and has one choice, T5), as =S or (S).
var notation = rules.Notation{
	Board:         board,
	Letters:       letters[1:],
	NeedLetter:    true,
	Promotions:    letters[1:], // every letter, so that why can say which is wrong
	OptionalPromo: true,
	AuxMark:       "@",
	OptionalAux:   true,
}

// spelled lists the legal moves with every part written, for
// notation.Match, built once per state.
func (s *State) spelled() []rules.Spelled {
	c := s.parse
	c.spellOnce.Do(func() {
		c.spells = make([]rules.Spelled, len(s.moves))
		for i, m := range s.moves {
			w := rules.NewWritten()
			w.Letter, w.From, w.To, w.Aux = letters[m.Piece], m.From, m.To, m.Aux
			w.Capture = m.Kind == capture
			if m.Promo != 0 {
				w.Promo = letters[m.Promo]
			}
			c.spells[i] = rules.Spelled{Move: m, Text: s.Format(m), Parts: []rules.Written{w}}
		}
	})
	return c.spells
}

// exact maps the canonical text of each legal move to it: Parse's fast
// path, which gives what Match would (a canonical form names one move and
// is no other move's alias).
func (s *State) exact() map[string]rules.Move {
	c := s.parse
	c.exactOnce.Do(func() {
		c.exact = make(map[string]rules.Move, len(s.moves))
		for _, m := range s.moves {
			c.exact[s.Format(m)] = m
		}
	})
	return c.exact
}

// diagnose explains, for a player and citing the ruling, why a text that
// named no legal move is wrong: of its readings, one that names the square
// left (else the first).
func (s *State) diagnose(input string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	if len(readings) == 0 {
		if name := missingSquare(input); name != "" {
			return 0, lang.Msg("%s is not a square of the board: ranks 1 and 10 run from d to g, ranks 2 and 9 from b to i", name), "T1.1"
		}
		return rules.Unreadable, lang.Msg("write a move as letter, from, - or x, to, as in Rd1-d7, Cd4xd8, Rd3-a3@a8 or Fc8-d9=S"), "T7"
	}
	r := readings[0]
	for _, x := range readings {
		if x.From != rules.NoSquare {
			r = x
			break
		}
	}
	for _, sq := range []rules.Square{r.From, r.To, r.Aux} {
		if sq != rules.NoSquare && !board.Exists(sq) {
			return 0, lang.Msg("%s is not a square of the board: ranks 1 and 10 run from d to g, ranks 2 and 9 from b to i", board.Name(sq)), "T1.1"
		}
	}
	w := written{piece: kindByLetter(r.Letter), from: r.From, to: r.To, dest: r.Aux, promo: kindByLetter(r.Promo), promoGiven: r.Promo != 0}
	p := &s.pos
	me := p.toMove
	if w.from == rules.NoSquare {
		if w.piece == empty {
			return rules.Unreadable, lang.Msg("name the piece and the square it moves from, as in Rd1-d7"), "T7"
		}
		return 0, lang.Msg("none of your %ss can go to %s", kindNames[w.piece], board.Name(w.to)), "T2"
	}
	c := p.cells[w.from]
	switch {
	case c == empty:
		return 0, lang.Msg("there is no piece on %s", board.Name(w.from)), ""
	case sideOf(c) != me:
		return 0, lang.Msg("the %s on %s is %s's; it is %s's turn", kindNames[kindOf(c)], board.Name(w.from), sideNames[me.Other()], sideNames[me]), ""
	case w.piece != empty && w.piece != kindOf(c):
		return 0, lang.Msg("the piece on %s is your %s, not %s", board.Name(w.from), kindNames[kindOf(c)], article(kindNames[w.piece])), "T2"
	case w.piece == empty && s.movesFromTo(w.from, w.to):
		sep := "-"
		if r.Capture || p.cells[w.to] != empty {
			sep = "x"
		}
		return 0, lang.Msg("write the piece letter: the piece on %s is your %s, so the move is %c%s%s%s",
			board.Name(w.from), kindNames[kindOf(c)], letters[kindOf(c)], board.Name(w.from), sep, board.Name(w.to)), "T7"
	}
	k := kindOf(c)
	var reach []rules.Move // pseudo-legal moves from → to
	for _, m := range p.pieceMoves(nil, w.from) {
		if m.To == w.to {
			reach = append(reach, m)
		}
	}
	if len(reach) == 0 {
		return 0, s.why(k, c, w.from, w.to), "T2"
	}
	var legal []rules.Move
	for _, m := range reach {
		if s.isLegal(m) {
			legal = append(legal, m)
		}
	}
	if w.dest != rules.NoSquare {
		o := opposite[w.to]
		switch {
		case !transporterSq[w.to]:
			return 0, lang.Msg("%s is not a transporter square (only a3 a8 j3 j8 are)", board.Name(w.to)), "T4.1"
		case w.dest != o[0] && w.dest != o[1]:
			return 0, lang.Msg("from %s a piece is transported to %s or %s only", board.Name(w.to), board.Name(o[0]), board.Name(o[1])), "T4.1"
		case w.dest == w.from:
			return 0, lang.Msg("a piece is never carried back to the square it started its move on"), "T4.1"
		case p.cells[w.dest] != empty:
			return 0, lang.Msg("%s is occupied, so nothing can be transported there", board.Name(w.dest)), "T4.1"
		}
	}
	if len(legal) == 0 {
		return 0, lang.Msg("your Admiral would be in check after that move"), "T4.3"
	}
	if w.promoGiven {
		m := legal[0]
		switch {
		case m.Promo == 0 && c&promotedBit != 0:
			return 0, lang.Msg("a piece promotes only once in its life"), "T5"
		case m.Promo == 0:
			return 0, lang.Msg("%s does not promote there: Fighters, Super Fighters and First Mates promote on arriving in the enemy camp", article(kindNames[k])), "T5"
		case m.Promo != w.promo:
			return 0, lang.Msg("%s arriving in the enemy camp becomes %s", article(kindNames[k]), article(kindNames[m.Promo])), "T5"
		}
	}
	if w.dest != rules.NoSquare {
		return 0, lang.Msg("your Admiral would be in check after that transport"), "T4.3"
	}
	return 0, lang.Text{}, ""
}

// written is a move as a player wrote it, as diagnose needs it.
type written struct {
	piece          uint8 // 0 when no letter was given
	from, to, dest rules.Square
	promo          uint8
	promoGiven     bool
}

// movesFromTo reports whether a legal move goes from from to to.
func (s *State) movesFromTo(from, to rules.Square) bool {
	for _, m := range s.moves {
		if m.From == from && m.To == to {
			return true
		}
	}
	return false
}

// missingSquare finds in text a coordinate of the 10×10 grid that is not
// one of the board's 84 squares ("a1", "j10"), or "".
func missingSquare(text string) string {
	t := strings.ToLower(text)
	for i := 0; i+1 < len(t); i++ {
		if t[i] < 'a' || t[i] > 'j' || t[i+1] < '1' || t[i+1] > '9' {
			continue
		}
		j := i + 2
		if j < len(t) && t[i+1] == '1' && t[j] == '0' {
			j++
		}
		if j < len(t) && t[j] >= '0' && t[j] <= '9' {
			continue
		}
		rank := 0
		for _, c := range t[i+1 : j] {
			rank = rank*10 + int(c-'0')
		}
		if rank <= 10 && board.At(int(t[i]-'a'), rank-1) == rules.NoSquare {
			return t[i:j]
		}
	}
	return ""
}
