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

// why explains why the piece on from may not go to `to` (promoting to
// promo); stage says how far the move got through the rules (0: no such
// piece of the mover, 1: the piece does not move like that, 2: the way or
// the target square is wrong, 3: the own king would be in check, 4: legal),
// so that of several pieces the most telling explanation wins. pieceOnly
// tells that the text named a piece, not a pawn.
func (s *State) why(from, to, promo int, pieceOnly bool) (stage int, reason, ruling string) {
	p := &s.pos
	us := int(p.side)
	them := us ^ 1
	sides := Variant.Sides()
	side, typ := p.pieceAt(from)
	at := func(sq int) string {
		_, t := p.pieceAt(sq)
		return fmt.Sprintf("the %s on %s", pieceNames[t], squareName(sq))
	}
	switch {
	case typ == 0:
		return 0, fmt.Sprintf("there is no piece on %s", squareName(from)), ""
	case side != us:
		return 0, fmt.Sprintf("%s is %s's, and it is %s's move", at(from), sides[side], sides[us]), "FIDE 1.2"
	case from == to:
		return 1, "a move has to take the piece to another square", "FIDE 3.10.1"
	case promo != 0 && typ != Pawn:
		return 1, "only a pawn is promoted", "FIDE 3.7.3.3"
	}
	occ := p.col[0] | p.col[1]
	df, dr := to%8-from%8, to/8-from/8
	adf, adr := max(df, -df), max(dr, -dr)
	kind := KindNormal
	switch typ {
	case Knight:
		if knightAtt[from]&bit(to) == 0 {
			return 1, "a knight jumps to a square two squares along a rank or file and one across", "FIDE 3.6"
		}
	case Bishop, Rook, Queen:
		diag, straight := adf == adr, df == 0 || dr == 0
		switch {
		case typ == Bishop && !diag:
			return 1, "a bishop moves along a diagonal", "FIDE 3.2"
		case typ == Rook && !straight:
			return 1, "a rook moves along a rank or a file", "FIDE 3.3"
		case typ == Queen && !diag && !straight:
			return 1, "a queen moves along a rank, a file or a diagonal", "FIDE 3.4"
		}
		if b := between[from][to] & occ; b != 0 {
			first := trailing(b)
			if to < from {
				first = 63 - leading(b)
			}
			return 2, fmt.Sprintf("the %s cannot move over %s", pieceNames[typ], at(first)), "FIDE 3.5"
		}
	case King:
		if adr == 0 && adf == 2 && from == 4+56*us {
			return s.whyCastle(from, to)
		}
		if adf > 1 || adr > 1 {
			return 1, "the king moves to an adjoining square, or castles", "FIDE 3.8.1"
		}
	case Pawn:
		if pieceOnly {
			return 0, fmt.Sprintf("%s is a pawn", at(from)), ""
		}
		up := 1 - 2*us
		last := to/8 == 7 || to/8 == 0
		switch {
		case df == 0 && dr*up > 2:
			return 1, "a pawn advances one square, or two on its first move", "FIDE 3.7.1, 3.7.2"
		case dr*up <= 0 || adr > 2 || adf > 1 || adf == 1 && adr != 1:
			return 1, "a pawn moves straight forward, or captures one square diagonally forward", "FIDE 3.7.1, 3.7.3"
		case adr == 2 && df != 0:
			return 1, "a pawn captures only one square diagonally forward", "FIDE 3.7.3"
		case adr == 2 && from/8 != 1+5*us:
			return 1, "a pawn may advance two squares only on its first move", "FIDE 3.7.2"
		case adr == 2 && occ&(bit(from+8*up)|bit(to)) != 0:
			return 2, "a pawn advances two squares only when both squares are empty", "FIDE 3.7.2"
		case adf == 0 && occ&bit(to) != 0:
			return 2, fmt.Sprintf("a pawn cannot capture straight ahead, and %s blocks it", at(to)), "FIDE 3.7.1"
		case adf == 1 && p.col[them]&bit(to) == 0 && to != int(p.ep):
			if p.pt[Pawn]&p.col[them]&bit(to-8*up) != 0 && to/8 == 5-3*us {
				return 2, "a pawn can be taken en passant only on the move right after its double step", "FIDE 3.7.3.2"
			}
			return 2, "a pawn moves diagonally only to capture", "FIDE 3.7.3"
		case last && promo == 0:
			return 2, fmt.Sprintf("a pawn that reaches the last rank must be exchanged for a queen, rook, bishop or knight: write %s=Q", squareName(to)), "FIDE 3.7.3.3"
		case !last && promo != 0:
			return 2, "only a pawn that reaches the last rank is promoted", "FIDE 3.7.3.3"
		case last && (promo < Knight || promo > Queen):
			return 2, "a pawn is promoted to a queen, rook, bishop or knight", "FIDE 3.7.3.3"
		}
		if adr == 2 {
			kind = KindDoubleStep
		} else if adf == 1 && to == int(p.ep) {
			kind = KindEnPassant
		}
	}
	if p.col[us]&bit(to) != 0 {
		_, t := p.pieceAt(to)
		return 2, fmt.Sprintf("%s holds %s's own %s; no piece may move to a square its own side occupies", squareName(to), sides[us], pieceNames[t]), "FIDE 3.1"
	}
	c := *p
	c.make(mkMove(from, to, typ, promo, kind))
	if c.attacked(c.kingSq(us), them, c.col[0]|c.col[1]) {
		switch {
		case typ == King:
			return 3, fmt.Sprintf("the king would be in check on %s", squareName(to)), "FIDE 3.9.2"
		case p.inCheck():
			return 3, "the king is in check, and this move does not parry it", "FIDE 3.9.2"
		}
		return 3, fmt.Sprintf("%s is pinned: moving it would expose the king to check", at(from)), "FIDE 3.9.2"
	}
	return 4, "", ""
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
