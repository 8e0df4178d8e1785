package transporter

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// candidates builds, once per state, every text that names each legal move
// (T7): the canonical form first; then, for a transport, the same without
// "@square", which Match resolves when only one destination is free and
// reports as ambiguous, listing both, when two are; for a promotion, the
// same without "=X" (promotion is compulsory, T5); and SAN-style
// shortenings of each (Ra3@a8, Rda3@a8, R3a3@a8, Ra3, …).
func (s *State) candidates() []rules.Candidate {
	c := s.parse
	c.candsOnce.Do(func() {
		c.cands = make([]rules.Candidate, len(s.moves))
		for i, m := range s.moves {
			forms := []string{s.Format(m)}
			l := letters[m.Piece : m.Piece+1]
			from, to := board.Name(m.From), board.Name(m.To)
			sep := "-"
			if m.Kind == capture {
				sep = "x"
			}
			var tails []string
			for _, dest := range transportTails(m) {
				for _, promo := range promoTails(m) {
					tails = append(tails, dest+promo)
				}
			}
			for j, tail := range tails {
				if j > 0 {
					forms = append(forms, l+from+sep+to+tail)
				}
				forms = append(forms, l+to+tail, l+from[:1]+to+tail, l+from[1:]+to+tail)
				if m.Kind == capture {
					forms = append(forms, l+"x"+to+tail, l+from[:1]+"x"+to+tail, l+from[1:]+"x"+to+tail)
				}
			}
			c.cands[i] = rules.Candidate{Move: m, Forms: forms}
		}
	})
	return c.cands
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

func transportTails(m rules.Move) []string {
	if m.Aux == rules.NoSquare {
		return []string{""}
	}
	return []string{"@" + board.Name(m.Aux), ""}
}

func promoTails(m rules.Move) []string {
	if m.Promo == 0 {
		return []string{""}
	}
	return []string{"=" + letters[m.Promo:m.Promo+1], ""}
}

// written is a move as a player wrote it, read leniently for diagnosis.
type written struct {
	piece          uint8 // 0 when no letter was given
	from, to, dest rules.Square
	promo          uint8
	promoGiven     bool
}

// scan reads Rd3-a3@a8 =S and shortened forms (Ra3); ok is false when the
// text is not shaped like a move at all.
func scan(text string) (w written, ok bool) {
	t := strings.TrimRight(strings.Join(strings.Fields(text), ""), "+#!?")
	w = written{from: rules.NoSquare, to: rules.NoSquare, dest: rules.NoSquare}
	if len(t) > 1 && (t[1] < '0' || t[1] > '9') {
		if w.piece = kindByLetter(t[0]); w.piece == empty {
			return w, false
		}
		t = t[1:]
		if len(t) > 0 && (t[0] == 'x' || t[0] == 'X') {
			t = t[1:] // Rxa3
		}
	}
	sq, n := board.ParsePrefix(t)
	if n == 0 && w.piece != empty && len(t) > 1 {
		// Rda3, R3a3: a disambiguated shortening; only the square reached counts.
		skip := 1
		for skip < len(t) && t[skip] >= '0' && t[skip] <= '9' {
			skip++
		}
		if skip < len(t) && (t[skip] == 'x' || t[skip] == 'X') {
			skip++
		}
		if to, n := board.ParsePrefix(t[skip:]); n > 0 {
			w.to, t = to, t[skip+n:]
			return w, t == "" || t[0] == '@' || t[0] == '='
		}
	}
	if n == 0 {
		return w, false
	}
	t = t[n:]
	if len(t) > 0 && (t[0] == '-' || t[0] == 'x' || t[0] == 'X' || t[0] == ':') {
		t = t[1:]
	}
	if to, n := board.ParsePrefix(t); n > 0 {
		w.from, w.to = sq, to
		t = t[n:]
	} else {
		w.to = sq // a shortened form: only the square reached
	}
	if len(t) > 0 && t[0] == '@' {
		if w.dest, n = board.ParsePrefix(t[1:]); n == 0 {
			return w, false
		}
		t = t[1+n:]
	}
	if len(t) > 0 && (t[0] == '=' || t[0] == '(') {
		t = strings.TrimSuffix(t[1:], ")")
		if len(t) != 1 {
			return w, false
		}
		if w.promo = kindByLetter(t[0]); w.promo == empty {
			return w, false
		}
		w.promoGiven, t = true, ""
	}
	return w, t == ""
}

// diagnose explains, for a player and citing the ruling, why a text that
// named no legal move is wrong.
func (s *State) diagnose(input string) (rules.ErrorKind, string, string) {
	w, ok := scan(input)
	if !ok {
		if name := missingSquare(input); name != "" {
			return 0, name + " is not a square of the board: ranks 1 and 10 run from d to g, ranks 2 and 9 from b to i", "T1.1"
		}
		return rules.Unreadable, "write a move as letter, from, - or x, to, as in Rd1-d7, Cd4xd8, Rd3-a3@a8 or Fc8-d9=S", "T7"
	}
	p := &s.pos
	me := p.toMove
	if w.from == rules.NoSquare {
		if w.piece == empty {
			return rules.Unreadable, "name the piece and the square it moves from, as in Rd1-d7", "T7"
		}
		return 0, fmt.Sprintf("none of your %ss can go to %s", kindNames[w.piece], board.Name(w.to)), "T2"
	}
	c := p.cells[w.from]
	switch {
	case c == empty:
		return 0, "there is no piece on " + board.Name(w.from), ""
	case sideOf(c) != me:
		return 0, fmt.Sprintf("the %s on %s is %s's; it is %s's turn", kindNames[kindOf(c)], board.Name(w.from), sideNames[me.Other()], sideNames[me]), ""
	case w.piece != empty && w.piece != kindOf(c):
		return 0, fmt.Sprintf("the piece on %s is your %s, not %s", board.Name(w.from), kindNames[kindOf(c)], article(kindNames[w.piece])), "T2"
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
			return 0, board.Name(w.to) + " is not a transporter square (only a3 a8 j3 j8 are)", "T4.1"
		case w.dest != o[0] && w.dest != o[1]:
			return 0, fmt.Sprintf("from %s a piece is transported to %s or %s only", board.Name(w.to), board.Name(o[0]), board.Name(o[1])), "T4.1"
		case w.dest == w.from:
			return 0, "a piece is never carried back to the square it started its move on", "T4.1"
		case p.cells[w.dest] != empty:
			return 0, board.Name(w.dest) + " is occupied, so nothing can be transported there", "T4.1"
		}
	}
	if len(legal) == 0 {
		return 0, "your Admiral would be in check after that move", "T4.3"
	}
	if w.promoGiven {
		m := legal[0]
		switch {
		case m.Promo == 0 && c&promotedBit != 0:
			return 0, "a piece promotes only once in its life", "T5"
		case m.Promo == 0:
			return 0, fmt.Sprintf("%s does not promote there: Fighters, Super Fighters and First Mates promote on arriving in the enemy camp", article(kindNames[k])), "T5"
		case m.Promo != w.promo:
			return 0, fmt.Sprintf("%s arriving in the enemy camp becomes %s", article(kindNames[k]), article(kindNames[m.Promo])), "T5"
		}
	}
	if w.dest != rules.NoSquare {
		return 0, "your Admiral would be in check after that transport", "T4.3"
	}
	return 0, "", ""
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
