package submachine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// Move kinds (the Kind code of a rules.Move).
const (
	kindNormal    uint8 = iota
	kindDouble          // a pawn's double step from its start rank (M5.1)
	kindEnPassant       // Aux holds the captured pawn's square (M5.1)
	kindTeleport        // a jump between teleport squares no other way reaches (M3)
)

// position is the board, the side to move and the counters: the mutable
// working copy behind the immutable State, with make/unmake for speed.
type position struct {
	cells    []uint8 // per grid cell: 0 empty, else kind + 16*side
	side     rules.Side
	ep       rules.Square // the square a double-stepping pawn passed (M5.1), or NoSquare
	halfmove int          // plies since the last capture or pawn move (M6)
	fullmove int
	kings    [2]rules.Square
	men      int    // pieces on the board, kings included
	hash     uint64 // Zobrist key of cells and side (ep is added by key)
	// stamp and gen deduplicate one piece's targets during generation.
	stamp []uint32
	gen   uint32
}

// Zobrist keys. They are part of serialisation format v1 (the repetition
// history is stored as keys): the generator's seed and draw order must not
// change without a new format version.
var (
	zCell [25][]uint64
	zSide uint64
	zEP   []uint64
)

func init() {
	r := rand.New(rand.NewPCG(0x5b0, 0xc4e55))
	for c := range zCell {
		zCell[c] = make([]uint64, size)
		for sq := range size {
			zCell[c][sq] = r.Uint64()
		}
	}
	zSide = r.Uint64()
	zEP = make([]uint64, size)
	for sq := range size {
		zEP[sq] = r.Uint64()
	}
}

func newPos() *position {
	p := &position{cells: make([]uint8, size), ep: rules.NoSquare, fullmove: 1,
		kings: [2]rules.Square{rules.NoSquare, rules.NoSquare}, stamp: make([]uint32, size)}
	return p
}

func (p *position) clone() *position {
	q := *p
	q.cells = append([]uint8(nil), p.cells...)
	q.stamp = make([]uint32, size)
	q.gen = 0
	return &q
}

// computeHash recomputes the Zobrist key of cells and side from scratch.
func (p *position) computeHash() uint64 {
	var h uint64
	for _, sq := range board.Squares() {
		if c := p.cells[sq]; c != 0 {
			h ^= zCell[c][sq]
		}
	}
	if p.side == rules.Black {
		h ^= zSide
	}
	return h
}

// key is the repetition key: cells, side and the en passant square (which
// the State keeps only while an en passant capture is legal, FIDE 9.2.3).
func (p *position) key() uint64 {
	if p.ep != rules.NoSquare {
		return p.hash ^ zEP[p.ep]
	}
	return p.hash
}

func (p *position) put(sq rules.Square, c uint8) {
	p.cells[sq] = c
	p.hash ^= zCell[c][sq]
	p.men++
	if kindOf(c) == king {
		p.kings[sideOf(c)] = sq
	}
}

func (p *position) remove(sq rules.Square) uint8 {
	c := p.cells[sq]
	p.cells[sq] = 0
	p.hash ^= zCell[c][sq]
	p.men--
	return c
}

// undo is what unmake needs to restore.
type undo struct {
	captured uint8
	capSq    rules.Square
	ep       rules.Square
	halfmove int
	fullmove int
	hash     uint64
	king     rules.Square
}

// make plays a pseudo-legal move.
func (p *position) make(m rules.Move) undo {
	u := undo{capSq: rules.NoSquare, ep: p.ep, halfmove: p.halfmove, fullmove: p.fullmove,
		hash: p.hash, king: p.kings[p.side]}
	c := p.remove(m.From)
	capSq := m.To
	if m.Kind == kindEnPassant {
		capSq = m.Aux
	}
	if p.cells[capSq] != 0 {
		u.captured, u.capSq = p.remove(capSq), capSq
	}
	if m.Promo != 0 {
		c = cellOf(p.side, m.Promo)
	}
	p.put(m.To, c)
	p.ep = rules.NoSquare
	if m.Kind == kindDouble {
		p.ep = pawnStep[p.side][m.From]
	}
	if kindOf(c) == pawn || m.Promo != 0 || u.captured != 0 {
		p.halfmove = 0
	} else {
		p.halfmove++
	}
	if p.side == rules.Black {
		p.fullmove++
	}
	p.side = p.side.Other()
	p.hash ^= zSide
	return u
}

