package chess

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

var pieceNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}

// san writes a legal move of s in Standard Algebraic Notation (FIDE
// Appendix C): Nf3, exd5, Nbd2, R1e2, O-O, O-O-O, e8=Q, with "+" for check
// and "#" for checkmate.
func (s *State) san(m move) string {
	p := &s.pos
	var b strings.Builder
	from, to, pc := m.from(), m.to(), m.piece()
	capture := p.col[p.side^1]&bit(to) != 0 || m.kind() == KindEnPassant
	switch {
	case m.kind() == KindCastleShort:
		b.WriteString("O-O")
	case m.kind() == KindCastleLong:
		b.WriteString("O-O-O")
	case pc == Pawn:
		if capture {
			b.WriteByte(byte('a' + from%8))
			b.WriteByte('x')
		}
		b.WriteString(squareName(to))
		if pr := m.promo(); pr != 0 {
			b.WriteByte('=')
			b.WriteByte(pieceLetters[pr])
		}
	default:
		b.WriteByte(pieceLetters[pc])
		sameFile, sameRank, others := false, false, false
		for _, x := range s.legal {
			if x.piece() == pc && x.to() == to && x.from() != from {
				others = true
				sameFile = sameFile || x.from()%8 == from%8
				sameRank = sameRank || x.from()/8 == from/8
			}
		}
		switch {
		case others && !sameFile:
			b.WriteByte(byte('a' + from%8))
		case others && !sameRank:
			b.WriteByte(byte('1' + from/8))
		case others:
			b.WriteString(squareName(from))
		}
		if capture {
			b.WriteByte('x')
		}
		b.WriteString(squareName(to))
	}
	c := *p
	c.make(m)
	if c.inCheck() {
		if c.gen(nil) == 0 {
			b.WriteByte('#')
		} else {
			b.WriteByte('+')
		}
	}
	return b.String()
}

// Format writes a legal move in SAN; anything else in coordinates.
func (s *State) Format(m rules.Move) string {
	for i, x := range s.legal {
		if toRules(x) == m {
			return s.sanList()[i]
		}
	}
	return coord(m)
}

// candidates lists every legal move with the texts that name it: SAN first,
// then coordinates (e2e4, e7e8q), long algebraic (Ng1-f3, e7-e8=Q), 0-0 and
// 0-0-0, promotions without "=" (e8Q), "e.p." after en passant, and the
// over-specified SAN forms (Ngf3, N1f3) of rules.Shortenings.
func (s *State) candidates() []rules.Candidate {
	cands := make([]rules.Candidate, len(s.legal))
	sans := s.sanList()
	for i, m := range s.legal {
		rm := toRules(m)
		san := sans[i]
		forms := []string{san, coord(rm)}
		from, to := squareName(m.from()), squareName(m.to())
		sep := "-"
		if s.pos.col[s.pos.side^1]&bit(m.to()) != 0 || m.kind() == KindEnPassant {
			sep = "x"
		}
		switch {
		case m.kind() == KindCastleShort:
			forms = append(forms, "0-0", "K"+from+"-"+to)
		case m.kind() == KindCastleLong:
			forms = append(forms, "0-0-0", "K"+from+"-"+to)
		case m.piece() == Pawn && m.promo() != 0:
			pr := pieceLetters[m.promo() : m.promo()+1]
			forms = append(forms, strings.Replace(strings.TrimRight(san, "+#"), "=", "", 1), from+sep+to+"="+pr)
		case m.kind() == KindEnPassant:
			forms = append(forms, strings.TrimRight(san, "+#")+"e.p.")
		case m.piece() != Pawn:
			forms = append(forms, pieceLetters[m.piece():m.piece()+1]+from+sep+to)
		}
		cands[i] = rules.Candidate{Move: rm, Forms: forms}
	}
	rules.Shortenings(cands, rules.ChessBoard,
		func(m rules.Move) string {
			if m.Piece == Pawn {
				return ""
			}
			return pieceLetters[m.Piece : m.Piece+1] // castling gets Kg1, which only it can mean
		},
		func(m rules.Move) bool {
			return s.pos.col[s.pos.side^1]&bit(int(m.To)) != 0 || m.Kind == KindEnPassant
		},
		func(m rules.Move) string {
			if m.Promo != 0 {
				return "=" + pieceLetters[m.Promo:m.Promo+1]
			}
			return ""
		})
	return cands
}

