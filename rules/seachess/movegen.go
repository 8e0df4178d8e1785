package seachess

import (
	"github.com/bottlepost/bottlepost/rules"
)

// Move kinds (rules.Move.Kind).
const (
	mvNormal      uint8 = iota // a piece moves From→To, capturing what floats there
	mvEnPassant                // a boat captures en passant; Aux is the boat taken (S2.3)
	mvCastleT                  // O-O: K From→To, torpedo boat Aux→ (S8.2)
	mvCastleC                  // O-O-O: K From→To, cruiser Aux→ (S8.2)
	mvMine                     // the cruiser on From plants a mine there (S3.2)
	mvTorpedo                  // the torpedo boat on From torpedoes To (S4.2)
	mvSubmerge                 // the submarine on From dives and moves underwater to To (S5.2)
	mvUnder                    // a submerged submarine moves From→To underwater (S5.4)
	mvSurfaceMove              // a submerged submarine leaps From→To and surfaces capturing (S5.5a)
	mvSurfaceHere              // a submerged submarine surfaces on From (=To) (S5.5b)
	mvLaunch                   // the carrier on From launches its aircraft to capture on To (S7.2)
	mvAirCapture               // the airborne aircraft of the carrier on From captures on To (S7.3)
	mvReturn                   // the aircraft returns to its carrier on From (=To) (S7.3)
	numKinds
)

func mv(k uint8, pc kind, from, to Square) rules.Move {
	return rules.Move{From: from, To: to, Aux: noSq, Piece: uint8(pc), Kind: k}
}

// hidden reports whether a move kind is a hidden move (S10.1).
func hidden(k uint8) bool { return k == mvMine || k == mvSubmerge || k == mvUnder }

// Castling geometry (S8.2), by side: the commando ship's home, and per kind
// the partner's home, the squares the commando ship passes and lands on,
// the partner's target and the squares that must be empty.
type castling struct {
	kind                   uint8
	partner                kind
	king, kingTo, from, to Square
	pass                   []Square // the commando ship's path after its home (pass…, land)
	partnerPath            []Square // the partner's path after its home
	empty                  []Square
}

var castlings [2][2]castling

func init() {
	for side := rules.White; side <= rules.Black; side++ {
		r := 0
		if side == rules.Black {
			r = 11
		}
		at := func(f int) Square { return brd.At(f, r) }
		castlings[side][0] = castling{kind: mvCastleT, partner: torpedo,
			king: at(6), kingTo: at(8), from: at(9), to: at(7),
			pass: []Square{at(7), at(8)}, partnerPath: []Square{at(8), at(7)},
			empty: []Square{at(7), at(8)}}
		castlings[side][1] = castling{kind: mvCastleC, partner: cruiser,
			king: at(6), kingTo: at(4), from: at(2), to: at(5),
			pass: []Square{at(5), at(4)}, partnerPath: []Square{at(3), at(4), at(5)},
			empty: []Square{at(3), at(4), at(5)}}
	}
}

func castlingOf(side rules.Side, k uint8) *castling {
	if k == mvCastleT {
		return &castlings[side][0]
	}
	return &castlings[side][1]
}

