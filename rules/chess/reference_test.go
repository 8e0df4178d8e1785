package chess

import (
	"strconv"
	"strings"
	"testing"
)

// A deliberately plain reference move generator for the tests: a 64-square
// mailbox walked with file and rank loops, pseudo-legal moves filtered by
// "is my king attacked afterwards". It shares no code or tables with the
// bitboard generator, so agreeing counts are evidence, not an echo.

// refPosition is the reference generator's position, written apart from
// the engine's position type.
type refPosition struct {
	b      [64]int8 // +1..+6 White pawn..king, negative for Black
	white  bool     // White to move
	castle [4]bool  // K Q k q
	ep     int      // en passant target square or -1
	half   int      // plies since the last capture or pawn move
}

func refParse(t testing.TB, fen string) refPosition {
	t.Helper()
	f := strings.Fields(fen)
	var p refPosition
	p.ep = -1
	r, c := 7, 0
	for _, ch := range f[0] {
		switch {
		case ch == '/':
			r, c = r-1, 0
		case ch >= '1' && ch <= '8':
			c += int(ch - '0')
		default:
			v := int8(strings.IndexRune("PNBRQK", ch) + 1)
			if v == 0 {
				v = -int8(strings.IndexRune("pnbrqk", ch) + 1)
			}
			p.b[r*8+c] = v
			c++
		}
	}
	p.white = f[1] == "w"
	for i, ch := range "KQkq" {
		p.castle[i] = strings.ContainsRune(f[2], ch)
	}
	if f[3] != "-" {
		p.ep = int(f[3][0]-'a') + 8*int(f[3][1]-'1')
	}
	if len(f) > 4 {
		p.half, _ = strconv.Atoi(f[4])
	}
	return p
}

func refOn(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// attacked reports whether sq is attacked by White (byWhite) or Black.
func (p *refPosition) attacked(sq int, byWhite bool) bool {
	sgn := int8(1)
	if !byWhite {
		sgn = -1
	}
	f0, r0 := sq%8, sq/8
	pr := r0 - 1 // a white pawn attacks from below
	if !byWhite {
		pr = r0 + 1
	}
	for _, df := range []int{-1, 1} {
		if refOn(f0+df, pr) && p.b[pr*8+f0+df] == sgn*1 {
			return true
		}
	}
	for _, d := range [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
		if f, r := f0+d[0], r0+d[1]; refOn(f, r) && p.b[r*8+f] == sgn*2 {
			return true
		}
	}
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			if f, r := f0+df, r0+dr; (df != 0 || dr != 0) && refOn(f, r) && p.b[r*8+f] == sgn*6 {
				return true
			}
		}
	}
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		diag := d[0] != 0 && d[1] != 0
		for f, r := f0+d[0], r0+d[1]; refOn(f, r); f, r = f+d[0], r+d[1] {
			v := p.b[r*8+f]
			if v == 0 {
				continue
			}
			if v == sgn*5 || (diag && v == sgn*3) || (!diag && v == sgn*4) {
				return true
			}
			break
		}
	}
	return false
}

func (p *refPosition) king(white bool) int {
	want := int8(6)
	if !white {
		want = -6
	}
	for sq, v := range p.b {
		if v == want {
			return sq
		}
	}
	return -1
}

// children lists the positions after every legal move.
func (p *refPosition) children() []refPosition {
	var out []refPosition
	add := func(from, to int, promo int8, epCap int, newEP int) {
		if c, ok := p.after(from, to, promo, epCap, newEP); ok {
			out = append(out, c)
		}
	}
	for from, v := range p.b {
		switch v * p.sign() {
		case 1:
			p.pawnMoves(from, add)
		case 2, 6:
			p.stepMoves(from, v*p.sign() == 6, add)
		case 3, 4, 5:
			p.slideMoves(from, v*p.sign(), add)
		}
	}
	return append(out, p.castles()...)
}

// sign is +1 when White moves, -1 when Black does: the sign of its pieces.
func (p *refPosition) sign() int8 {
	if p.white {
		return 1
	}
	return -1
}

func (p *refPosition) own(v int8) bool { return v*p.sign() > 0 }

// after plays a move (pseudo-legally) and returns the position, with ok
// false when it leaves the mover's king attacked.
func (p *refPosition) after(from, to int, promo int8, epCap int, newEP int) (refPosition, bool) {
	sgn := p.sign()
	c := *p
	c.half++
	if c.b[to] != 0 || c.b[from]*sgn == 1 {
		c.half = 0
	}
	c.b[to] = c.b[from]
	c.b[from] = 0
	if promo != 0 {
		c.b[to] = sgn * promo
	}
	if epCap >= 0 {
		c.b[epCap] = 0
	}
	c.ep = newEP
	for i, sq := range [4]int{7, 0, 63, 56} {
		if from == sq || to == sq {
			c.castle[i] = false
		}
	}
	if from == 4 {
		c.castle[0], c.castle[1] = false, false
	}
	if from == 60 {
		c.castle[2], c.castle[3] = false, false
	}
	c.white = !p.white
	return c, !c.attacked(c.king(p.white), !p.white)
}