// Parse reads a move: SAN (Nf3, exd5, O-O, e8=Q, with or without + and #),
// coordinates (e2e4, e7e8q), long algebraic (e2-e4, Ng1-f3, Nf3xe5), 0-0,
// and any letter case where that is unambiguous. "B" is always the bishop
// and "b" before a file letter always the b-pawn, so bxc3 and Bxc3 stay
// distinct. Errors are *rules.MoveError citing the FIDE Laws.
func (s *State) Parse(text string) (rules.Move, error) {
	if s.out.Over() {
		return rules.Move{}, s.gameOver(text)
	}
	// The canonical SAN and coordinates name one move each: look them up
	// before building every alias.
	for i, san := range s.sanList() {
		if text == san {
			return toRules(s.legal[i]), nil
		}
	}
	if from, to, promo, ok := parseCoord(text); ok {
		if m, ok := findCoord(s.legal, from, to, promo); ok {
			return toRules(m), nil
		}
	}
	all := s.candidates()
	cands := all
	t := strings.Join(strings.Fields(text), "")
	if len(t) >= 2 && (t[1] < '1' || t[1] > '8') && (t[0] == 'B' || t[0] == 'b') {
		cands = nil
		for _, c := range all {
			if (c.Move.Piece == Bishop) == (t[0] == 'B') {
				cands = append(cands, c)
			}
		}
	}
	m, err := rules.Match(text, cands, s.diagnose)
	var me *rules.MoveError
	if errors.As(err, &me) && len(me.Options) == 0 && t != "" {
		me.Options = rules.Nearest(text, all, 5)
	}
	return m, err
}

var (
	castleRE = regexp.MustCompile(`^(?i)([o0])-?([o0])(-?([o0]))?$`)
	moveRE   = regexp.MustCompile(`^([KQRNkqrnP]|B)?([a-h])?([1-8])?[-x:]?([a-h][1-8])(?:=?([QRBNqrbn]))?$`)
)

// diagnose explains, for a player and citing the FIDE Laws, why a text that
// names no legal move is wrong. A lower-case "b" that would be a legal
// bishop move in upper case gets a hint.
func (s *State) diagnose(input string) (rules.ErrorKind, string, string) {
	kind, reason, ruling := s.diagnoseText(input)
	t := strings.Join(strings.Fields(input), "")
	if len(t) > 1 && t[0] == 'b' && (t[1] < '1' || t[1] > '8') {
		if _, err := s.Parse("B" + t[1:]); err == nil {
			reason += "; for the bishop write B" + t[1:]
		}
	}
	return kind, reason, ruling
}