// attacked reports whether side `by` attacks sq in position p: every piece
// that could capture there (S2.2 boats, S3.1/S4.1 rook lines, S4.2 loaded
// torpedoes, S5.1 and S5.8 submarines visible or submerged, S6.1 bishop
// lines, S7.1 carrier moves and S7.4 the aircraft's outline, S8.1 the
// commando ship). A mine blocks a line (S3.6); a submerged submarine does
// not. Callers pass the position they judge from: the full one, or what a
// side knows.
func (p *position) attacked(sq Square, by rules.Side) bool {
	// Boats capture diagonally forward: look back along those diagonals.
	back := rules.S
	if by == rules.Black {
		back = rules.N
	}
	for _, d := range []rules.Dir{(back + 1) % 8, (back + 7) % 8} {
		if t := brd.Next(sq, d); t != noSq && p.sq[t] == mk(boat, by) {
			return true
		}
	}
	sub := mk(submarine, by)
	for _, t := range knightTo[sq] {
		if p.sq[t] == sub || p.uw[by][t] != 0 {
			return true
		}
	}
	k, a := mk(commando, by), mk(carrier, by)
	for _, t := range kingTo[sq] {
		if c := p.sq[t]; c == k || c == a {
			return true
		}
	}
	for _, d := range rules.AllDirs {
		s1 := brd.Next(sq, d)
		if s1 == noSq || p.sq[s1] != 0 || p.mine[s1] != 0 {
			continue
		}
		if s2 := brd.Next(s1, d); s2 != noSq && p.sq[s2] == a {
			return true
		}
	}
	for _, h := range horseTo[sq] {
		if p.sq[h.from] == a && p.sq[h.a] == 0 && p.sq[h.b] == 0 {
			return true
		}
	}
	for _, t := range outline[sq] {
		if p.sq[t] == a {
			return true
		}
	}
	rookC, rookT, bishop := mk(cruiser, by), mk(torpedo, by), mk(destroyer, by)
	for _, d := range rules.AllDirs {
		for _, t := range brd.Ray(sq, d) {
			if c := p.sq[t]; c != 0 {
				if d.Diagonal() {
					if c == bishop {
						return true
					}
				} else if c == rookC || c == rookT {
					return true
				}
				break
			}
			if p.mine[t] != 0 {
				break
			}
		}
	}
	// Loaded torpedo boats one or two squares away on a diagonal, facing so
	// that the diagonal is one of their forward ones (S4.2).
	for _, d := range rules.Diagonals {
		t := brd.Next(sq, d)
		if t == noSq {
			continue
		}
		if p.torpedoes(t, by, d.Opposite()) {
			return true
		}
		if p.sq[t] != 0 {
			continue
		}
		if t2 := brd.Next(t, d); t2 != noSq && p.torpedoes(t2, by, d.Opposite()) {
			return true
		}
	}
	return false
}

// mayBeSafe reports whether sq, attacked by side `by` on a side's board p
// (pos.project), might still be safe once what that side cannot see is
// counted in. mines says `by` may have laid mines the board does not show:
// a line attack across an empty square (a rook or bishop line, the
// carrier's two-square step) might be blocked by one (S3.6). subs is the
// number of `by`'s submerged submarines: each might come up (S5.6, S6.2)
// and capture one attacker or block one line; one coming up on a leg of
// a carrier's horse move might block a line too, so horse moves are not
// counted while any submarine is down. An enemy commando ship next to sq
// can be neither blocked nor captured.
func (p *position) mayBeSafe(sq Square, by rules.Side, mines bool, subs int) bool {
	n, unstoppable := p.nearAttackers(sq, by)
	if unstoppable || n > subs {
		return false
	}
	n += p.carrierAttackers(sq, by, mines, subs)
	if n > subs {
		return false
	}
	return n+p.lineAttackers(sq, by, mines) <= subs
}

// nearAttackers counts by's boats, submarines (afloat or submerged) and
// carriers one step from sq, for mayBeSafe; unstoppable reports an enemy
// commando ship next to sq, which nothing can stop.
func (p *position) nearAttackers(sq Square, by rules.Side) (n int, unstoppable bool) {
	back := rules.S
	if by == rules.Black {
		back = rules.N
	}
	for _, d := range []rules.Dir{(back + 1) % 8, (back + 7) % 8} {
		if t := brd.Next(sq, d); t != noSq && p.sq[t] == mk(boat, by) {
			n++
		}
	}
	sub := mk(submarine, by)
	for _, t := range knightTo[sq] {
		if p.sq[t] == sub || p.uw[by][t] != 0 {
			n++
		}
	}
	k, a := mk(commando, by), mk(carrier, by)
	for _, t := range kingTo[sq] {
		switch p.sq[t] {
		case k:
			return n, true
		case a:
			n++
		}
	}
	return n, false
}

