package chess

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

var pieceNames = append([]string{""}, lang.Keys("pawn", "knight", "bishop", "rook", "queen", "king")...)

// piece is the name of a kind of piece as a message (lang).
func piece(t int) lang.Text { return rules.Word(pieceNames[t]) }

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

// notation is how chess moves are read (FIDE Appendix C): SAN, long
// algebraic and coordinates, with "B" always the bishop and "b" at the
// start always the b-file, so that bxc3 and Bxc3 never stand for each other;
// figurines (♘f3) read as their letters; and ICCF numeric notation
// (iccf). German piece letters are notationDE's.
var notation = rules.Notation{
	Board:      rules.ChessBoard,
	Letters:    "PNBRQK",
	Bare:       'P',
	CaseFixed:  "B",
	Promotions: "NBRQ",
	Drop:       []string{"e.p.", "ep"},
	Glyphs: map[rune]byte{'♔': 'K', '♕': 'Q', '♖': 'R', '♗': 'B', '♘': 'N', '♙': 'P',
		'♚': 'K', '♛': 'Q', '♜': 'R', '♝': 'B', '♞': 'N', '♟': 'P'},
	Special: special,
}

// notationDE is notation for a player whose language is German: the
// German piece letters too, K D T L S (König, Dame, Turm, Läufer,
// Springer; a pawn has no letter, so Bauer's B is not read). D is also a
// file: like B, it is the queen in upper case at the start and the d-file
// in lower case (Dxd5 is the queen, dxe5 the pawn); T, L and S are no
// files and are read in either case.
var notationDE = func() rules.Notation {
	n := notation
	n.Aliases = map[byte]byte{'D': 'Q', 'T': 'R', 'L': 'B', 'S': 'N'}
	n.CaseFixed = "BD"
	return n
}()

// special reads the forms outside the grammar: castling and ICCF.
func special(t string) []rules.Written {
	if w, ok := iccf(t); ok {
		return []rules.Written{w}
	}
	return castling(t)
}

// iccfPromo are the pieces of ICCF's fifth digit: 1 queen, 2 rook,
// 3 bishop, 4 knight.
const iccfPromo = " QRBN"

// iccf reads ICCF numeric notation: the square left and the square
// reached, each as its file (1 to 8 for a to h) and rank digits ("5254"
// for e2-e4); castling is the king's move ("5171"); a promotion adds the
// piece as a fifth digit ("57581", e7-e8=Q). It names squares only, as a
// coordinate move does: the move is the one from that square to that
// square (with that promotion).
func iccf(t string) (rules.Written, bool) {
	w := rules.NewWritten()
	if len(t) != 4 && len(t) != 5 {
		return w, false
	}
	for i := range 4 {
		if t[i] < '1' || t[i] > '8' {
			return w, false
		}
	}
	w.From = rules.Square(int(t[0]-'1') + 8*int(t[1]-'1'))
	w.To = rules.Square(int(t[2]-'1') + 8*int(t[3]-'1'))
	if len(t) == 5 {
		if t[4] < '1' || t[4] > '4' {
			return w, false
		}
		w.Promo = iccfPromo[t[4]-'0']
	}
	return w, true
}

// ICCF writes a move in ICCF numeric notation: "5254" for e2-e4, the
// king's move for castling ("5171"), a fifth digit for a promotion
// ("57581": 1 queen, 2 rook, 3 bishop, 4 knight).
func (s *State) ICCF(m rules.Move) string {
	if m.From < 0 || m.From >= 64 || m.To < 0 || m.To >= 64 {
		return coord(m)
	}
	b := []byte{'1' + byte(m.From%8), '1' + byte(m.From/8), '1' + byte(m.To%8), '1' + byte(m.To/8)}
	if m.Promo != 0 {
		if i := strings.IndexByte(iccfPromo, pieceLetters[m.Promo]); i > 0 {
			b = append(b, '0'+byte(i))
		}
	}
	return string(b)
}