// pawnMoves gives add the pawn's steps, captures, en passant and
// promotions.
func (p *refPosition) pawnMoves(from int, add func(from, to int, promo int8, epCap int, newEP int)) {
	f0, r0 := from%8, from/8
	dir, startRank, lastRank := 1, 1, 7
	if !p.white {
		dir, startRank, lastRank = -1, 6, 0
	}
	pawnTo := func(to int, epCap int, newEP int) {
		if to/8 == lastRank {
			for _, pr := range []int8{5, 4, 3, 2} {
				add(from, to, pr, -1, -1)
			}
			return
		}
		add(from, to, 0, epCap, newEP)
	}
	if one := from + 8*dir; p.b[one] == 0 {
		pawnTo(one, -1, -1)
		if two := one + 8*dir; r0 == startRank && p.b[two] == 0 {
			pawnTo(two, -1, one)
		}
	}
	for _, df := range []int{-1, 1} {
		f, r := f0+df, r0+dir
		if !refOn(f, r) {
			continue
		}
		to := r*8 + f
		if p.b[to]*p.sign() < 0 {
			pawnTo(to, -1, -1)
		} else if to == p.ep {
			pawnTo(to, to-8*dir, -1)
		}
	}
}

// stepMoves gives add a knight's leaps, or a king's steps.
func (p *refPosition) stepMoves(from int, king bool, add func(from, to int, promo int8, epCap int, newEP int)) {
	f0, r0 := from%8, from/8
	jumps := [][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	if king {
		jumps = [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	}
	for _, d := range jumps {
		if f, r := f0+d[0], r0+d[1]; refOn(f, r) && !p.own(p.b[r*8+f]) {
			add(from, r*8+f, 0, -1, -1)
		}
	}
}

// slideMoves gives add the slides of a bishop (3), rook (4) or queen (5).
func (p *refPosition) slideMoves(from int, piece int8, add func(from, to int, promo int8, epCap int, newEP int)) {
	f0, r0 := from%8, from/8
	var dirs [][2]int
	if piece != 3 {
		dirs = append(dirs, [2]int{1, 0}, [2]int{-1, 0}, [2]int{0, 1}, [2]int{0, -1})
	}
	if piece != 4 {
		dirs = append(dirs, [2]int{1, 1}, [2]int{1, -1}, [2]int{-1, 1}, [2]int{-1, -1})
	}
	for _, d := range dirs {
		for f, r := f0+d[0], r0+d[1]; refOn(f, r); f, r = f+d[0], r+d[1] {
			if p.own(p.b[r*8+f]) {
				break
			}
			add(from, r*8+f, 0, -1, -1)
			if p.b[r*8+f] != 0 {
				break
			}
		}
	}
}

// castles lists the positions after castling: king and rook at home with
// the right, empty between, the king's start, crossing and target squares
// not attacked.
func (p *refPosition) castles() []refPosition {
	var out []refPosition
	sgn := p.sign()
	home, k, q := 4, 0, 1
	if !p.white {
		home, k, q = 60, 2, 3
	}
	if p.b[home] != sgn*6 || p.attacked(home, !p.white) {
		return nil
	}
	if p.castle[k] && p.b[home+3] == sgn*4 && p.b[home+1] == 0 && p.b[home+2] == 0 &&
		!p.attacked(home+1, !p.white) && !p.attacked(home+2, !p.white) {
		c := *p
		c.b[home], c.b[home+3], c.b[home+2], c.b[home+1] = 0, 0, sgn*6, sgn*4
		c.castle[k], c.castle[q], c.ep, c.white, c.half = false, false, -1, !p.white, p.half+1
		out = append(out, c)
	}
	if p.castle[q] && p.b[home-4] == sgn*4 && p.b[home-1] == 0 && p.b[home-2] == 0 && p.b[home-3] == 0 &&
		!p.attacked(home-1, !p.white) && !p.attacked(home-2, !p.white) {
		c := *p
		c.b[home], c.b[home-4], c.b[home-2], c.b[home-1] = 0, 0, sgn*6, sgn*4
		c.castle[k], c.castle[q], c.ep, c.white, c.half = false, false, -1, !p.white, p.half+1
		out = append(out, c)
	}
	return out
}

// refPerft counts leaves; a position drawn by the fifty-move rule or as a
// dead position (only kings and at most one minor piece, or only bishops
// all on one square colour) has no moves, as in a game.
func refPerft(p refPosition, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, c := range p.children() {
		if depth > 1 && (c.half >= 100 || c.dead()) {
			continue
		}
		n += refPerft(c, depth-1)
	}
	return n
}

func (p *refPosition) dead() bool {
	minors, knights := 0, 0
	colours := map[int]bool{}
	for sq, v := range p.b {
		switch max(v, -v) {
		case 1, 4, 5:
			return false
		case 2:
			minors++
			knights++
		case 3:
			minors++
			colours[(sq%8+sq/8)%2] = true
		}
	}
	return minors <= 1 || knights == 0 && len(colours) == 1
}