// carrierAttackers counts, for mayBeSafe, by's carriers reaching sq by a
// two-square step (when no hidden mine may block it), a horse move (when
// no submarine is down) or the aircraft's outline.
func (p *position) carrierAttackers(sq Square, by rules.Side, mines bool, subs int) int {
	n := 0
	a := mk(carrier, by)
	if !mines {
		for _, d := range rules.AllDirs {
			s1 := brd.Next(sq, d)
			if s1 == noSq || p.sq[s1] != 0 || p.mine[s1] != 0 {
				continue
			}
			if s2 := brd.Next(s1, d); s2 != noSq && p.sq[s2] == a {
				n++
			}
		}
	}
	if subs == 0 {
		for _, h := range horseTo[sq] {
			if p.sq[h.from] == a && p.sq[h.a] == 0 && p.sq[h.b] == 0 {
				n++
			}
		}
	}
	for _, t := range outline[sq] {
		if p.sq[t] == a {
			n++
		}
	}
	return n
}

// lineAttackers counts, for mayBeSafe, by's sliders and torpedo boats
// whose line reaches sq (a line across an empty square only when no
// hidden mine may block it).
func (p *position) lineAttackers(sq Square, by rules.Side, mines bool) int {
	n := 0
	rookC, rookT, bishop := mk(cruiser, by), mk(torpedo, by), mk(destroyer, by)
	for _, d := range rules.AllDirs {
		for i, t := range brd.Ray(sq, d) {
			if c := p.sq[t]; c != 0 {
				hit := c == bishop
				if !d.Diagonal() {
					hit = c == rookC || c == rookT
				}
				if hit && (i == 0 || !mines) {
					n++
				}
				break
			}
			if p.mine[t] != 0 {
				break
			}
		}
	}
	for _, d := range rules.Diagonals {
		t := brd.Next(sq, d)
		if t == noSq {
			continue
		}
		if p.torpedoes(t, by, d.Opposite()) {
			n++
		}
		if p.sq[t] != 0 {
			continue
		}
		if t2 := brd.Next(t, d); t2 != noSq && p.torpedoes(t2, by, d.Opposite()) {
			n++
		}
	}
	return n
}

// torpedoes reports whether a loaded torpedo boat of side by on t may shoot
// along diagonal d.
func (p *position) torpedoes(t Square, by rules.Side, d rules.Dir) bool {
	if p.sq[t] != mk(torpedo, by) || p.attr[t]&attrLoaded == 0 {
		return false
	}
	f := facing(p.attr[t])
	return d == (f+1)%8 || d == (f+7)%8
}

// check reports whether side's commando ship is attacked in p, and whether
// a submerged submarine is among the attackers (S5.8).
func (p *position) check(side rules.Side) (inCheck, bySub bool) {
	k := p.king[side]
	if k == noSq {
		return false, false
	}
	if !p.attacked(k, side.Other()) {
		return false, false
	}
	for _, t := range knightTo[k] {
		if p.uw[side.Other()][t] != 0 {
			bySub = true
		}
	}
	return true, bySub
}

// visibleCheck reports whether a piece other than a submerged submarine
// attacks side's commando ship.
func (p *position) visibleCheck(side rules.Side) bool {
	k := p.king[side]
	if k == noSq {
		return false
	}
	q := *p
	q.uw[side.Other()] = [nSq]uint8{}
	return q.attacked(k, side.Other())
}

// pseudo appends the moves the side to move could make in p before any
// test of check (S8.3): the moves of S2–S8, castling where its rights and
// empty squares allow it, never a capture of the commando ship (S8.4).
// Called on what a side knows (pos.project) it depends on nothing hidden
// from that side; called on the full position it is every move the
// referee could accept. inCheck is the referee's announced check, which
// rules castling out (S8.2).
func (p *position) pseudo(out []rules.Move, inCheck bool) []rules.Move {
	x := p.toMove
	if c := p.airborne(x); c != noSq {
		// S7.3: while the aircraft is in flight nothing else moves.
		for _, t := range outline[c] {
			if takeable(p.sq[t], x) {
				out = append(out, mv(mvAirCapture, carrier, c, t))
			}
		}
		return append(out, mv(mvReturn, carrier, c, c))
	}
	for _, s := range brd.Squares() {
		if c := p.sq[s]; c != 0 && c.side() == x {
			switch c.kind() {
			case boat:
				out = p.genBoat(out, s, x)
			case cruiser:
				out = p.slide(out, s, x, cruiser, rules.Orthogonals)
				if p.attr[s]&attrLoaded != 0 && p.mine[s] == 0 {
					out = append(out, mv(mvMine, cruiser, s, s))
				}
			case torpedo:
				out = p.slide(out, s, x, torpedo, rules.Orthogonals)
				out = p.genTorpedo(out, s, x)
			case submarine:
				out = p.genSub(out, s, x)
			case destroyer:
				out = p.slide(out, s, x, destroyer, rules.Diagonals)
			case carrier:
				out = p.genCarrier(out, s, x)
			case commando:
				out = p.genCommando(out, s, x, inCheck)
			}
		}
		if p.uw[x][s] != 0 {
			out = p.genUnder(out, s, x)
		}
	}
	return out
}