// castling reads O-O and O-O-O, also with zeros or without dashes.
func castling(t string) []rules.Written {
	w := rules.NewWritten()
	switch strings.ToUpper(strings.ReplaceAll(t, "0", "O")) {
	case "O-O", "OO":
		w.Mark = "O-O"
	case "O-O-O", "OOO":
		w.Mark = "O-O-O"
	default:
		return nil
	}
	return []rules.Written{w}
}

// spell is a legal move with every part written: the piece letter (P for
// a pawn), the squares, the capture and the promotion; castling is also
// O-O or O-O-O.
func (s *State) spell(m move) []rules.Written {
	w := rules.NewWritten()
	w.Letter = pieceLetters[m.piece()]
	w.From, w.To = rules.Square(m.from()), rules.Square(m.to())
	w.Capture = s.pos.col[s.pos.side^1]&bit(m.to()) != 0 || m.kind() == KindEnPassant
	if pr := m.promo(); pr != 0 {
		w.Promo = pieceLetters[pr]
	}
	switch m.kind() {
	case KindCastleShort, KindCastleLong:
		c := rules.NewWritten()
		c.Mark = "O-O"
		if m.kind() == KindCastleLong {
			c.Mark = "O-O-O"
		}
		return []rules.Written{c, w}
	}
	return []rules.Written{w}
}

// spelled lists the legal moves for notation.Match, built once per state.
func (s *State) spelled() []rules.Spelled {
	s.spellOnce.Do(func() {
		sans := s.sanList()
		s.spells = make([]rules.Spelled, len(s.legal))
		for i, m := range s.legal {
			s.spells[i] = rules.Spelled{Move: toRules(m), Text: sans[i], Parts: s.spell(m)}
		}
	})
	return s.spells
}

// Parse reads a move in any form of notation: SAN (Nf3, exd5, O-O, e8=Q,
// with or without + and #), coordinates (e2e4, e7e8q), long algebraic
// (e2-e4, Ng1-f3, Nf3xe5), 0-0, figurines, any letter case but B's.
// Errors are *rules.MoveError citing the FIDE Laws.
func (s *State) Parse(text string) (rules.Move, error) {
	if s.out.Over() {
		return rules.Move{}, s.gameOver(text)
	}
	// The canonical SAN and coordinates name one move each: look them up
	// before reading the text.
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
	return notation.Match(text, s.spelled(), s.diagnose)
}

// ParseIn is Parse for a player whose language is lang: "de" also reads
// the German piece letters (notationDE); any other language is Parse.
func (s *State) ParseIn(text, lang string) (rules.Move, error) {
	if lang != "de" {
		return s.Parse(text)
	}
	if s.out.Over() {
		return rules.Move{}, s.gameOver(text)
	}
	for i, san := range s.sanList() {
		if text == san {
			return toRules(s.legal[i]), nil
		}
	}
	return notationDE.Match(text, s.spelled(), s.diagnose)
}

// diagnose explains, for a player and citing the FIDE Laws, why a text that
// names no legal move is wrong: of its readings, the one that got furthest
// through the rules (why). A lower-case "b" that would be a legal bishop
// move in upper case gets a hint.
func (s *State) diagnose(input string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	if len(readings) == 0 {
		return rules.Unreadable, lang.Msg("this is not a move in algebraic notation: write for example Nf3, exd5, O-O, e8=Q or e2e4 (or in ICCF numbers, 5254 for e2-e4)"), "FIDE Appendix C"
	}
	best, reason, ruling := -1, lang.Msg("that is not a legal move here"), "FIDE 3.10.1"
	for _, w := range readings {
		if st, r, rl := s.explain(w); st > best && !r.IsZero() {
			best, reason, ruling = st, r, rl
		}
	}
	t := strings.Join(strings.Fields(input), "")
	if len(t) > 1 && t[0] == 'b' && (t[1] < '1' || t[1] > '8') {
		if _, err := s.Parse("B" + t[1:]); err == nil {
			reason = lang.Msg("%s; for the bishop write B%s", reason, t[1:])
		}
	}
	return rules.Illegal, reason, ruling
}

