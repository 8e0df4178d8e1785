package transporter

import (
	"github.com/bottlepost/bottlepost/rules"
)

// board is the 84-square board (T1.1), with its transporter squares and
// camps as marks.
var board = rules.TransporterBoard

const boardSize = 100 // the 10×10 grid

// Tables precomputed once from the board's data.
var (
	squares       = board.Squares()
	exists        [boardSize]bool
	step          [rules.NumDirs][boardSize]rules.Square // one step, NoSquare off the board
	rays          [rules.NumDirs][boardSize][]rules.Square
	rankSquares   [10][]rules.Square // existing squares of each rank, by file
	transporterSq [boardSize]bool
	// opposite lists, for a transporter square, the two transporter squares
	// orthogonally opposite it: the one on its file, then the one on its rank
	// (T4.1).
	opposite [boardSize][2]rules.Square
	// enemyCamp[s][sq] is whether sq lies in the camp of side s's opponent
	// (T1.1, T5).
	enemyCamp    [2][boardSize]bool
	zobrist      [numCodes][boardSize]uint64
	zobristBlack uint64
	forward      = [2]rules.Dir{rules.N, rules.S} // towards the enemy camp
)

func init() {
	for _, sq := range squares {
		exists[sq] = true
		rankSquares[board.Rank(sq)] = append(rankSquares[board.Rank(sq)], sq)
		transporterSq[sq] = board.Has(sq, rules.MarkTransporter)
		enemyCamp[rules.White][sq] = board.Has(sq, rules.MarkCampBlack)
		enemyCamp[rules.Black][sq] = board.Has(sq, rules.MarkCampWhite)
		for d := range rules.Dir(rules.NumDirs) {
			rays[d][sq] = board.Ray(sq, d)
		}
	}
	for d := range rules.Dir(rules.NumDirs) {
		for sq := range boardSize {
			step[d][sq] = rules.NoSquare
			if exists[sq] {
				step[d][sq] = board.Next(rules.Square(sq), d)
			}
		}
	}
	ts := board.Marked(rules.MarkTransporter)
	for _, t := range ts {
		opposite[t] = [2]rules.Square{rules.NoSquare, rules.NoSquare}
		for _, u := range ts {
			switch {
			case u == t:
			case board.File(u) == board.File(t):
				opposite[t][0] = u
			case board.Rank(u) == board.Rank(t):
				opposite[t][1] = u
			}
		}
	}
	seed := uint64(0x7472616e73706f72) // "transpor"
	for c := range numCodes {
		for sq := range boardSize {
			zobrist[c][sq] = splitmix64(&seed)
		}
	}
	zobristBlack = splitmix64(&seed)
}

// Move kinds.
const (
	quiet   uint8 = 0
	capture uint8 = 1
)

// capturable reports whether code c is a piece side s may capture: an enemy
// piece other than an Interference (T3).
func capturable(c uint8, s rules.Side) bool {
	return c != empty && sideOf(c) != s && kindOf(c) != interference
}

// add appends the move of the piece pc from → to, expanding a landing on a
// transporter square into one move per free destination (T4.1) and adding
// the compulsory promotion (T5).
func (p *position) add(out []rules.Move, pc uint8, from, to rules.Square, kind uint8) []rules.Move {
	m := rules.Move{From: from, To: to, Aux: rules.NoSquare, Piece: kindOf(pc), Kind: kind}
	if transporterSq[to] {
		n := len(out)
		for _, d := range opposite[to] {
			if d != rules.NoSquare && d != from && p.cells[d] == empty {
				m.Aux = d
				out = append(out, m)
			}
		}
		if len(out) == n {
			m.Aux = rules.NoSquare // T4.1: neither is free, the piece stays
			out = append(out, m)
		}
		return out // transporter squares lie outside the camps: no promotion
	}
	if pc&promotedBit == 0 && enemyCamp[sideOf(pc)][to] {
		m.Promo = promotesTo[kindOf(pc)]
	}
	return append(out, m)
}

// target adds a move to `to` if it is empty (quiet) or holds a capturable
// piece and capturing is allowed; it reports whether `to` was empty.
func (p *position) target(out []rules.Move, pc uint8, from, to rules.Square, canCapture bool) ([]rules.Move, bool) {
	c := p.cells[to]
	if c == empty {
		return p.add(out, pc, from, to, quiet), true
	}
	if canCapture && capturable(c, sideOf(pc)) {
		out = p.add(out, pc, from, to, capture)
	}
	return out, false
}

