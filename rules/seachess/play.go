package seachess

import (
	"github.com/bottlepost/bottlepost/rules"
)

// How a submarine came up without moving itself.
const (
	byDestroyer = iota + 1 // S6.2: forced by an enemy destroyer
	byTime                 // S5.6: its endurance ran out
)

// surfacing is a submarine coming up on its own square, not by its own
// move: forced by a destroyer (S6.2) or automatically (S5.6).
type surfacing struct {
	sq       Square
	side     rules.Side // the submarine's owner
	cause    int
	captured cell // the piece above it that it captured, if any
	lost     bool // under a commando ship: the submarine is lost
	mine     bool // it came up onto a mine and was destroyed with it
	mineBy   rules.Side
}

// strike is a piece destroyed by a mine it moved onto (S3.3, S3.4).
type strike struct {
	sq    Square
	piece cell
	owner rules.Side // the mine's owner
}

// capture is a piece taken off the board by a move.
type capture struct {
	sq    Square
	piece cell
}

// effects records what a move did, for the record and the notices (S10).
type effects struct {
	captures []capture   // pieces captured by the moving piece, torpedo or aircraft
	strikes  []strike    // moving pieces destroyed by mines
	subTaken []capture   // submerged submarines captured by a destroyer (S6.1)
	forced   []surfacing // S6.2
	auto     []surfacing // S5.6, at the start of the opponent's turn
	reloadM  Square      // a cruiser reloaded there (S3.2), or noSq
	reloadT  Square      // a torpedo boat reloaded there (S4.3), or noSq
	airLost  []rules.Side
}

// remove takes the piece on sq off the board as a capture.
func (p *position) remove(sq Square, fx *effects) cell {
	c, a := p.lift(sq)
	if c == 0 {
		return 0
	}
	p.gone++
	if c.is(commando) {
		p.king[c.side()] = noSq
	}
	if c.is(carrier) && a&attrAirborne != 0 && fx != nil {
		fx.airLost = append(fx.airLost, c.side()) // S7.3
	}
	return c
}

// arrive ends a piece's travel on t: it captures the enemy piece floating
// there, a destroyer also a submerged enemy submarine (S6.1), and a mine
// destroys it (S3.3). It reports whether the piece survived.
func (p *position) arrive(t Square, c cell, attr uint8, fx *effects) bool {
	x := c.side()
	if p.sq[t] != 0 {
		if v := p.remove(t, fx); fx != nil {
			fx.captures = append(fx.captures, capture{t, v})
		}
	}
	if c.is(destroyer) && p.uw[x.Other()][t] != 0 {
		p.uw[x.Other()][t] = 0
		p.nuw[x.Other()]--
		p.gone++
		if fx != nil {
			fx.subTaken = append(fx.subTaken, capture{t, mk(submarine, x.Other())})
		}
	}
	if m := p.mine[t]; m != 0 {
		p.mine[t] = 0
		p.gone++
		if c.is(commando) {
			p.king[x] = noSq // S3.5
		}
		if fx != nil {
			fx.strikes = append(fx.strikes, strike{t, c, rules.Side(m - 1)})
		}
		return false
	}
	p.place(t, c, attr)
	return true
}

// travel moves a lifted piece from `from` toward `to`: along a line it
// stops on the first mine (S3.4); a leap only meets its landing square. It
// returns the square where it ended and whether it survived.
func (p *position) travel(from, to Square, c cell, attr uint8, fx *effects) (Square, bool) {
	if d, ok := lineDir(from, to); ok {
		for t := brd.Next(from, d); t != noSq; t = brd.Next(t, d) {
			if t == to || p.mine[t] != 0 {
				return t, p.arrive(t, c, attr, fx)
			}
		}
	}
	return to, p.arrive(to, c, attr, fx)
}

// surface brings the submerged submarine of side on sq up (S5.6, S6.2): the
// piece above is captured whatever its colour, except a commando ship,
// under which the submarine is lost; a mine there destroys it.
func (p *position) surface(sq Square, side rules.Side, cause int, fx *effects) surfacing {
	p.uw[side][sq] = 0
	p.nuw[side]--
	sf := surfacing{sq: sq, side: side, cause: cause}
	above := p.sq[sq]
	if above.is(commando) {
		sf.lost = true
		p.gone++
		return sf
	}
	if above != 0 {
		sf.captured = above
		p.remove(sq, fx)
	}
	if m := p.mine[sq]; m != 0 {
		sf.mine, sf.mineBy = true, rules.Side(m-1)
		p.mine[sq] = 0
		p.gone++
		return sf
	}
	p.place(sq, mk(submarine, side), 0)
	return sf
}

