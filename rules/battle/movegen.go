package battle

import (
	"github.com/bottlepost/bottlepost/rules"
)

// Ranges of fire (C3.2, C3.3).
const (
	gunRange  = 5
	mgunRange = 3
)

// mv builds a move or capture by moving.
func mv(t uint8, from, to rules.Square) rules.Move {
	return rules.Move{From: from, To: to, Aux: rules.NoSquare, Piece: t, Kind: kindMove}
}

// shot builds a shot (C3).
func shot(t uint8, from, to rules.Square) rules.Move {
	return rules.Move{From: from, To: to, Aux: rules.NoSquare, Piece: t, Kind: kindShot}
}

// capturable reports whether a piece of type t may take the cell c by moving
// onto it: c is an enemy piece and, if a tank, t is not one of the pieces the
// tank is immune to (C2).
func capturable(t uint8, c uint8, me rules.Side) bool {
	if c == 0 || sideOf(c) == me {
		return false
	}
	return typeOf(c) != pTank || (t != pCavalry && t != pSoldier)
}

// pseudo appends every move of the side to move that obeys the pieces' moves
// (C2, C3, C4), whether or not it leaves its own headquarter attacked.
func (p *position) pseudo(out []rules.Move) []rules.Move {
	me := p.side
	for _, from := range board.Squares() {
		c := p.cells[from]
		if c == 0 || sideOf(c) != me {
			continue
		}
		out = p.pieceMoves(out, from)
	}
	return out
}

// pieceMoves appends the moves of the piece of the side to move on from.
func (p *position) pieceMoves(out []rules.Move, from rules.Square) []rules.Move {
	me := p.side
	t := typeOf(p.cells[from])
	switch t {
	case pHQ:
		for _, to := range adjacent[from] {
			if c := p.cells[to]; c == 0 || sideOf(c) != me {
				out = append(out, mv(t, from, to))
			}
		}
	case pBomber:
		out = p.bomberMoves(out, from)
	case pTank:
		for _, d := range rules.Orthogonals {
			to := board.Next(from, d)
			if to == rules.NoSquare {
				continue
			}
			if c := p.cells[to]; c != 0 {
				if sideOf(c) != me {
					out = append(out, mv(t, from, to))
				}
				continue
			}
			out = append(out, mv(t, from, to))
			if to2 := board.Next(to, d); to2 != rules.NoSquare {
				if c := p.cells[to2]; c == 0 || sideOf(c) != me {
					out = append(out, mv(t, from, to2))
				}
			}
		}
	case pGun, pMGun:
		out = p.gunMoves(out, from, t)
	case pCavalry:
		for _, to := range leaps[from] {
			if c := p.cells[to]; c == 0 || capturable(t, c, me) {
				out = append(out, mv(t, from, to))
			}
		}
	case pSoldier:
		out = p.soldierMoves(out, from)
	}
	return out
}

// bomberMoves appends the bomber's moves: C2's queen that may pass over
// one friendly piece per slide, never an enemy; a missing square ends the
// slide (C1.5: the ray does).
func (p *position) bomberMoves(out []rules.Move, from rules.Square) []rules.Move {
	me, t := p.side, uint8(pBomber)
	for _, d := range rules.AllDirs {
		jumped := false
		for _, to := range board.Ray(from, d) {
			c := p.cells[to]
			if c == 0 {
				out = append(out, mv(t, from, to))
				continue
			}
			if sideOf(c) != me {
				out = append(out, mv(t, from, to))
				break
			}
			if jumped {
				break
			}
			jumped = true
		}
	}
	return out
}

// gunMoves appends a gun's or machine-gun's (t) steps and shots (C2, C3).
func (p *position) gunMoves(out []rules.Move, from rules.Square, t uint8) []rules.Move {
	me := p.side
	for _, to := range adjacent[from] {
		if p.cells[to] == 0 {
			out = append(out, mv(t, from, to))
		}
	}
	dirs, reach := forward[me], gunRange
	if t == pMGun {
		dirs, reach = rules.AllDirs, mgunRange
	}
	for _, d := range dirs {
		ray := board.Ray(from, d)
		for i := 0; i < len(ray) && i < reach; i++ {
			c := p.cells[ray[i]]
			if c == 0 {
				continue
			}
			if sideOf(c) != me && (t == pGun || typeOf(c) != pTank) {
				out = append(out, shot(t, from, ray[i]))
			}
			break
		}
	}
	return out
}

// soldierMoves appends a soldier's steps, captures and two-square moves
// from a light square (C1.2, C2, C4).
func (p *position) soldierMoves(out []rules.Move, from rules.Square) []rules.Move {
	me, t := p.side, uint8(pSoldier)
	for _, d := range rules.AllDirs {
		to := board.Next(from, d)
		if to == rules.NoSquare {
			continue
		}
		c := p.cells[to]
		if c == 0 || (isForward[me][d] && capturable(t, c, me)) {
			out = p.soldierMove(out, from, to)
		}
	}
	if light[from] {
		for _, d := range rules.AllDirs {
			mid := board.Next(from, d)
			if mid == rules.NoSquare || p.cells[mid] != 0 {
				continue
			}
			if to := board.Next(mid, d); to != rules.NoSquare && p.cells[to] == 0 {
				out = p.soldierMove(out, from, to)
			}
		}
	}
	return out
}

