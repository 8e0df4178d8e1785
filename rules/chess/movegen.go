package chess

import "math/bits"

// maxMoves bounds the legal moves of any position (the record is 218).
const maxMoves = 256

type moveBuf = [maxMoves]move

// gen writes the legal moves of p into list and returns how many there are;
// with a nil list it only counts them (perft's last ply), which skips
// turning target sets into moves.
//
// It generates legal moves directly (FIDE 3.10.1): the pieces giving check
// and the pieces pinned to their king are found first, so that a move is
// emitted only if it leaves the own king safe (FIDE 3.9.2): while in check,
// non-king moves must capture the checker or block it, pinned pieces stay
// on their pin line, the king never steps onto an attacked square, and the
// rare en passant capture is checked by looking again at the king's lines.
func (p *position) gen(list *moveBuf) int {
	us := int(p.side)
	them := us ^ 1
	own, enemy := p.col[us], p.col[them]
	occ := own | enemy
	kbb := p.pt[King] & own
	ksq := bits.TrailingZeros64(kbb)
	eQ := p.pt[Queen] & enemy
	eRQ := p.pt[Rook]&enemy | eQ
	eBQ := p.pt[Bishop]&enemy | eQ
	checkers := knightAtt[ksq]&p.pt[Knight]&enemy | pawnAtt[us][ksq]&p.pt[Pawn]&enemy |
		rookAttacks(ksq, occ)&eRQ | bishopAttacks(ksq, occ)&eBQ
	count := list == nil
	n := 0

	// The king (FIDE 3.8.1) may not step onto an attacked square; the king
	// itself is taken off the board so it cannot hide behind itself.
	occNoK := occ ^ kbb
	for t := kingAtt[ksq] &^ own; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		if !p.attacked(to, them, occNoK) {
			if !count {
				list[n] = mkMove(ksq, to, King, 0, KindNormal)
			}
			n++
		}
	}
	if checkers&(checkers-1) != 0 {
		return n // double check: only the king can move
	}
	target := ^own
	if checkers != 0 {
		c := bits.TrailingZeros64(checkers)
		target = between[ksq][c] | checkers
	}

	// Pinned pieces: own pieces alone between the king and an enemy slider.
	var pinned bitboard
	for s := rookAttacks(ksq, enemy)&eRQ | bishopAttacks(ksq, enemy)&eBQ; s != 0; s &= s - 1 {
		b := between[ksq][bits.TrailingZeros64(s)] & occ
		if b != 0 && b&(b-1) == 0 && b&own != 0 {
			pinned |= b
		}
	}

	// Knights (FIDE 3.6): a pinned knight can never move.
	for f := p.pt[Knight] & own &^ pinned; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		n = emit(list, n, from, knightAtt[from]&target, Knight)
	}
	// Bishops, rooks and queens (FIDE 3.2–3.5).
	for f := p.pt[Bishop] & own; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		t := bishopAttacks(from, occ) & target
		if pinned&bit(from) != 0 {
			t &= line[ksq][from]
		}
		n = emit(list, n, from, t, Bishop)
	}
	for f := p.pt[Rook] & own; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		t := rookAttacks(from, occ) & target
		if pinned&bit(from) != 0 {
			t &= line[ksq][from]
		}
		n = emit(list, n, from, t, Rook)
	}
	for f := p.pt[Queen] & own; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		t := (rookAttacks(from, occ) | bishopAttacks(from, occ)) & target
		if pinned&bit(from) != 0 {
			t &= line[ksq][from]
		}
		n = emit(list, n, from, t, Queen)
	}

	// Pawns (FIDE 3.7), set-wise for the free ones.
	pawns := p.pt[Pawn] & own
	free := pawns &^ pinned
	empty := ^occ
	var push, dbl, capL, capR bitboard
	var up, dl, dr int
	if us == white {
		push = free << 8 & empty
		dbl = (push & rank3) << 8 & empty & target
		capL = (free &^ fileA) << 7 & enemy & target
		capR = (free &^ fileH) << 9 & enemy & target
		up, dl, dr = 8, 7, 9
	} else {
		push = free >> 8 & empty
		dbl = (push & rank6) >> 8 & empty & target
		capL = (free &^ fileA) >> 9 & enemy & target
		capR = (free &^ fileH) >> 7 & enemy & target
		up, dl, dr = -8, -9, -7
	}
	push &= target
	n = emitPawns(list, n, push, up, KindNormal)
	n = emitPawns(list, n, dbl, 2*up, KindDoubleStep)
	n = emitPawns(list, n, capL, dl, KindNormal)
	n = emitPawns(list, n, capR, dr, KindNormal)
	if f := pawns & pinned; f != 0 {
		n = p.genPinnedPawns(list, n, f, ksq, target, up)
	}
	if p.ep >= 0 {
		n = p.genEnPassant(list, n, ksq, checkers, eRQ, eBQ, up)
	}
	// Castling (FIDE 3.8.2): not out of check, nothing between king and
	// rook, and neither the square crossed nor the one reached attacked.
	// (Inline: a call here, at every node, costs perft a measurable share.)
	if checkers == 0 && p.castle != 0 {
		rights, base := p.castle&(castleWK|castleWQ), 0
		if us == black {
			rights, base = p.castle>>2, 56
		}
		if rights&castleWK != 0 && occ&(bit(base+5)|bit(base+6)) == 0 &&
			!p.attacked(base+5, them, occ) && !p.attacked(base+6, them, occ) {
			if !count {
				list[n] = mkMove(base+4, base+6, King, 0, KindCastleShort)
			}
			n++
		}
		if rights&castleWQ != 0 && occ&(bit(base+1)|bit(base+2)|bit(base+3)) == 0 &&
			!p.attacked(base+3, them, occ) && !p.attacked(base+2, them, occ) {
			if !count {
				list[n] = mkMove(base+4, base+2, King, 0, KindCastleLong)
			}
			n++
		}
	}
	return n
}