// free reports whether a piece of x may end a move on t: no piece of its
// own floats there, nor the enemy commando ship, which is never captured
// (S8.4), and it is not x's own mine (S3.4).
func (p *position) free(t Square, x rules.Side) bool {
	c := p.sq[t]
	return (c == 0 || takeable(c, x)) && !p.ownMine(t, x)
}

// takeable reports whether c is an enemy piece that a piece of x may
// capture: any but the commando ship (S8.4). A commando ship that looks
// capturable is shielded by something its attacker cannot see.
func takeable(c cell, x rules.Side) bool {
	return c.enemy(x) && c.kind() != commando
}

func (p *position) slide(out []rules.Move, s Square, x rules.Side, pc kind, dirs []rules.Dir) []rules.Move {
	for _, d := range dirs {
		for _, t := range brd.Ray(s, d) {
			if p.ownMine(t, x) {
				break // S3.4: never onto or across one's own mine
			}
			c := p.sq[t]
			if c == 0 {
				out = append(out, mv(mvNormal, pc, s, t))
				continue
			}
			if takeable(c, x) {
				out = append(out, mv(mvNormal, pc, s, t))
			}
			break
		}
	}
	return out
}

func (p *position) genBoat(out []rules.Move, s Square, x rules.Side) []rules.Move {
	fwd := forward(x)
	promote := func(out []rules.Move, m rules.Move) []rules.Move {
		if brd.Rank(m.To) != lastRank(x) {
			return append(out, m)
		}
		for _, k := range promotions {
			m.Promo = uint8(k)
			out = append(out, m)
		}
		return out
	}
	if f1 := brd.Next(s, fwd); f1 != noSq {
		if p.sq[f1] == 0 && !p.ownMine(f1, x) {
			out = promote(out, mv(mvNormal, boat, s, f1))
			if brd.Rank(s) == startRank(x) { // S2.1: 2, 3 or 4 squares from the start
				t := f1
				for n := 2; n <= 4; n++ {
					if t = brd.Next(t, fwd); t == noSq || p.sq[t] != 0 || p.ownMine(t, x) {
						break
					}
					out = append(out, mv(mvNormal, boat, s, t))
				}
			}
		}
	} else {
		// S2.5: no square ahead: a sideways step toward the centre.
		var t Square = noSq
		switch brd.File(s) {
		case 0, 1:
			t = brd.Next(s, rules.E)
		case 10, 11:
			t = brd.Next(s, rules.W)
		}
		if t != noSq && p.sq[t] == 0 && !p.ownMine(t, x) {
			out = append(out, mv(mvNormal, boat, s, t))
		}
	}
	var ep Square = noSq
	if p.ep != noSq {
		ep = epTarget(p.ep, x.Other())
	}
	for _, d := range []rules.Dir{(fwd + 1) % 8, (fwd + 7) % 8} {
		t := brd.Next(s, d)
		if t == noSq {
			continue
		}
		if takeable(p.sq[t], x) {
			out = promote(out, mv(mvNormal, boat, s, t))
		} else if t == ep && p.sq[t] == 0 && !p.ownMine(t, x) {
			m := mv(mvEnPassant, boat, s, t)
			m.Aux = p.ep
			out = append(out, m)
		}
	}
	return out
}

func (p *position) genTorpedo(out []rules.Move, s Square, x rules.Side) []rules.Move {
	if p.attr[s]&attrLoaded == 0 {
		return out
	}
	f := facing(p.attr[s])
	for _, d := range []rules.Dir{(f + 7) % 8, (f + 1) % 8} {
		t := brd.Next(s, d)
		if t == noSq {
			continue
		}
		if takeable(p.sq[t], x) {
			out = append(out, mv(mvTorpedo, torpedo, s, t))
			continue
		}
		if p.sq[t] != 0 {
			continue
		}
		if t2 := brd.Next(t, d); t2 != noSq && takeable(p.sq[t2], x) {
			out = append(out, mv(mvTorpedo, torpedo, s, t2))
		}
	}
	return out
}

