package chess

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// Piece types, also used as rules.Move.Piece and rules.Move.Promo codes.
const (
	Pawn   = 1
	Knight = 2
	Bishop = 3
	Rook   = 4
	Queen  = 5
	King   = 6
)

// Move kinds, used as rules.Move.Kind.
const (
	KindNormal      = 0 // any move not listed below
	KindDoubleStep  = 1 // a pawn's first move of two squares (FIDE 3.7.2)
	KindEnPassant   = 2 // an en passant capture (FIDE 3.7.3.1)
	KindCastleShort = 3 // castling with the h-file rook (FIDE 3.8.2)
	KindCastleLong  = 4 // castling with the a-file rook (FIDE 3.8.2)
)

// Castling rights, as bits of position.castle.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

const (
	white = 0
	black = 1
)

// StartFEN is the standard starting position (FIDE 2.3).
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

const pieceLetters = " PNBRQK"

// position is a chess position in bitboards. It is a plain value: copying
// it copies the position, which is how perft and Apply play moves.
type position struct {
	pt     [7]bitboard // by piece type (pt[0] unused)
	col    [2]bitboard // by side
	side   uint8       // the side to move
	castle uint8       // castling rights still held (castleWK …)
	ep     int8        // the square a pawn just passed over in a double step, or -1
	half   int32       // halfmove clock: plies since the last capture or pawn move
	full   int32       // fullmove number: starts at 1, grows after Black's move
}

// move is the internal move: from (6 bits), to (6), piece (3), promo (3), kind (3).
type move uint32

func mkMove(from, to, piece, promo, kind int) move {
	return move(from | to<<6 | piece<<12 | promo<<15 | kind<<18)
}

func (m move) from() int  { return int(m & 63) }
func (m move) to() int    { return int(m>>6) & 63 }
func (m move) piece() int { return int(m>>12) & 7 }
func (m move) promo() int { return int(m>>15) & 7 }
func (m move) kind() int  { return int(m>>18) & 7 }

// castleKeep[sq] are the rights that survive a move from or to sq
// (FIDE 3.8.2.1: a king or rook that moves, or a rook that is captured).
var castleKeep [64]uint8

func init() {
	for sq := range castleKeep {
		castleKeep[sq] = 15
	}
	castleKeep[4] &^= castleWK | castleWQ
	castleKeep[7] &^= castleWK
	castleKeep[0] &^= castleWQ
	castleKeep[60] &^= castleBK | castleBQ
	castleKeep[63] &^= castleBK
	castleKeep[56] &^= castleBQ
}

// pieceAt returns the side and type of the piece on sq; typ is 0 when the
// square is empty.
func (p *position) pieceAt(sq int) (side, typ int) {
	b := bit(sq)
	switch {
	case p.col[white]&b != 0:
		side = white
	case p.col[black]&b != 0:
		side = black
	default:
		return 0, 0
	}
	for t := Pawn; t <= King; t++ {
		if p.pt[t]&b != 0 {
			return side, t
		}
	}
	return side, 0
}

func (p *position) put(side, typ, sq int) {
	p.pt[typ] |= bit(sq)
	p.col[side] |= bit(sq)
}

func (p *position) kingSq(side int) int {
	return bits.TrailingZeros64(p.pt[King] & p.col[side])
}