// resolve plays m for the side to move on p, with everything p holds:
// called on the full position it is the referee's judgement, on a side's
// projection it is what that side foresees. It ends with the start of the
// opponent's turn (S5.6). fx may be nil.
func (p *position) resolve(m rules.Move, fx *effects) { p.play(m, fx, true) }

// play is resolve; without book it skips what cannot change whether the
// mover's commando ship is in check (the submarines' counts, castling
// rights, the clock), for the check test of pos.legal.
func (p *position) play(m rules.Move, fx *effects, book bool) {
	x := p.toMove
	y := x.Other()
	p.gone = 0
	p.ep = noSq
	boatMoved := false

	// S5.3: N is fixed when the submarine dives, from the turns it was
	// visible before this one; then every visible submarine of x counts
	// this turn.
	var dive uint8
	if m.Kind == mvSubmerge {
		dive = endurance(p.attr[m.From])
	}
	if book {
		for _, s := range brd.Squares() {
			if p.sq[s] == mk(submarine, x) && p.attr[s] < vMax {
				p.attr[s]++
			}
		}
	}

	switch m.Kind {
	case mvNormal, mvEnPassant:
		// (Inline: this is perft's most frequent move, and a call here costs it.)
		c, a := p.lift(m.From)
		if m.Kind == mvEnPassant {
			if v := p.remove(m.Aux, fx); fx != nil {
				fx.captures = append(fx.captures, capture{m.Aux, v})
			}
		}
		boatMoved = c.is(boat)
		if c.is(torpedo) {
			if d, ok := lineDir(m.From, m.To); ok {
				a = withFacing(a, d)
			}
		}
		end, alive := p.travel(m.From, m.To, c, a, fx)
		if alive {
			if boatMoved && m.Promo != 0 && brd.Rank(end) == lastRank(x) {
				// S2.4: the new piece is fresh. A new destroyer has ended its
				// move on its square: it takes a submerged enemy there (S6.1).
				p.place(end, mk(kind(m.Promo), x), fresh(kind(m.Promo), x))
				if kind(m.Promo) == destroyer && p.uw[y][end] != 0 {
					p.uw[y][end] = 0
					p.nuw[y]--
					p.gone++
					if fx != nil {
						fx.subTaken = append(fx.subTaken, capture{end, mk(submarine, y)})
					}
				}
			}
			p.reload(end, fx)
			if c.is(boat) && rules.Abs(brd.Rank(end)-brd.Rank(m.From)) >= 2 {
				p.ep = end
			}
		}
	case mvCastleT, mvCastleC:
		p.playCastle(m, fx)
	case mvMine:
		p.mine[m.From] = mineOf(x)
		p.attr[m.From] &^= attrLoaded
	case mvTorpedo:
		if v := p.remove(m.To, fx); fx != nil {
			fx.captures = append(fx.captures, capture{m.To, v})
		}
		p.attr[m.From] &^= attrLoaded
	case mvSubmerge, mvUnder:
		p.playUnder(m, dive, fx)
	case mvSurfaceMove, mvSurfaceHere:
		p.uw[x][m.From] = 0
		p.nuw[x]--
		p.arrive(m.To, mk(submarine, x), 0, fx) // S5.5: V starts again from 0
	case mvLaunch, mvAirCapture:
		if v := p.remove(m.To, fx); fx != nil {
			fx.captures = append(fx.captures, capture{m.To, v})
		}
		p.attr[m.From] |= attrAirborne
	case mvReturn:
		p.attr[m.From] &^= attrAirborne
	}

	if p.nuw[0]+p.nuw[1] != 0 {
		p.forceSurfacing(fx)
	}

	p.toMove = y
	p.ply++

	if p.nuw[y] != 0 {
		p.surfaceInTime(fx)
	}
	if p.ep != noSq && p.sq[p.ep] != mk(boat, x) {
		p.ep = noSq // the boat was taken by a surfacing submarine
	}
	if !book {
		return
	}
	if m.Kind == mvMine || m.Kind == mvUnder {
		p.veiled[x] = true
	}
	p.updateCastling()
	if p.gone > 0 || boatMoved {
		p.clock = 0
	} else {
		p.clock++
	}
}

// playCastle plays castling: the commando ship first, then its partner
// (S3.5, S8.2).
func (p *position) playCastle(m rules.Move, fx *effects) {
	cs := castlingOf(p.toMove, m.Kind)
	k, ka := p.lift(cs.king)
	pc, pa := p.lift(cs.from)
	p.travel(cs.king, cs.kingTo, k, ka, fx) // S3.5: the commando ship first
	if pc.is(torpedo) {
		pa = withFacing(pa, rules.W) // S4.2: castling is a move along the rank
	}
	if end, alive := p.travel(cs.from, cs.to, pc, pa, fx); alive {
		p.reload(end, fx)
	}
}