// pieceMoves appends the pseudo-legal moves of the piece on from (T2, T3).
func (p *position) pieceMoves(out []rules.Move, from rules.Square) []rules.Move {
	pc := p.cells[from]
	s := sideOf(pc)
	switch kindOf(pc) {
	case admiral, advisor:
		twoStepDiag := kindOf(pc) == advisor
		for d := range rules.Dir(rules.NumDirs) {
			t := step[d][from]
			if t == rules.NoSquare {
				continue
			}
			var free bool
			out, free = p.target(out, pc, from, t, true)
			if free && d.Diagonal() == twoStepDiag {
				if t2 := step[d][t]; t2 != rules.NoSquare {
					out, _ = p.target(out, pc, from, t2, true)
				}
			}
		}
	case mate:
		for d := range rules.Dir(rules.NumDirs) {
			if t := step[d][from]; t != rules.NoSquare {
				out, _ = p.target(out, pc, from, t, d != rules.E && d != rules.W)
			}
		}
	case commander, assistant:
		dirs := rules.Orthogonals
		if kindOf(pc) == assistant {
			dirs = rules.Diagonals
		}
		for _, d := range dirs {
			for _, t := range rays[d][from] {
				var free bool
				if out, free = p.target(out, pc, from, t, true); !free {
					break
				}
			}
		}
	case commodore:
		out = p.commodoreMoves(out, pc, from)
	case fighter:
		out = p.fighterMoves(out, pc, from)
	case superFighter:
		for _, d := range rules.Diagonals {
			if t := step[d][from]; t != rules.NoSquare && p.cells[t] == empty {
				out = p.add(out, pc, from, t, quiet)
			}
		}
		for _, d := range [3]rules.Dir{rules.W, rules.E, forward[s]} {
			if t := step[d][from]; t != rules.NoSquare && capturable(p.cells[t], s) {
				out = p.add(out, pc, from, t, capture)
			}
		}
	case interference:
		for _, t := range rankSquares[board.Rank(from)] {
			if p.cells[t] == empty && !transporterSq[t] {
				out = p.add(out, pc, from, t, quiet)
			}
		}
	}
	return out
}

// commodoreMoves appends the Commodore's moves: a bishop's slides to empty
// squares, and captures along ranks and files by jumping exactly one piece
// that is not an Interference (T2, T3).
func (p *position) commodoreMoves(out []rules.Move, pc uint8, from rules.Square) []rules.Move {
	s := sideOf(pc)
	for _, d := range rules.Diagonals {
		for _, t := range rays[d][from] {
			if p.cells[t] != empty {
				break
			}
			out = p.add(out, pc, from, t, quiet)
		}
	}
	for _, d := range rules.Orthogonals {
		ray := rays[d][from]
		i := 0
		for i < len(ray) && p.cells[ray[i]] == empty {
			i++
		}
		if i == len(ray) || kindOf(p.cells[ray[i]]) == interference {
			continue // no screen, or an Interference, which is no screen (T3)
		}
		for i++; i < len(ray) && p.cells[ray[i]] == empty; i++ {
		}
		if i < len(ray) && capturable(p.cells[ray[i]], s) {
			out = p.add(out, pc, from, ray[i], capture)
		}
	}
	return out
}

// fighterMoves appends a Fighter's moves: diagonally forward to an empty
// square (two from its start), capturing straight forward (T2).
func (p *position) fighterMoves(out []rules.Move, pc uint8, from rules.Square) []rules.Move {
	s := sideOf(pc)
	fw := forward[s]
	for _, d := range [2]rules.Dir{(fw + 7) % 8, fw + 1} {
		t := step[d][from]
		if t == rules.NoSquare || p.cells[t] != empty {
			continue
		}
		out = p.add(out, pc, from, t, quiet)
		if pc&freshBit != 0 {
			if t2 := step[d][t]; t2 != rules.NoSquare && p.cells[t2] == empty {
				out = p.add(out, pc, from, t2, quiet)
			}
		}
	}
	if t := step[fw][from]; t != rules.NoSquare && capturable(p.cells[t], s) {
		out = p.add(out, pc, from, t, capture)
	}
	return out
}

// pseudo appends every pseudo-legal move of the side to move.
func (p *position) pseudo(out []rules.Move) []rules.Move {
	bit := sideBit(p.toMove)
	for _, sq := range squares {
		if c := p.cells[sq]; c != empty && c&blackBit == bit {
			out = p.pieceMoves(out, sq)
		}
	}
	return out
}