// make plays a legal move in place.
func (p *position) make(m move) {
	from, to := m.from(), m.to()
	us := int(p.side)
	them := us ^ 1
	fb, tb := bit(from), bit(to)
	pc := m.piece()
	p.half++
	if p.col[them]&tb != 0 {
		for t := Pawn; t < King; t++ {
			if p.pt[t]&tb != 0 {
				p.pt[t] ^= tb
				break
			}
		}
		p.col[them] ^= tb
		p.half = 0
	}
	p.pt[pc] ^= fb | tb
	p.col[us] ^= fb | tb
	p.ep = -1
	if k := m.kind(); k != KindNormal {
		switch k {
		case KindDoubleStep:
			p.ep = int8((from + to) / 2)
		case KindEnPassant:
			c := bit(to - 8)
			if us == black {
				c = bit(to + 8)
			}
			p.pt[Pawn] ^= c
			p.col[them] ^= c
		case KindCastleShort:
			r := bit(from+3) | bit(from+1)
			p.pt[Rook] ^= r
			p.col[us] ^= r
		case KindCastleLong:
			r := bit(from-4) | bit(from-1)
			p.pt[Rook] ^= r
			p.col[us] ^= r
		}
	}
	if pr := m.promo(); pr != 0 {
		p.pt[Pawn] ^= tb
		p.pt[pr] ^= tb
	}
	if pc == Pawn {
		p.half = 0
	}
	p.castle &= castleKeep[from] & castleKeep[to]
	if us == black {
		p.full++
	}
	p.side = uint8(them)
}

// inCheck reports whether the side to move is in check (FIDE 3.9.1).
func (p *position) inCheck() bool {
	us := int(p.side)
	return p.attacked(p.kingSq(us), us^1, p.col[0]|p.col[1])
}

// attacked reports whether side by attacks sq with the given occupancy
// (FIDE 3.1.2: pinned pieces attack too).
func (p *position) attacked(sq, by int, occ bitboard) bool {
	e := p.col[by]
	if knightAtt[sq]&p.pt[Knight]&e != 0 || pawnAtt[by^1][sq]&p.pt[Pawn]&e != 0 || kingAtt[sq]&p.pt[King]&e != 0 {
		return true
	}
	q := p.pt[Queen]
	return bishopAttacks(sq, occ)&(p.pt[Bishop]|q)&e != 0 || rookAttacks(sq, occ)&(p.pt[Rook]|q)&e != 0
}

// FEN (Forsyth–Edwards Notation, PGN standard 16.1).

var squareNames [64]string

func init() {
	for sq := range squareNames {
		squareNames[sq] = string(rune('a'+sq%8)) + string(rune('1'+sq/8))
	}
}

func squareName(sq int) string { return squareNames[sq] }

// parseCoord reads a move in coordinates ("e2e4", "e7e8q"); ok is false for
// anything else.
func parseCoord(text string) (from, to, promo int, ok bool) {
	if len(text) != 4 && len(text) != 5 {
		return 0, 0, 0, false
	}
	for i := 0; i < 4; i += 2 {
		if text[i] < 'a' || text[i] > 'h' || text[i+1] < '1' || text[i+1] > '8' {
			return 0, 0, 0, false
		}
	}
	from = int(text[0]-'a') + 8*int(text[1]-'1')
	to = int(text[2]-'a') + 8*int(text[3]-'1')
	if len(text) == 5 {
		promo = strings.IndexByte("  nbrq", text[4])
		if promo < Knight {
			return 0, 0, 0, false
		}
	}
	return from, to, promo, true
}

// findCoord finds the legal move with these squares and promotion.
func findCoord(legal []move, from, to, promo int) (move, bool) {
	for _, m := range legal {
		if m.from() == from && m.to() == to && m.promo() == promo {
			return m, true
		}
	}
	return 0, false
}

// placement is the board field of a FEN.
var placement = rules.Placement{Board: rules.ChessBoard}

// fen writes the position as a FEN.
func (p *position) fen() string {
	var b strings.Builder
	b.WriteString(placement.Format(func(sq rules.Square) string {
		side, typ := p.pieceAt(int(sq))
		if typ == 0 {
			return ""
		}
		c := pieceLetters[typ]
		if side == black {
			c |= 0x20
		}
		return string(rune(c))
	}))
	b.WriteString([]string{" w ", " b "}[p.side])
	b.WriteString(castleString(p.castle))
	b.WriteByte(' ')
	if p.ep >= 0 {
		b.WriteString(squareName(int(p.ep)))
	} else {
		b.WriteByte('-')
	}
	fmt.Fprintf(&b, " %d %d", p.half, p.full)
	return b.String()
}