// unmake takes back the move made with make.
func (p *position) unmake(m rules.Move, u undo) {
	p.side = p.side.Other()
	c := p.cells[m.To]
	p.cells[m.To] = 0
	if m.Promo != 0 {
		c = cellOf(p.side, pawn)
	}
	p.cells[m.From] = c
	if u.captured != 0 {
		p.cells[u.capSq] = u.captured
		p.men++
	}
	p.ep, p.halfmove, p.fullmove, p.hash = u.ep, u.halfmove, u.fullmove, u.hash
	p.kings[p.side] = u.king
}

// attacked reports whether side by attacks sq: could capture a piece there
// if it were its turn (pins aside).
func (p *position) attacked(sq rules.Square, by rules.Side) bool {
	for _, s := range knightTargets[sq] { // symmetric: leapers do not wrap (M2.4)
		if c := p.cells[s]; c != 0 && sideOf(c) == by && isKnightLeap(kindOf(c)) {
			return true
		}
	}
	for _, s := range pawnFrom[by][sq] {
		if p.cells[s] == cellOf(by, pawn) {
			return true
		}
	}
	for _, s := range kingSources[sq] {
		if p.cells[s] == cellOf(by, king) {
			return true
		}
	}
	for _, path := range orthPaths[sq] {
		for _, s := range path {
			if c := p.cells[s]; c != 0 {
				if sideOf(c) == by && isOrthSlider(kindOf(c)) {
					return true
				}
				break
			}
		}
	}
	for _, path := range diagPaths[sq] {
		for _, s := range path {
			if c := p.cells[s]; c != 0 {
				if sideOf(c) == by && isDiagSlider(kindOf(c)) {
					return true
				}
				break
			}
		}
	}
	if isTeleport[sq] { // M3: a piece on a teleport square attacks the other three
		for _, s := range teleports {
			if c := p.cells[s]; s != sq && c != 0 && sideOf(c) == by && kindOf(c) != pawn {
				return true
			}
		}
	}
	return false
}

// inCheck reports whether side s's king is attacked.
func (p *position) inCheck(s rules.Side) bool {
	return p.attacked(p.kings[s], s.Other())
}

// pseudo appends the pseudo-legal moves of the side to move (own king's
// safety not yet checked) to buf.
func (p *position) pseudo(buf []rules.Move) []rules.Move {
	for _, sq := range board.Squares() {
		c := p.cells[sq]
		if c == 0 || sideOf(c) != p.side {
			continue
		}
		buf = p.pieceMoves(buf, sq, c)
	}
	return buf
}

// pieceMoves appends the pseudo-legal moves of the piece c on sq.
func (p *position) pieceMoves(buf []rules.Move, sq rules.Square, c uint8) []rules.Move {
	k, side := kindOf(c), sideOf(c)
	if k == pawn {
		return p.pawnMoves(buf, sq)
	}
	p.gen++
	if p.gen == 0 { // wrapped: clear the stamps
		clear(p.stamp)
		p.gen = 1
	}
	add := func(t rules.Square, kind uint8) {
		if p.stamp[t] == p.gen {
			return // reached another way already (round a cylinder, by leap and line, …)
		}
		p.stamp[t] = p.gen
		if tc := p.cells[t]; tc != 0 && sideOf(tc) == side {
			return
		}
		buf = append(buf, rules.Move{From: sq, To: t, Aux: rules.NoSquare, Piece: k, Kind: kind})
	}
	if isKnightLeap(k) {
		for _, t := range knightTargets[sq] {
			add(t, kindNormal)
		}
	}
	if k == king {
		for _, t := range kingTargets[sq] {
			add(t, kindNormal)
		}
	}
	if isOrthSlider(k) {
		for _, d := range rules.Orthogonals {
			for _, t := range board.Ray(sq, d) {
				add(t, kindNormal)
				if p.cells[t] != 0 {
					break
				}
			}
		}
	}
	if isDiagSlider(k) {
		for _, d := range rules.Diagonals {
			for _, t := range board.Ray(sq, d) {
				add(t, kindNormal)
				if p.cells[t] != 0 {
					break
				}
			}
		}
	}
	if isTeleport[sq] { // M3
		for _, t := range teleports {
			if t != sq {
				add(t, kindTeleport)
			}
		}
	}
	return buf
}