// diveable reports whether a submarine of x may end an underwater move on t
// (S5.4): not under a destroyer, not onto its own mine or its own other
// submerged submarine.
func (p *position) diveable(t Square, x rules.Side) bool {
	return !p.sq[t].is(destroyer) && !p.ownMine(t, x) && p.uw[x][t] == 0
}

func (p *position) genSub(out []rules.Move, s Square, x rules.Side) []rules.Move {
	for _, t := range knightTo[s] {
		if p.free(t, x) {
			out = append(out, mv(mvNormal, submarine, s, t))
		}
	}
	if endurance(p.attr[s]) >= 1 { // S5.3
		for _, t := range knightTo[s] {
			if p.diveable(t, x) {
				out = append(out, mv(mvSubmerge, submarine, s, t))
			}
		}
	}
	return out
}

func (p *position) genUnder(out []rules.Move, s Square, x rules.Side) []rules.Move {
	for _, t := range knightTo[s] {
		if p.diveable(t, x) {
			out = append(out, mv(mvUnder, submarine, s, t))
		}
		if c := p.sq[t]; takeable(c, x) && c.kind() != destroyer {
			out = append(out, mv(mvSurfaceMove, submarine, s, t))
		}
	}
	// S5.5b: surface in place under an empty square or an enemy piece other
	// than the commando ship; never onto one's own mine (S3.4).
	if c := p.sq[s]; (c == 0 && !p.ownMine(s, x)) || (c.enemy(x) && c.kind() != commando) {
		out = append(out, mv(mvSurfaceHere, submarine, s, s))
	}
	return out
}

func (p *position) genCarrier(out []rules.Move, s Square, x rules.Side) []rules.Move {
	for _, d := range rules.AllDirs {
		s1 := brd.Next(s, d)
		if s1 == noSq || !p.free(s1, x) {
			continue
		}
		out = append(out, mv(mvNormal, carrier, s, s1))
		if p.sq[s1] != 0 {
			continue
		}
		if s2 := brd.Next(s1, d); s2 != noSq && p.free(s2, x) {
			out = append(out, mv(mvNormal, carrier, s, s2))
		}
	}
	for _, h := range horseFrom[s] {
		if p.sq[h.a] == 0 && p.sq[h.b] == 0 && p.free(h.to, x) {
			out = append(out, mv(mvNormal, carrier, s, h.to))
		}
	}
	for _, t := range outline[s] {
		if takeable(p.sq[t], x) {
			out = append(out, mv(mvLaunch, carrier, s, t))
		}
	}
	return out
}

func (p *position) genCommando(out []rules.Move, s Square, x rules.Side, inCheck bool) []rules.Move {
	for _, t := range kingTo[s] {
		if p.free(t, x) {
			out = append(out, mv(mvNormal, commando, s, t))
		}
	}
	if inCheck {
		return out
	}
	for i := range castlings[x] {
		if cs := &castlings[x][i]; p.castleOK(cs, x) {
			m := mv(cs.kind, commando, cs.king, cs.kingTo)
			m.Aux = cs.from
			out = append(out, m)
		}
	}
	return out
}

// castleOK checks the conditions of S8.2 that lie on the board: rights,
// empty squares, and no own mine on either path. Whether the commando
// ship passes or lands on an attacked square is the referee's question
// (pos.castleSafe), which a side's own board may answer wrongly.
func (p *position) castleOK(cs *castling, x rules.Side) bool {
	if p.castle&castleBit(x, cs.partner == torpedo) == 0 || p.sq[cs.king] != mk(commando, x) || p.sq[cs.from] != mk(cs.partner, x) {
		return false
	}
	for _, t := range cs.empty {
		if p.sq[t] != 0 {
			return false
		}
	}
	for _, t := range cs.pass {
		if p.ownMine(t, x) {
			return false
		}
	}
	for _, t := range cs.partnerPath {
		if p.ownMine(t, x) {
			return false
		}
	}
	return true
}