// genPinnedPawns adds the moves of the pinned pawns f, one by one, along
// their pin line.
func (p *position) genPinnedPawns(list *moveBuf, n int, f bitboard, ksq int, target bitboard, up int) int {
	us := int(p.side)
	empty := ^(p.col[0] | p.col[1])
	enemy := p.col[us^1]
	for ; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		fb := bit(from)
		var t bitboard
		if one := shift(fb, up) & empty; one != 0 {
			t |= one
			start := rank1 << 8
			if us == black {
				start = rank8 >> 8
			}
			if fb&start != 0 {
				t |= shift(one, up) & empty
			}
		}
		t |= pawnAtt[us][from] & enemy
		t &= target & line[ksq][from]
		for ; t != 0; t &= t - 1 {
			to := bits.TrailingZeros64(t)
			kind := KindNormal
			if to-from == 2*up {
				kind = KindDoubleStep
			}
			n = emitPawns(list, n, bit(to), to-from, kind)
		}
	}
	return n
}

// genEnPassant adds the en passant captures (FIDE 3.7.3.1): take both
// pawns off, put ours on the square passed over, and look again at the
// king's lines.
func (p *position) genEnPassant(list *moveBuf, n, ksq int, checkers, eRQ, eBQ bitboard, up int) int {
	us := int(p.side)
	occ := p.col[0] | p.col[1]
	ep := int(p.ep)
	capSq := ep - up
	for f := pawnAtt[us^1][ep] & p.pt[Pawn] & p.col[us]; f != 0; f &= f - 1 {
		from := bits.TrailingZeros64(f)
		occ2 := occ ^ bit(from) ^ bit(capSq) | bit(ep)
		if checkers&^(eRQ|eBQ)&^bit(capSq) == 0 &&
			rookAttacks(ksq, occ2)&eRQ == 0 && bishopAttacks(ksq, occ2)&eBQ == 0 {
			if list != nil {
				list[n] = mkMove(from, ep, Pawn, 0, KindEnPassant)
			}
			n++
		}
	}
	return n
}

func shift(b bitboard, by int) bitboard {
	if by > 0 {
		return b << uint(by)
	}
	return b >> uint(-by)
}

// emit adds a piece's moves from one square to the target set.
func emit(list *moveBuf, n, from int, t bitboard, piece int) int {
	if list == nil {
		return n + bits.OnesCount64(t)
	}
	for ; t != 0; t &= t - 1 {
		list[n] = mkMove(from, bits.TrailingZeros64(t), piece, 0, KindNormal)
		n++
	}
	return n
}

// emitPawns adds pawn moves to the squares of t, each coming from delta
// squares back; a move to the last rank becomes four promotions
// (FIDE 3.7.3.3).
func emitPawns(list *moveBuf, n int, t bitboard, delta, kind int) int {
	if list == nil {
		return n + bits.OnesCount64(t&^(rank1|rank8)) + 4*bits.OnesCount64(t&(rank1|rank8))
	}
	for ; t != 0; t &= t - 1 {
		to := bits.TrailingZeros64(t)
		from := to - delta
		if bit(to)&(rank1|rank8) != 0 {
			for pr := Queen; pr >= Knight; pr-- {
				list[n] = mkMove(from, to, Pawn, pr, kind)
				n++
			}
			continue
		}
		list[n] = mkMove(from, to, Pawn, 0, kind)
		n++
	}
	return n
}

// perft counts the leaves of the game tree to depth plies, playing moves on
// copies of the position and counting the last ply without playing it. A
// position reached in the tree that ends the game by the fifty-move rule or
// as a dead position has no moves (the root is the caller's business);
// repetitions are not tracked here (see State.Perft).
func (p *position) perft(depth int) uint64 {
	switch {
	case depth <= 0:
		return 1
	case depth == 1:
		return uint64(p.gen(nil))
	}
	bufs := make([]moveBuf, depth)
	return p.perftRec(depth, bufs)
}

func (p *position) perftRec(depth int, bufs []moveBuf) uint64 {
	list := &bufs[depth-1]
	n := p.gen(list)
	var total uint64
	if depth == 2 {
		for _, m := range list[:n] {
			c := *p
			c.make(m)
			if c.half >= 100 || c.deadPosition() {
				continue
			}
			total += uint64(c.gen(nil))
		}
		return total
	}
	for _, m := range list[:n] {
		c := *p
		c.make(m)
		if c.half >= 100 || c.deadPosition() {
			continue
		}
		total += c.perftRec(depth-1, bufs)
	}
	return total
}