func castleString(c uint8) string {
	if c == 0 {
		return "-"
	}
	s := ""
	for i, l := range "KQkq" {
		if c&(1<<i) != 0 {
			s += string(l)
		}
	}
	return s
}

// parseFEN reads a FEN. The halfmove clock and fullmove number may be left
// out (they default to 0 and 1). The position must be one that can occur in
// a game: one king each, no pawn on the first or last rank, piece counts a
// game allows, castling rights and en passant square that fit the pieces,
// and the side that just moved not in check.
func parseFEN(s string) (position, error) {
	var p position
	p.ep = -1
	fields := strings.Fields(s)
	if len(fields) != 4 && len(fields) != 6 {
		return p, fmt.Errorf("a FEN has 6 fields (or 4, without the clocks), this has %d", len(fields))
	}
	err := placement.Parse(fields[0], func(sq rules.Square, tok string) error {
		c := rune(tok[0])
		typ := strings.IndexRune(pieceLetters[1:], c&^0x20) + 1
		if len(tok) != 1 || c > 127 || typ == 0 || (c&0x20 == 0 && c != rune(pieceLetters[typ])) {
			return fmt.Errorf("%q is not a piece letter (KQRBNP for White, kqrbnp for Black)", tok)
		}
		side := white
		if c >= 'a' {
			side = black
		}
		p.put(side, typ, int(sq)) // rules.ChessBoard's squares are file + 8×rank, as here
		return nil
	})
	if err != nil {
		return p, err
	}
	switch fields[1] {
	case "w":
		p.side = white
	case "b":
		p.side = black
	default:
		return p, fmt.Errorf("the side to move is %q, not w or b", fields[1])
	}
	if fields[2] != "-" {
		for _, c := range fields[2] {
			i := strings.IndexRune("KQkq", c)
			if i < 0 || p.castle&(1<<i) != 0 {
				return p, fmt.Errorf("castling rights %q: want a subset of KQkq or -", fields[2])
			}
			p.castle |= 1 << i
		}
	}
	if fields[3] != "-" {
		if len(fields[3]) != 2 || fields[3][0] < 'a' || fields[3][0] > 'h' || fields[3][1] < '1' || fields[3][1] > '8' {
			return p, fmt.Errorf("en passant square %q is not a square or -", fields[3])
		}
		p.ep = int8(int(fields[3][0]-'a') + 8*int(fields[3][1]-'1'))
	}
	p.full = 1
	if len(fields) == 6 {
		h, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return p, fmt.Errorf("halfmove clock %q is not a number from 0 to 65535", fields[4])
		}
		n, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil || n == 0 {
			return p, fmt.Errorf("fullmove number %q is not a number from 1 to 65535", fields[5])
		}
		p.half, p.full = int32(h), int32(n)
	}
	if err := p.validate(); err != nil {
		return p, err
	}
	return p, nil
}