// explain says why one reading names no legal move, with the stage of why
// it got to.
func (s *State) explain(w rules.Written) (stage int, reason lang.Text, ruling string) {
	p := &s.pos
	us := int(p.side)
	home := 4 + 56*us
	if w.Mark != "" {
		if p.pt[King]&p.col[us]&bit(home) == 0 {
			return 1, lang.Msg("castling is no longer possible: the king has moved"), "FIDE 3.8.2.1"
		}
		to := home + 2
		if w.Mark == "O-O-O" {
			to = home - 2
		}
		return s.why(home, to, 0, true)
	}
	typ := strings.IndexByte(pieceLetters, w.Letter)
	if w.Letter == 0 {
		typ = 0
	}
	to := int(w.To)
	promo := 0
	if w.Promo != 0 {
		promo = strings.IndexByte(pieceLetters, w.Promo)
	}
	if w.From != rules.NoSquare {
		from := int(w.From)
		if side, have := p.pieceAt(from); have != 0 && side == us && typ != 0 && have != typ {
			return 0, lang.Msg("the piece on %s is a %s, not a %s", squareName(from), piece(have), piece(typ)), ""
		}
		return s.why(from, to, promo, typ != 0 && typ != Pawn)
	}
	if typ == 0 {
		typ = Pawn
	}
	var origins []int
	for b := p.pt[typ] & p.col[us]; b != 0; b &= b - 1 {
		sq := trailing(b)
		if w.File >= 0 && sq%8 != w.File || w.Rank >= 0 && sq/8 != w.Rank {
			continue
		}
		if typ == Pawn && w.File < 0 && sq%8 != to%8 {
			continue
		}
		origins = append(origins, sq)
	}
	if len(origins) == 0 {
		side := rules.Word(Variant.Sides()[us])
		switch {
		case w.File >= 0:
			return 0, lang.Msg("%s has no %s on the %s-file", side, piece(typ), rules.FileName(w.File)), ""
		case typ == Pawn:
			return 0, lang.Msg("%s has no %s on the %s-file", side, piece(typ), rules.FileName(to%8)), ""
		case w.Rank >= 0:
			return 0, lang.Msg("%s has no %s on rank %d", side, piece(typ), w.Rank+1), ""
		}
		return 0, lang.Msg("%s has no %s", side, piece(typ)), ""
	}
	best, reason, ruling := -1, lang.Text{}, ""
	for _, from := range origins {
		if st, r, rl := s.why(from, to, promo, typ != Pawn); st > best && !r.IsZero() {
			best, reason, ruling = st, r, rl
		}
	}
	return best, reason, ruling
}

// whyCastle explains why castling from the king's square to `to` is not
// allowed.
func (s *State) whyCastle(from, to int) (int, lang.Text, string) {
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
		return 2, lang.Msg("castling with the %s rook is no longer possible: the king or that rook has moved", squareName(rookSq)), "FIDE 3.8.2.1"
	}
	for _, sq := range path {
		if (p.col[0]|p.col[1])&bit(sq) != 0 {
			_, t := p.pieceAt(sq)
			return 2, lang.Msg("castling needs the squares between king and rook empty, and a %s stands on %s", piece(t), squareName(sq)), "FIDE 3.8.2.2.2"
		}
	}
	if p.inCheck() {
		return 2, lang.Msg("the king cannot castle out of check"), "FIDE 3.8.2.2.1"
	}
	for _, sq := range cross {
		if p.attacked(sq, us^1, p.col[0]|p.col[1]) {
			return 2, lang.Msg("the king may not cross or land on an attacked square, and %s is attacked", squareName(sq)), "FIDE 3.8.2.2.1"
		}
	}
	return 4, lang.Text{}, ""
}
