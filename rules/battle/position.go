package battle

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// StartPosition is the set-up of C1.4 in the position notation New accepts.
const StartPosition = "gcmbhmcg/sssstsss/2ssssssss2/12/12/12/12/12/12/2SSSSSSSS2/SSSSTSSS/GCMBHMCG w 0 1"

// position is the placement of the pieces and the counters that a position
// string carries. It is a plain value: copying it is how a move is made.
type position struct {
	cells [boardSize]uint8 // 0 empty, else type | side<<3
	side  rules.Side       // to move
	hq    [2]rules.Square  // where each headquarter stands
	hash  uint64           // Zobrist key of cells and side
	quiet int              // plies since the last capture, shot or soldier move (C5)
	move  int              // the full-move number, from 1
}

func (p *position) put(sq rules.Square, c uint8) {
	p.cells[sq] = c
	p.hash ^= zobrist[c][sq]
}

func (p *position) remove(sq rules.Square) {
	p.hash ^= zobrist[p.cells[sq]][sq]
	p.cells[sq] = 0
}

// ply is the number of plies since move 1 with White to move.
func (p *position) ply() int { return 2*(p.move-1) + int(p.side) }

// computeHash recomputes the Zobrist key from scratch.
func (p *position) computeHash() uint64 {
	var h uint64
	for _, sq := range board.Squares() {
		if c := p.cells[sq]; c != 0 {
			h ^= zobrist[c][sq]
		}
	}
	if p.side == rules.Black {
		h ^= zRed
	}
	return h
}

// play makes m, which must be a legal move of p, and returns the result; it
// also reports whether material changed (a capture, a shot or an arrival at
// the far end), which ends the span in which positions can repeat.
func (p *position) play(m rules.Move) (n position, material bool) {
	n = *p
	me := p.side
	if m.Kind == kindShot {
		n.remove(m.To) // C3.1: the shooter stays
		n.quiet = 0
		material = true
	} else {
		c := n.cells[m.From]
		n.remove(m.From)
		if n.cells[m.To] != 0 {
			n.remove(m.To)
			material = true
		}
		n.put(m.To, c)
		switch typeOf(c) {
		case pHQ:
			n.hq[me] = m.To
		case pSoldier:
			if board.Rank(m.To) == farRank[me] { // C4
				n.remove(m.To)
				if m.Aux != rules.NoSquare {
					n.remove(m.Aux)
				}
				material = true
			}
		}
		if material || typeOf(c) == pSoldier {
			n.quiet = 0
		} else {
			n.quiet++
		}
	}
	if me == rules.Black {
		n.move++
	}
	n.side = me.Other()
	n.hash ^= zRed
	return n, material
}

// parsePosition reads a position string: the ranks from 12 down to 1
// separated by "/", each listing its existing squares from left to right
// (8 squares on ranks 1, 2, 11 and 12; 12 on the others) with a piece
// letter (White upper case, Red lower case) or a count of empty squares;
// then "w" or "r" for the side to move; then, optionally, the plies since
// the last capture, shot or soldier move (C5) and the full-move number.
func parsePosition(text string) (position, error) {
	var p position
	fields := strings.Fields(text)
	if len(fields) < 2 || len(fields) > 4 {
		return p, fmt.Errorf("battle: position %q: want the board, the side to move (w or r) and optionally two counters", text)
	}
	var count [2][numTypes]int
	err := placement.Parse(fields[0], func(sq rules.Square, tok string) error {
		ch := tok[0]
		t := pieceType(ch)
		if len(tok) != 1 || t == pNone {
			return fmt.Errorf("%s: %q is not a piece letter (H B T G M C S, Red in lower case)", board.Name(sq), tok)
		}
		side := rules.White
		if ch >= 'a' {
			side = rules.Black
		}
		p.cells[sq] = cell(t, side)
		count[side][t]++
		if t == pHQ {
			p.hq[side] = sq
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("battle: position: %w", err)
	}
	sideNames := Variant.Sides()
	for s := range 2 {
		for t := pHQ; t < numTypes; t++ {
			if count[s][t] > limits[t] {
				return p, fmt.Errorf("battle: position: %s has %d %ss, at most %d (C1.4)", sideNames[s], count[s][t], pieceNames[t], limits[t])
			}
		}
		if count[s][pHQ] != 1 {
			return p, fmt.Errorf("battle: position: %s needs exactly one headquarter (C2)", sideNames[s])
		}
	}
	for _, sq := range board.Squares() {
		if c := p.cells[sq]; typeOf(c) == pSoldier && board.Rank(sq) == farRank[sideOf(c)] {
			return p, fmt.Errorf("battle: position: %s's soldier on %s stands on the far end, where it would have left the board (C4)", sideNames[sideOf(c)], board.Name(sq))
		}
	}
	switch fields[1] {
	case "w", "W":
		p.side = rules.White
	case "r", "R":
		p.side = rules.Black
	default:
		return p, fmt.Errorf("battle: position: side to move %q, want w (White) or r (Red)", fields[1])
	}
	p.move = 1
	if len(fields) >= 3 {
		n, err := strconv.Atoi(fields[2])
		if err != nil || n < 0 || n > 100 {
			return p, fmt.Errorf("battle: position: %q plies without capture, shot or soldier move: want 0 to 100 (C5)", fields[2])
		}
		p.quiet = n
	}
	if len(fields) == 4 {
		n, err := strconv.Atoi(fields[3])
		if err != nil || n < 1 || n > 1_000_000 {
			return p, fmt.Errorf("battle: position: move number %q: want a whole number from 1", fields[3])
		}
		p.move = n
	}
	p.hash = p.computeHash()
	if a := p.attacker(p.hq[p.side.Other()], p.side); a != rules.NoSquare {
		return p, fmt.Errorf("battle: position: %s is to move but %s's headquarter on %s is already attacked from %s", sideNames[p.side], sideNames[p.side.Other()], board.Name(p.hq[p.side.Other()]), board.Name(a))
	}
	return p, nil
}

// placement is the board field of position strings: the existing squares
// of each rank, holes not written.
var placement = rules.Placement{Board: board}

// String writes the position in the notation parsePosition reads.
func (p *position) String() string {
	b := make([]byte, 0, 96)
	b = append(b, placement.Format(func(sq rules.Square) string {
		if p.cells[sq] == 0 {
			return ""
		}
		return string(letterOf(p.cells[sq]))
	})...)
	if p.side == rules.Black {
		b = append(b, " r "...)
	} else {
		b = append(b, " w "...)
	}
	b = strconv.AppendInt(b, int64(p.quiet), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.move), 10)
	return string(b)
}

// pieceType reads a piece letter of either case (pNone if it is none).
func pieceType(ch byte) uint8 {
	if !(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z') {
		return pNone
	}
	if i := strings.IndexByte(letters[1:], ch&^0x20); i >= 0 {
		return uint8(i + 1)
	}
	return pNone
}

// letterOf is a cell's letter: upper case for White, lower case for Red.
func letterOf(c uint8) byte {
	l := letters[typeOf(c)]
	if sideOf(c) == rules.Black {
		l |= 0x20
	}
	return l
}
