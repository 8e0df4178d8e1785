package battle

import (
	"fmt"
	"strings"

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
// "#"), and the lenient forms rules.Match allows (any case, no separators,
// SAN-style shortenings such as "Sd4", "Gc!c6", squares only "d3-d4").
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.Errorf(rules.GameOver, text, s.outcome.Ruling, "the game is over: %s", s.outcome.Describe(Variant.Sides()))
	}
	if m, ok := s.quick(text); ok {
		return m, nil
	}
	return rules.Match(text, s.candidates(), s.diagnose)
}

// quick finds the move a canonical text names without building every
// candidate's forms.
func (s *State) quick(text string) (rules.Move, bool) {
	t := normalise(text)
	pr, ok := readMove(t)
	if !ok || pr.letter == pNone || pr.to == rules.NoSquare {
		return rules.Move{}, false
	}
	for _, m := range s.moves {
		if m.From == pr.from && m.To == pr.to && m.Aux == pr.aux && m.Piece == pr.letter && (m.Kind == kindShot) == (pr.sep == '!') {
			if s.Format(m) == t {
				return m, true
			}
			break
		}
	}
	return rules.Move{}, false
}

// normalise drops spaces and trailing check, mate and annotation marks.
func normalise(text string) string {
	if strings.ContainsAny(text, " \t\r\n") {
		text = strings.Join(strings.Fields(text), "")
	}
	return strings.TrimRight(text, "+#!?")
}

// candidates lists every legal move with the texts that name it.
func (s *State) candidates() []rules.Candidate {
	var moves, shots []rules.Candidate
	for _, m := range s.moves {
		f := s.Format(m)
		c := rules.Candidate{Move: m, Forms: []string{f, f[1:]}}
		if m.Kind == kindShot {
			to := board.Name(m.To)
			from := board.Name(m.From)
			l := f[:1]
			c.Forms = append(c.Forms, l+"!"+to, l+from[:1]+"!"+to, l+from[1:]+"!"+to)
			shots = append(shots, c)
		} else {
			moves = append(moves, c)
		}
	}
	rules.Shortenings(moves, board,
		func(m rules.Move) string { return string(letters[m.Piece]) },
		func(m rules.Move) bool { return s.pos.cells[m.To] != 0 },
		func(m rules.Move) string {
			if m.Aux == rules.NoSquare {
				return ""
			}
			return "^" + board.Name(m.Aux)
		})
	return append(moves, shots...)
}

// parsedMove is a move text read without reference to the position.
type parsedMove struct {
	letter        uint8        // pNone when no piece letter was given
	from, to, aux rules.Square // NoSquare when absent or not a square
	names         [3]string    // the texts of from, to and aux, as written
	sep           byte         // '-', 'x', ':', '!' or 0
	hasTo, hasAux bool
}

// coordinate reads a square name at the start of s ("d3", "h12"), whether or
// not the square exists, and returns the bytes used (0 if none).
func coordinate(s string) (rules.Square, string, int) {
	if len(s) < 2 || !(s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') || s[1] < '1' || s[1] > '9' {
		return rules.NoSquare, "", 0
	}
	n, rank := 2, int(s[1]-'0')
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
		n, rank = 3, rank*10+int(s[2]-'0')
	}
	name := strings.ToLower(s[:n])
	return board.At(int(s[0]|0x20-'a'), rank-1), name, n
}

// readMove reads [letter] square [sep square] [^ square] from a
// normalised text.
func readMove(t string) (parsedMove, bool) {
	pr := parsedMove{from: rules.NoSquare, to: rules.NoSquare, aux: rules.NoSquare}
	if len(t) >= 2 && t[1]|0x20 >= 'a' && t[1]|0x20 <= 'z' {
		if pr.letter = pieceType(t[0]); pr.letter == pNone {
			return pr, false
		}
		t = t[1:]
	}
	var n int
	if pr.from, pr.names[0], n = coordinate(t); n == 0 {
		return pr, false
	}
	t = t[n:]
	if t == "" {
		return pr, true
	}
	switch t[0] {
	case '-', '!':
		pr.sep, t = t[0], t[1:]
	case 'x', 'X', ':':
		pr.sep, t = 'x', t[1:]
	}
	if pr.to, pr.names[1], n = coordinate(t); n == 0 {
		return pr, false
	}
	pr.hasTo = true
	t = t[n:]
	if t == "" {
		return pr, true
	}
	if t[0] != '^' {
		return pr, false
	}
	pr.hasAux = true
	if pr.aux, pr.names[2], n = coordinate(t[1:]); n == 0 || n != len(t)-1 {
		return pr, false
	}
	return pr, true
}