// playUnder plays a dive or a move under water (S5.3, S5.4): dive is the
// endurance a diving submarine starts with.
func (p *position) playUnder(m rules.Move, dive uint8, fx *effects) {
	x := p.toMove
	var left uint8
	if m.Kind == mvSubmerge {
		p.lift(m.From)
		p.nuw[x]++
		left = dive // 1 + further turns: the diving turn is the first of N
	} else {
		left = p.uw[x][m.From]
		p.uw[x][m.From] = 0
	}
	if mn := p.mine[m.To]; mn != 0 { // S5.4: onto an enemy mine
		p.mine[m.To] = 0
		p.nuw[x]--
		p.gone += 2
		if fx != nil {
			fx.strikes = append(fx.strikes, strike{m.To, mk(submarine, x), rules.Side(mn - 1)})
		}
	} else {
		p.uw[x][m.To] = left
	}
}

// forceSurfacing brings up every submerged submarine next to an enemy
// destroyer (S6.2). Only a destroyer that has just ended its move or a
// submarine that has just ended its own can make this true, so one sweep
// applies the rule.
func (p *position) forceSurfacing(fx *effects) {
	for _, s := range brd.Squares() {
		if p.nuw[0]+p.nuw[1] == 0 {
			break
		}
		for side := rules.White; side <= rules.Black; side++ {
			if p.uw[side][s] == 0 {
				continue
			}
			for _, t := range orthAdj[s] {
				if p.sq[t] == mk(destroyer, side.Other()) {
					sf := p.surface(s, side, byDestroyer, fx)
					if fx != nil {
						fx.forced = append(fx.forced, sf)
					}
					break
				}
			}
		}
	}
}

// surfaceInTime is the start of the side to move's turn: its submarines
// whose time is up surface (S5.6).
func (p *position) surfaceInTime(fx *effects) {
	y := p.toMove
	for _, s := range brd.Squares() {
		if p.nuw[y] == 0 {
			break
		}
		switch p.uw[y][s] {
		case 0:
		case 1:
			sf := p.surface(s, y, byTime, fx)
			if fx != nil {
				fx.auto = append(fx.auto, sf)
			}
		default:
			p.uw[y][s]--
		}
	}
}

// reload refills a cruiser or torpedo boat that ended a move in its own
// haven (S3.2, S4.3).
func (p *position) reload(sq Square, fx *effects) {
	c := p.sq[sq]
	if (!c.is(cruiser) && !c.is(torpedo)) || !haven(sq, c.side()) || p.attr[sq]&attrLoaded != 0 {
		return
	}
	p.attr[sq] |= attrLoaded
	if fx != nil {
		if c.is(cruiser) {
			fx.reloadM = sq
		} else {
			fx.reloadT = sq
		}
	}
}

// updateCastling drops the rights of pieces no longer on their home
// squares (S8.2): a right, once lost, never comes back.
func (p *position) updateCastling() {
	for side := rules.White; side <= rules.Black; side++ {
		for i := range castlings[side] {
			cs := &castlings[side][i]
			if p.sq[cs.king] != mk(commando, side) || p.sq[cs.from] != mk(cs.partner, side) {
				p.castle &^= castleBit(side, cs.partner == torpedo)
			}
		}
	}
}

// judge plays m on a copy of p and reports whether it stands: the commando
// ship of the mover must not be, or stay, in check after the move, its
// effects and the surfacing at the start of the opponent's turn (S8.3); a
// castling commando ship must not start in check nor pass or land on an
// attacked square (S8.2). A commando ship lost to a mine is not a refusal:
// the move stands and loses (S3.5). inCheck is the mover's check status in p.
func (p *position) judge(m rules.Move, inCheck bool, fx *effects) (position, bool) {
	if !p.castleSafe(m, inCheck) {
		return position{}, false
	}
	q := *p
	q.resolve(m, fx)
	if k := q.king[p.toMove]; k != noSq && q.attacked(k, p.toMove.Other()) {
		return position{}, false
	}
	return q, true
}

// legal is judge's verdict alone.
func (p *position) legal(m rules.Move, inCheck bool) bool {
	if !p.castleSafe(m, inCheck) {
		return false
	}
	q := *p
	q.play(m, nil, false)
	k := q.king[p.toMove]
	return k == noSq || !q.attacked(k, p.toMove.Other())
}

// castleSafe checks S8.2's conditions on check before castling: not in
// check, no attacked square passed or landed on.
func (p *position) castleSafe(m rules.Move, inCheck bool) bool {
	if m.Kind != mvCastleT && m.Kind != mvCastleC {
		return true
	}
	if inCheck {
		return false
	}
	for _, t := range castlingOf(p.toMove, m.Kind).pass {
		if p.attacked(t, p.toMove.Other()) {
			return false
		}
	}
	return true
}