// pawnMoves appends a pawn's steps and captures (M5).
func (p *position) pawnMoves(buf []rules.Move, sq rules.Square) []rules.Move {
	side := p.side
	add := func(t, aux rules.Square, kind uint8) {
		m := rules.Move{From: sq, To: t, Aux: aux, Piece: pawn, Kind: kind}
		if promoRank[side][board.Rank(t)] {
			for _, pr := range promotions {
				m.Promo = pr
				buf = append(buf, m)
			}
			return
		}
		buf = append(buf, m)
	}
	if t := pawnStep[side][sq]; t != rules.NoSquare && p.cells[t] == 0 {
		add(t, rules.NoSquare, kindNormal)
		if board.Rank(sq) == startRank[side] {
			if t2 := pawnStep[side][t]; t2 != rules.NoSquare && p.cells[t2] == 0 {
				add(t2, rules.NoSquare, kindDouble)
			}
		}
	}
	for _, t := range pawnCaps[side][sq] {
		if tc := p.cells[t]; tc != 0 {
			if sideOf(tc) != side {
				add(t, rules.NoSquare, kindNormal)
			}
		} else if t == p.ep {
			add(t, pawnStep[side.Other()][t], kindEnPassant)
		}
	}
	return buf
}

// legal appends the legal moves of the side to move to buf.
func (p *position) legal(buf []rules.Move) []rules.Move {
	start := len(buf)
	buf = p.pseudo(buf)
	out := buf[:start]
	me := p.side
	for _, m := range buf[start:] {
		u := p.make(m)
		if !p.inCheck(me) {
			out = append(out, m)
		}
		p.unmake(m, u)
	}
	return out
}

// bareKings reports whether only the two kings are left.
func (p *position) bareKings() bool { return p.men == 2 }

// placement is the board field of position strings: numbers count the
// holes too (M1).
var placement = rules.Placement{Board: board, CountHoles: true, HoleRuling: "M1"}

// StartPosition is the position string of the setup of M4.
const StartPosition = "rnbcq1kmbnr/ppppp1ppppp/11/11/11/11/11/11/11/11/PPPPP1PPPPP/RNBCQ1KMBNR w - 0 1"