// validate checks that the position can occur in a game of chess.
func (p *position) validate() error {
	if p.col[white]&p.col[black] != 0 {
		return fmt.Errorf("a square holds two pieces")
	}
	var all bitboard
	for t := Pawn; t <= King; t++ {
		if all&p.pt[t] != 0 {
			return fmt.Errorf("a square holds two pieces")
		}
		all |= p.pt[t]
	}
	if all != p.col[white]|p.col[black] {
		return fmt.Errorf("piece sets disagree")
	}
	names := [2]string{"White", "Black"}
	for side := range 2 {
		c := p.col[side]
		if n := bits.OnesCount64(p.pt[King] & c); n != 1 {
			return fmt.Errorf("%s has %d kings; a game has exactly one each (FIDE 2.2)", names[side], n)
		}
		n := func(t int) int { return bits.OnesCount64(p.pt[t] & c) }
		extra := max(0, n(Queen)-1) + max(0, n(Rook)-2) + max(0, n(Bishop)-2) + max(0, n(Knight)-2)
		if n(Pawn)+extra > 8 || bits.OnesCount64(c) > 16 {
			return fmt.Errorf("%s has more pieces than 8 pawns and their promotions can give (FIDE 2.2, 3.7.3.3)", names[side])
		}
	}
	if p.pt[Pawn]&(rank1|rank8) != 0 {
		return fmt.Errorf("a pawn stands on the first or last rank (FIDE 3.7.3.3)")
	}
	homes := []struct {
		right     uint8
		king, rk  int
		side      int
		name, sqs string
	}{
		{castleWK, 4, 7, white, "K", "e1 and h1"}, {castleWQ, 4, 0, white, "Q", "e1 and a1"},
		{castleBK, 60, 63, black, "k", "e8 and h8"}, {castleBQ, 60, 56, black, "q", "e8 and a8"},
	}
	for _, h := range homes {
		c := p.col[h.side]
		if p.castle&h.right != 0 && (p.pt[King]&c&bit(h.king) == 0 || p.pt[Rook]&c&bit(h.rk) == 0) {
			return fmt.Errorf("castling right %s needs the king and a rook on %s (FIDE 3.8.2.1)", h.name, h.sqs)
		}
	}
	if p.ep >= 0 {
		ep := int(p.ep)
		pawnSq, startSq, wantRank := ep-8, ep+8, 5
		if p.side == black {
			pawnSq, startSq, wantRank = ep+8, ep-8, 2
		}
		them := int(p.side) ^ 1
		if ep/8 != wantRank || p.pt[Pawn]&p.col[them]&bit(pawnSq) == 0 ||
			(p.col[0]|p.col[1])&(bit(ep)|bit(startSq)) != 0 {
			return fmt.Errorf("en passant square %s does not follow a pawn's double step (FIDE 3.7.3.1)", squareName(ep))
		}
	}
	us := int(p.side)
	if p.attacked(p.kingSq(us^1), us, p.col[0]|p.col[1]) {
		return fmt.Errorf("the side not to move is in check, which no legal move can leave (FIDE 3.9.2)")
	}
	return nil
}

// Zobrist keys for repetition (FIDE 9.2.3): from a fixed seed, so keys are
// the same in every run.
var (
	zPiece  [2][7][64]uint64
	zSide   uint64
	zCastle [16]uint64
	zEP     [8]uint64
)

func init() {
	x := uint64(0x5EED0F0C4E55)
	next := func() uint64 { // splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for s := range zPiece {
		for t := range zPiece[s] {
			for sq := range zPiece[s][t] {
				zPiece[s][t][sq] = next()
			}
		}
	}
	zSide = next()
	for i := range zCastle {
		zCastle[i] = next()
	}
	for i := range zEP {
		zEP[i] = next()
	}
}

// key identifies the position for repetition: pieces, side to move,
// castling rights, and the en passant file only when an en passant capture
// is actually legal (FIDE 9.2.3). legal are the position's legal moves.
func (p *position) key(legal []move) uint64 {
	var k uint64
	for s := range 2 {
		for t := Pawn; t <= King; t++ {
			for b := p.pt[t] & p.col[s]; b != 0; b &= b - 1 {
				k ^= zPiece[s][t][bits.TrailingZeros64(b)]
			}
		}
	}
	if p.side == black {
		k ^= zSide
	}
	k ^= zCastle[p.castle]
	for _, m := range legal {
		if m.kind() == KindEnPassant {
			k ^= zEP[m.to()%8]
			break
		}
	}
	return k
}

// deadPosition reports insufficient material for either side to mate
// (FIDE 5.2.2): only kings, knights and bishops, and either at most one
// minor piece on the board or only bishops, all on squares of one colour.
func (p *position) deadPosition() bool {
	if p.pt[Pawn]|p.pt[Rook]|p.pt[Queen] != 0 {
		return false
	}
	minors := p.pt[Knight] | p.pt[Bishop]
	if bits.OnesCount64(minors) <= 1 {
		return true
	}
	return p.pt[Knight] == 0 && (minors&dark == 0 || minors&^dark == 0)
}