// soldierMove appends a soldier's move to to; arriving at the far end it
// appends one move per opposing piece its owner may remove (C4), or one
// move without a removal when the opponent has nothing but the
// headquarter.
func (p *position) soldierMove(out []rules.Move, from, to rules.Square) []rules.Move {
	me := p.side
	m := mv(pSoldier, from, to)
	if board.Rank(to) != farRank[me] {
		return append(out, m)
	}
	n := len(out)
	for _, sq := range board.Squares() {
		c := p.cells[sq]
		if c != 0 && sideOf(c) != me && typeOf(c) != pHQ && sq != to {
			m.Aux = sq
			out = append(out, m)
		}
	}
	if len(out) == n {
		out = append(out, m)
	}
	return out
}

// legal appends the moves of the side to move that leave its headquarter
// unattacked once the whole move is made (shots and removals included).
func (p *position) legal(out []rules.Move) []rules.Move {
	var buf [256]rules.Move
	checked := p.inCheck()
	for _, m := range p.pseudo(buf[:0]) {
		if p.allows(m, checked) {
			out = append(out, m)
		}
	}
	return out
}

// allows reports whether the pseudo-legal move m leaves the mover's
// headquarter unattacked; checked says whether it is attacked now.
//
// Unless the headquarter moves or is in check, a move can only expose it by
// emptying a square on one of its lines: the moving piece's square, a shot
// piece's, the square a soldier arrives on and leaves, or the removed
// piece's (C4). Adding a piece of the mover's only blocks lines (it is an
// enemy to every attacker), and leaps and adjacent attacks have no lines.
// Other moves are legal without playing them.
func (p *position) allows(m rules.Move, checked bool) bool {
	if !checked && m.Piece != pHQ {
		hq := p.hq[p.side]
		exposed := m.Aux != rules.NoSquare && aligned[hq][m.Aux]
		if m.Kind == kindShot {
			exposed = exposed || aligned[hq][m.To]
		} else {
			exposed = exposed || aligned[hq][m.From] ||
				(m.Piece == pSoldier && board.Rank(m.To) == farRank[p.side] && aligned[hq][m.To])
		}
		if !exposed {
			return true
		}
	}
	n, _ := p.play(m)
	return n.attacker(n.hq[p.side], n.side) == rules.NoSquare
}

// countLegal counts the legal moves without keeping them.
func (p *position) countLegal() int {
	var buf [256]rules.Move
	checked := p.inCheck()
	n := 0
	for _, m := range p.pseudo(buf[:0]) {
		if p.allows(m, checked) {
			n++
		}
	}
	return n
}

// inCheck reports whether the side to move's headquarter is attacked.
func (p *position) inCheck() bool {
	return p.attacker(p.hq[p.side], p.side.Other()) != rules.NoSquare
}

// attacker returns a square from which a piece of side by attacks target
// (could take it by moving or shoot it), or NoSquare. Shots count (C3.4).
// It is used for headquarters, so the tank's immunity plays no part.
func (p *position) attacker(target rules.Square, by rules.Side) rules.Square {
	hq, soldier, cav, tank := cell(pHQ, by), cell(pSoldier, by), cell(pCavalry, by), cell(pTank, by)
	gun, mgun, bomber := cell(pGun, by), cell(pMGun, by), cell(pBomber, by)
	for _, d := range rules.AllDirs {
		s := board.Next(target, d)
		if s == rules.NoSquare {
			continue
		}
		switch p.cells[s] {
		case hq:
			return s
		case soldier:
			// The soldier on s steps towards target, direction d.Opposite().
			if isForward[by][d.Opposite()] {
				return s
			}
		}
	}
	for _, s := range leaps[target] {
		if p.cells[s] == cav {
			return s
		}
	}
	for _, d := range rules.Orthogonals {
		s := board.Next(target, d)
		if s == rules.NoSquare {
			continue
		}
		if c := p.cells[s]; c == tank {
			return s
		} else if c == 0 {
			if s2 := board.Next(s, d); s2 != rules.NoSquare && p.cells[s2] == tank {
				return s2
			}
		}
	}
	for _, d := range rules.AllDirs {
		passed := 0 // pieces of side by between target and here
		for i, s := range board.Ray(target, d) {
			c := p.cells[s]
			if c == 0 {
				continue
			}
			if c == bomber {
				return s
			}
			if passed == 0 {
				if c == mgun && i < mgunRange {
					return s
				}
				if c == gun && i < gunRange && isForward[by][d.Opposite()] {
					return s
				}
			}
			if sideOf(c) != by {
				break // the bomber never passes over an enemy piece
			}
			passed++
			if passed > 1 {
				break
			}
		}
	}
	return rules.NoSquare
}