// diagnose explains, for a player and citing the ruling, why a text names
// no legal move.
func (s *State) diagnose(input string) (rules.ErrorKind, string, string) {
	sides := Variant.Sides()
	me, them := s.pos.side, s.pos.side.Other()
	if s.outcome.Over() {
		return rules.GameOver, "the game is over: " + s.outcome.Describe(sides), s.outcome.Ruling
	}
	pr, ok := readMove(normalise(input))
	if !ok {
		return rules.Unreadable, "write the piece letter, the square it leaves, - or x and the square it goes to (Sd3-d4, Bf1xf7); a shot with ! (Gc1!c6); a soldier at the far end with ^ and the piece removed (Sd11-d12^h9)", "C6"
	}
	for i, sq := range []rules.Square{pr.from, pr.to, pr.aux} {
		if pr.names[i] != "" && sq == rules.NoSquare {
			return rules.Illegal, pr.names[i] + " is not a square of the board: ranks 1, 2, 11 and 12 have only the files c to j", "C1.1"
		}
	}
	if !pr.hasTo {
		return rules.Illegal, "no legal move fits; name the square the piece leaves and the square it goes to, e.g. Sd3-d4", "C6"
	}
	c := s.pos.cells[pr.from]
	if c == 0 {
		return rules.Illegal, "there is no piece on " + pr.names[0], ""
	}
	t := typeOf(c)
	if sideOf(c) != me {
		return rules.Illegal, fmt.Sprintf("the %s on %s is %s's; %s is to move", pieceNames[t], pr.names[0], sides[them], sides[me]), "C1.3"
	}
	if pr.letter != pNone && pr.letter != t {
		return rules.Illegal, fmt.Sprintf("the piece on %s is a %s (%c), not a %s (%c)", pr.names[0], pieceNames[t], letters[t], pieceNames[pr.letter], letters[pr.letter]), "C6"
	}
	isShot := pr.sep == '!'
	if isShot && t != pGun && t != pMGun {
		return rules.Illegal, "only guns and machine-guns shoot; other pieces capture by moving (" + pr.names[1] + " with x)", "C3"
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
		return rules.Illegal, "only a soldier that reaches the far end removes an opposing piece with ^", "C4"
	}
	m := fits[0]
	if arrival {
		choices := fits[0].Aux != rules.NoSquare
		switch {
		case !pr.hasAux && choices:
			return rules.Illegal, fmt.Sprintf("the soldier leaves the board at the far end and you remove one of %s's pieces: name it with ^, e.g. %s^%s", sides[them], s.Format(fits[0]), board.Name(fits[0].Aux)), "C4"
		case pr.hasAux && !choices:
			return rules.Illegal, fmt.Sprintf("%s has nothing but the headquarter, which cannot be removed: write %s, and the soldier just leaves the board", sides[them], s.Format(fits[0])), "C4"
		case pr.hasAux:
			ac := s.pos.cells[pr.aux]
			switch {
			case pr.aux == pr.to && ac != 0:
				return rules.Illegal, fmt.Sprintf("the %s on %s is the piece you capture; remove another of %s's pieces", pieceNames[typeOf(ac)], pr.names[2], sides[them]), "C4"
			case ac == 0:
				return rules.Illegal, fmt.Sprintf("there is no piece on %s to remove; name one of %s's pieces", pr.names[2], sides[them]), "C4"
			case sideOf(ac) == me:
				return rules.Illegal, fmt.Sprintf("the %s on %s is your own; you remove one of %s's pieces", pieceNames[typeOf(ac)], pr.names[2], sides[them]), "C4"
			case typeOf(ac) == pHQ:
				return rules.Illegal, "the headquarter cannot be removed; name another of " + sides[them] + "'s pieces", "C4"
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
		return rules.Illegal, fmt.Sprintf("that would leave your headquarter on %s attacked by the %s on %s", board.Name(n.hq[me]), pieceNames[at], board.Name(a)), ruling
	}
	return rules.Illegal, "", ""
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