func (s *State) diagnoseText(input string) (rules.ErrorKind, string, string) {
	t := strings.Join(strings.Fields(input), "")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "e.p."), "ep")
	t = strings.TrimRight(t, "+#!?")
	if len(t) > 1 {
		// Letter case: only a leading piece letter keeps its case ("B" the
		// bishop, "b" the b-file).
		first := t[:1]
		if c := t[0]; c >= 'A' && c <= 'H' && c != 'B' {
			first = strings.ToLower(first)
		}
		t = first + strings.ToLower(t[1:])
	}
	p := &s.pos
	us := int(p.side)
	home := 4 + 56*us
	if m := castleRE.FindStringSubmatch(t); m != nil {
		to := home + 2
		if m[3] != "" {
			to = home - 2
		}
		if p.pt[King]&p.col[us]&bit(home) == 0 {
			return rules.Illegal, "castling is no longer possible: the king has moved", "FIDE 3.8.2.1"
		}
		_, reason, ruling := s.why(home, to, 0, true)
		return rules.Illegal, reason, ruling
	}
	m := moveRE.FindStringSubmatch(t)
	if m == nil {
		return rules.Unreadable, "this is not a move in algebraic notation: write for example Nf3, exd5, O-O, e8=Q or e2e4", "FIDE Appendix C"
	}
	typ := 0
	if m[1] != "" {
		typ = strings.IndexByte(pieceLetters, m[1][0]&^0x20)
	}
	to := int(m[4][0]-'a') + 8*int(m[4][1]-'1')
	promo := 0
	if m[5] != "" {
		promo = strings.IndexByte(pieceLetters, m[5][0]&^0x20)
	}
	if m[2] != "" && m[3] != "" {
		from := int(m[2][0]-'a') + 8*int(m[3][0]-'1')
		if side, have := p.pieceAt(from); have != 0 && side == us && typ != 0 && have != typ {
			return rules.Illegal, fmt.Sprintf("the piece on %s is a %s, not a %s", squareName(from), pieceNames[have], pieceNames[typ]), ""
		}
		_, reason, ruling := s.why(from, to, promo, typ != 0 && typ != Pawn)
		return rules.Illegal, reason, ruling
	}
	if typ == 0 {
		typ = Pawn
	}
	var origins []int
	for b := p.pt[typ] & p.col[us]; b != 0; b &= b - 1 {
		sq := trailing(b)
		if m[2] != "" && sq%8 != int(m[2][0]-'a') || m[3] != "" && sq/8 != int(m[3][0]-'1') {
			continue
		}
		if typ == Pawn && m[2] == "" && sq%8 != to%8 {
			continue
		}
		origins = append(origins, sq)
	}
	if len(origins) == 0 {
		where := ""
		switch {
		case m[2] != "" || typ == Pawn && m[2] == "":
			file := m[2]
			if file == "" {
				file = m[4][:1]
			}
			where = " on the " + file + "-file"
		case m[3] != "":
			where = " on rank " + m[3]
		}
		return rules.Illegal, fmt.Sprintf("%s has no %s%s", Variant.Sides()[us], pieceNames[typ], where), ""
	}
	best, reason, ruling := -1, "", ""
	for _, from := range origins {
		if st, r, rl := s.why(from, to, promo, typ != Pawn); st > best && r != "" {
			best, reason, ruling = st, r, rl
		}
	}
	if reason == "" {
		return rules.Illegal, "that is not a legal move here", "FIDE 3.10.1"
	}
	return rules.Illegal, reason, ruling
}

// whyCastle explains why castling from the king's square to `to` is not
// allowed.
func (s *State) whyCastle(from, to int) (int, string, string) {
	p := &s.pos
	us := int(p.side)
	right, rookSq, path, cross := uint8(castleWK), from+3, []int{from + 1, from + 2}, []int{from + 1, from + 2}
	if to < from {
		right, rookSq, path, cross = castleWQ, from-4, []int{from - 1, from - 2, from - 3}, []int{from - 1, from - 2}
	}
	if us == black {
		right <<= 2
	}
	if p.castle&right == 0 {
		return 2, fmt.Sprintf("castling with the %s rook is no longer possible: the king or that rook has moved", squareName(rookSq)), "FIDE 3.8.2.1"
	}
	for _, sq := range path {
		if (p.col[0]|p.col[1])&bit(sq) != 0 {
			_, t := p.pieceAt(sq)
			return 2, fmt.Sprintf("castling needs the squares between king and rook empty, and a %s stands on %s", pieceNames[t], squareName(sq)), "FIDE 3.8.2.2.2"
		}
	}
	if p.inCheck() {
		return 2, "the king cannot castle out of check", "FIDE 3.8.2.2.1"
	}
	for _, sq := range cross {
		if p.attacked(sq, us^1, p.col[0]|p.col[1]) {
			return 2, fmt.Sprintf("the king may not cross or land on an attacked square, and %s is attacked", squareName(sq)), "FIDE 3.8.2.2.1"
		}
	}
	return 4, "", ""
}
