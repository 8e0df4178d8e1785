package seachess

import (
	"github.com/bottlepost/bottlepost/rules"
)

// kind is a piece type; the codes double as rules.Move.Piece and Promo.
type kind uint8

// The piece kinds (S2–S8).
const (
	noPiece   kind = iota
	boat           // B, S2
	cruiser        // C, S3
	torpedo        // T, S4
	submarine      // S, S5
	destroyer      // D, S6
	carrier        // A, S7
	commando       // K, S8
)

const letters = "?BCTSDAK"

var kindNames = [...]string{"", "boat", "cruiser", "torpedo boat", "submarine", "destroyer", "aircraft carrier", "commando ship"}

// promotions are the pieces a boat may become (S2.4), in notation order.
var promotions = []kind{cruiser, torpedo, submarine, destroyer, carrier}

func (k kind) letter() string { return letters[k : k+1] }
func (k kind) String() string { return kindNames[k] }

// cell is what floats on a square: 0 for nothing, else a kind in bits 0–2
// and the side in bit 3.
type cell uint8

func mk(k kind, side rules.Side) cell { return cell(k) | cell(side)<<3 }

func (c cell) kind() kind       { return kind(c & 7) }
func (c cell) side() rules.Side { return rules.Side(c >> 3 & 1) }
func (c cell) is(k kind) bool   { return c != 0 && c.kind() == k }
func (c cell) enemy(x rules.Side) bool {
	return c != 0 && c.side() != x
}

// letter is the piece letter as boards show it: White upper case, Black
// lower case.
func (c cell) letter() string {
	l := c.kind().letter()
	if c.side() == rules.Black {
		return string(l[0] | 0x20)
	}
	return l
}

// Per-piece attributes (pos.attr), travelling with the piece.
const (
	attrLoaded   = 1 // cruiser: a mine aboard (S3.2); torpedo boat: a torpedo (S4.3)
	attrAirborne = 1 // carrier: its aircraft is in flight (S7.3)
	facingShift  = 1 // torpedo boat: bits 1–2 give its forward direction, 0 N, 1 E, 2 S, 3 W (S4.2)
	vMax         = 8 // submarine: V is counted up to 8, beyond which N stays 4 (S5.3)
)

// fresh returns the attributes of a piece at the start or just promoted
// (S2.4): loaded, facing the enemy, V = 0, its aircraft aboard.
func fresh(k kind, side rules.Side) uint8 {
	switch k {
	case cruiser:
		return attrLoaded
	case torpedo:
		f := uint8(0) // N
		if side == rules.Black {
			f = 2 // S
		}
		return attrLoaded | f<<facingShift
	}
	return 0
}

// facing is a torpedo boat's forward direction (S4.2).
func facing(attr uint8) rules.Dir { return rules.Dir((attr >> facingShift & 3) * 2) }

func withFacing(attr uint8, d rules.Dir) uint8 {
	return attr&^(3<<facingShift) | uint8(d/2)<<facingShift
}

// endurance is N = min(floor(V/2), 4) (S5.3).
func endurance(v uint8) uint8 { return min(v/2, 4) }

// mineOf is the value pos.mine holds for side's mines.
func mineOf(side rules.Side) uint8 { return uint8(side) + 1 }

// Castling rights bits (S8.2).
const (
	castleWT = 1 << iota // White O-O, with the torpedo boat
	castleWC             // White O-O-O, with the cruiser
	castleBT
	castleBC
)

func castleBit(side rules.Side, withTorpedo bool) uint8 {
	b := uint8(castleWT)
	if !withTorpedo {
		b = castleWC
	}
	return b << (2 * side)
}

// position is the referee's full position: everything the rules need, as
// plain arrays so that a copy is a move's scratch space.
type position struct {
	sq   [nSq]cell  // what floats on each square
	attr [nSq]uint8 // the attributes of that piece
	mine [nSq]uint8 // 0, or mineOf(owner) (S3)
	// uw[side][sq] is 0, or 1 + the number of further turns of its owner a
	// submerged submarine of side stays down (S5.3, S5.6).
	uw     [2][nSq]uint8
	toMove rules.Side
	castle uint8
	ep     Square // a boat that has just made a multi-square first move (S2.3), or noSq
	clock  int    // plies without a removal or a boat move (S9)
	ply    int
	king   [2]Square // each commando ship's square, noSq once lost (S3.5)
	nuw    [2]uint8  // the number of submerged submarines of each side
	// veiled[side] is a public fact: side has made a hidden move that
	// changed nothing on the public board (a mine or an underwater move),
	// so its opponent must allow for its mines from then on (S8.3). It
	// never turns off, and is not part of S9's position.
	veiled [2]bool
	gone   int // scratch: pieces removed by the move being resolved
}

func (p *position) ownMine(sq Square, x rules.Side) bool { return p.mine[sq] == mineOf(x) }

// place puts a piece with its attributes on sq.
func (p *position) place(sq Square, c cell, attr uint8) {
	p.sq[sq], p.attr[sq] = c, attr
	if c.is(commando) {
		p.king[c.side()] = sq
	}
}

// lift takes the piece off sq and returns it.
func (p *position) lift(sq Square) (cell, uint8) {
	c, a := p.sq[sq], p.attr[sq]
	p.sq[sq], p.attr[sq] = 0, 0
	return c, a
}

// airborne returns the carrier of side whose aircraft is in flight, or noSq.
func (p *position) airborne(side rules.Side) Square {
	for _, s := range brd.Squares() {
		if p.sq[s] == mk(carrier, side) && p.attr[s]&attrAirborne != 0 {
			return s
		}
	}
	return noSq
}

// project returns the position as side x knows it: the opponent's mines
// and submerged submarines removed (S10.3). Everything x's move list is
// computed from comes from here.
func (p *position) project(x rules.Side) position {
	q := *p
	y := x.Other()
	theirs := mineOf(y)
	for _, s := range brd.Squares() {
		if q.mine[s] == theirs {
			q.mine[s] = 0
		}
	}
	q.uw[y] = [nSq]uint8{}
	q.nuw[y] = 0
	return q
}