// attacked reports whether side by could capture a piece standing on sq:
// the check test (T4.3). Interferences block every line (T3) and never
// attack.
func (p *position) attacked(sq rules.Square, by rules.Side) bool {
	bit := sideBit(by)
	fw := forward[by]
	for d := range rules.Dir(rules.NumDirs) {
		ray := rays[d][sq]
		i := 0
		for i < len(ray) && p.cells[ray[i]] == empty {
			i++
		}
		if i == len(ray) {
			continue
		}
		c := p.cells[ray[i]]
		k := kindOf(c)
		if k == interference {
			continue
		}
		if c&blackBit == bit {
			// The attacker stands i+1 squares away in direction d and
			// captures towards d.Opposite().
			switch k {
			case commander:
				if !d.Diagonal() {
					return true
				}
			case assistant:
				if d.Diagonal() {
					return true
				}
			case admiral:
				if i == 0 || (i == 1 && !d.Diagonal()) {
					return true
				}
			case advisor:
				if i == 0 || (i == 1 && d.Diagonal()) {
					return true
				}
			case mate:
				if i == 0 && d != rules.E && d != rules.W {
					return true
				}
			case fighter:
				if i == 0 && d.Opposite() == fw {
					return true
				}
			case superFighter:
				if i == 0 && (d == rules.E || d == rules.W || d.Opposite() == fw) {
					return true
				}
			}
		}
		if d.Diagonal() {
			continue
		}
		// The piece found is a screen: a Commodore beyond it captures (T2).
		for i++; i < len(ray) && p.cells[ray[i]] == empty; i++ {
		}
		if i < len(ray) && p.cells[ray[i]] == commodore|bit {
			return true
		}
	}
	return false
}

// inCheck reports whether the side to move's Admiral is attacked.
func (p *position) inCheck() bool {
	return p.attacked(p.admiral[p.toMove], p.toMove.Other())
}

// undo is what unmake needs besides the move.
type undo struct{ moved, captured uint8 }

// final is the square a move's piece ends on: its transporter destination
// if it was carried, else where it landed.
func final(m rules.Move) rules.Square {
	if m.Aux != rules.NoSquare {
		return m.Aux
	}
	return m.To
}

// make plays a pseudo-legal move.
func (p *position) make(m rules.Move) undo {
	pc, cap := p.cells[m.From], p.cells[m.To]
	s := sideOf(pc)
	np := pc &^ freshBit
	if m.Promo != 0 {
		np = m.Promo | pc&blackBit | promotedBit
	}
	dest := final(m)
	p.cells[m.From] = empty
	p.cells[m.To] = empty
	p.cells[dest] = np
	p.hash ^= zobrist[pc][m.From] ^ zobrist[np][dest] ^ zobristBlack
	if cap != empty {
		p.hash ^= zobrist[cap][m.To]
		p.men[s.Other()]--
	}
	if kindOf(pc) == admiral {
		p.admiral[s] = dest
	}
	p.toMove = s.Other()
	return undo{pc, cap}
}

// unmake takes back a move made with make.
func (p *position) unmake(m rules.Move, u undo) {
	s := sideOf(u.moved)
	dest := final(m)
	np := p.cells[dest]
	p.cells[dest] = empty
	p.cells[m.To] = u.captured
	p.cells[m.From] = u.moved
	p.hash ^= zobrist[u.moved][m.From] ^ zobrist[np][dest] ^ zobristBlack
	if u.captured != empty {
		p.hash ^= zobrist[u.captured][m.To]
		p.men[s.Other()]++
	}
	if kindOf(u.moved) == admiral {
		p.admiral[s] = m.From
	}
	p.toMove = s
}

// legal appends the legal moves: those whose final position, after any
// transport, leaves the mover's Admiral out of check (T4.3).
func (p *position) legal(out []rules.Move) []rules.Move {
	start := len(out)
	out = p.pseudo(out)
	keep := out[:start]
	me := p.toMove
	for _, m := range out[start:] {
		u := p.make(m)
		if !p.attacked(p.admiral[me], me.Other()) {
			keep = append(keep, m)
		}
		p.unmake(m, u)
	}
	return keep
}

// resets reports whether a move restarts the T6 draw count: a capture or a
// Fighter move.
func resets(m rules.Move) bool { return m.Kind == capture || m.Piece == fighter }