// parsePosition reads a position string, FEN-like: the ranks from 12 down
// to 1 separated by "/", each describing its 11 cells from a to k with the
// letters KQRBNCMP (White upper case, Black lower case) and numbers for runs
// of empty cells, holes included (so every rank adds up to 11, and no piece
// may stand on a hole, M1); then the side to move (w or b), the en passant
// square or "-", and optionally the halfmove clock and the move number. It
// checks that play could go on from the position.
func parsePosition(s string) (*position, error) {
	fields := strings.Fields(s)
	if len(fields) < 2 || len(fields) > 5 {
		return nil, errors.New("a position is: the 12 ranks separated by \"/\", the side to move, the en passant square, the halfmove clock and the move number")
	}
	p := newPos()
	err := placement.Parse(fields[0], func(sq rules.Square, tok string) error {
		ch := tok[0]
		side := rules.White
		if ch >= 'a' && ch <= 'z' {
			side, ch = rules.Black, ch-'a'+'A'
		}
		k := kindFromLetter(ch)
		if len(tok) != 1 || k == 0 {
			return fmt.Errorf("%s: %q is not a piece letter (K Q R B N C M P)", board.Name(sq), tok)
		}
		if k == king && p.kings[side] != rules.NoSquare {
			return fmt.Errorf("%s has two kings", sideName[side])
		}
		p.put(sq, cellOf(side, k))
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
	case "b":
		p.side = rules.Black
		p.hash ^= zSide
	default:
		return nil, fmt.Errorf("side to move %q: want w or b", fields[1])
	}
	if len(fields) > 2 && fields[2] != "-" {
		sq, err := board.Parse(fields[2])
		if err != nil {
			return nil, fmt.Errorf("en passant square %q is not a square (M1)", fields[2])
		}
		p.ep = sq
	}
	p.halfmove, p.fullmove = 0, 1
	if len(fields) > 3 {
		n, err := strconv.Atoi(fields[3])
		if err != nil || n < 0 || n > 100 {
			return nil, fmt.Errorf("halfmove clock %q: want a number from 0 to 100", fields[3])
		}
		p.halfmove = n
	}
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 1 || n > 100000 {
			return nil, fmt.Errorf("move number %q: want a number from 1", fields[4])
		}
		p.fullmove = n
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

var sideName = [2]string{"White", "Black"}

// validate checks that the position is one play could continue from.
func (p *position) validate() error {
	var pawns, pieces, kings [2]int
	for _, sq := range board.Squares() {
		c := p.cells[sq]
		if c == 0 {
			continue
		}
		s, k := sideOf(c), kindOf(c)
		if k < pawn || k > numKinds || c&^(blackBit|15) != 0 {
			return fmt.Errorf("bad piece code %d on %s", c, board.Name(sq))
		}
		pieces[s]++
		switch k {
		case pawn:
			pawns[s]++
			if r := board.Rank(sq); promoRank[s][r] || r == backRank[s] {
				return fmt.Errorf("a %s pawn cannot stand on %s (M5.3)", sideName[s], board.Name(sq))
			}
		case king:
			kings[s]++
			if p.kings[s] != sq {
				return fmt.Errorf("%s's king is not where it is recorded", sideName[s])
			}
		}
	}
	for s := range 2 {
		if kings[s] != 1 {
			return fmt.Errorf("%s has %d kings, want 1", sideName[s], kings[s])
		}
		if pawns[s] > 10 || pieces[s] > 20 {
			return fmt.Errorf("%s has %d pieces with %d pawns: at most 20 with 10 pawns", sideName[s], pieces[s], pawns[s])
		}
	}
	if p.inCheck(p.side.Other()) {
		return fmt.Errorf("%s is in check but it is %s's move", sideName[p.side.Other()], sideName[p.side])
	}
	if p.ep != rules.NoSquare {
		// The pawn that double-stepped passed ep and stands one step beyond.
		mover := p.side.Other()
		victim := pawnStep[mover][p.ep]
		from := pawnStep[p.side][p.ep]
		if p.cells[p.ep] != 0 || victim == rules.NoSquare || p.cells[victim] != cellOf(mover, pawn) ||
			from == rules.NoSquare || board.Rank(from) != startRank[mover] || p.cells[from] != 0 {
			return fmt.Errorf("no %s pawn has just passed %s with a double step (M5.1)", sideName[mover], board.Name(p.ep))
		}
	}
	if n := pieces[0] + pieces[1]; n != p.men {
		return fmt.Errorf("piece count %d out of date (%d on the board)", p.men, n)
	}
	if p.hash != p.computeHash() {
		return errors.New("position key out of date")
	}
	return nil
}

// String writes the position string read by parsePosition.
func (p *position) String() string {
	var b strings.Builder
	b.WriteString(placement.Format(func(sq rules.Square) string {
		if p.cells[sq] == 0 {
			return ""
		}
		return string(pieceLetter(p.cells[sq]))
	}))
	side := " w "
	if p.side == rules.Black {
		side = " b "
	}
	b.WriteString(side)
	b.WriteString(board.Name(p.ep))
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// pieceLetter is the letter of a cell's piece: upper case White, lower Black.
func pieceLetter(c uint8) byte {
	l := letters[kindOf(c)]
	if sideOf(c) == rules.Black {
		l += 'a' - 'A'
	}
	return l
}
