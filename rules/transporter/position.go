package transporter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Piece codes: a kind in the low four bits, the owner in blackBit, and two
// flags that belong to the piece's life rather than to its kind.
const (
	empty uint8 = iota
	admiral
	commodore
	commander
	assistant
	mate
	advisor
	fighter
	superFighter
	interference
	numKinds
)

const (
	kindMask    uint8 = 0x0F
	blackBit    uint8 = 0x10 // owned by side 1 (Black)
	promotedBit uint8 = 0x20 // T5: this piece has promoted once and never promotes again
	freshBit    uint8 = 0x40 // T2: a Fighter that has never moved (may make the two-step)
	numCodes          = 0x80
)

// letters are the piece letters of T2, indexed by kind.
const letters = "?ACRBMDFSI"

var _ = lang.Keys("Admiral", "Commodore", "Commander", "Assistant", "First Mate", "Advisor", "Fighter", "Super Fighter", "Interference")

var kindNames = [numKinds]string{"", "Admiral", "Commodore", "Commander", "Assistant",
	"First Mate", "Advisor", "Fighter", "Super Fighter", "Interference"}

// promotesTo is the T5 chain: Fighter → Super Fighter → First Mate → Advisor.
var promotesTo = [numKinds]uint8{fighter: superFighter, superFighter: mate, mate: advisor}

func kindOf(c uint8) uint8 { return c & kindMask }

func sideOf(c uint8) rules.Side { return rules.Side(c >> 4 & 1) }

func sideBit(s rules.Side) uint8 { return uint8(s) << 4 }

// kindByLetter reads a piece letter, either case.
func kindByLetter(b byte) uint8 {
	i := strings.IndexByte(letters, b&^0x20)
	if i <= 0 || b|0x20 < 'a' || b|0x20 > 'z' {
		return empty
	}
	return uint8(i)
}

func article(name string) string {
	if strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// StartPosition is the standard start (T1.3) in the position notation
// accepted by Options.Position: the ranks from 10 down to 1, each listing
// only its existing squares from the lowest file (ranks 1 and 10: d–g,
// ranks 2 and 9: b–i, others a–j), White upper case and Black lower case,
// a number for a run of empty squares; then the side to move ("w" or "b"),
// optionally the half-moves since the last capture or Fighter move (T6) and
// the ply count. A Fighter written "F'" has moved and lost its two-step; a
// piece written with "+" ("S+", "M+", "D+") has promoted once (T5).
const StartPosition = "racr/fdmbbmdf/2fsffsf2/10/6i3/3I6/10/2FSFFSF2/FDMBBMDF/RCAR b 0 0"

// position is the placement of the pieces and the side to move: the part of
// a state that make/unmake changes. Every field is a value, so a copy is
// independent.
type position struct {
	cells   [boardSize]uint8
	toMove  rules.Side
	admiral [2]rules.Square // each side's Admiral
	men     [2]int          // pieces other than the Admiral and Interference (T6 bare Admiral)
	hash    uint64
}

// bare reports whether side s is reduced to its Admiral and Interference (T6).
func (p *position) bare(s rules.Side) bool { return p.men[s] == 0 }

// computeHash is the Zobrist key of the placement and side to move, from
// scratch.
func (p *position) computeHash() uint64 {
	var h uint64
	for _, sq := range squares {
		if c := p.cells[sq]; c != empty {
			h ^= zobrist[c][sq]
		}
	}
	if p.toMove == rules.Black {
		h ^= zobristBlack
	}
	return h
}

// placement is the board field of position strings: the existing squares
// of each rank (T1.1), a piece's letter followed by ' (a Fighter that has
// moved) or + (promoted).
var placement = rules.Placement{Board: board, Marks: "'+"}

// parsePosition reads the notation of StartPosition. It validates
// everything a position must satisfy to be played from; clock and ply come
// back separately.
func parsePosition(text string) (p position, clock, ply int, err error) {
	fields := strings.Fields(text)
	if len(fields) < 2 || len(fields) > 4 {
		return p, 0, 0, fmt.Errorf("transporter: a position is the ranks, the side to move and optionally the half-move clock and the ply (e.g. %q)", StartPosition)
	}
	err = placement.Parse(fields[0], func(sq rules.Square, tok string) error {
		ch := tok[0]
		kind := kindByLetter(ch)
		if kind == empty {
			return fmt.Errorf("%s: %q is not a piece letter (A C R B M D F S I, T2)", board.Name(sq), tok)
		}
		c := kind
		if ch >= 'a' {
			c |= blackBit
		}
		moved := false
		for _, m := range []byte(tok[1:]) {
			switch {
			case m == '\'' && kind == fighter && !moved:
				moved = true
			case m == '+' && (kind == superFighter || kind == mate || kind == advisor) && c&promotedBit == 0:
				c |= promotedBit
			default:
				return fmt.Errorf("%s: %q cannot follow %c (\"'\" marks a Fighter that has moved, \"+\" a promoted S, M or D)", board.Name(sq), m, ch)
			}
		}
		if kind == fighter && !moved {
			c |= freshBit // written plain: it has never moved
		}
		p.cells[sq] = c
		return nil
	})
	if err != nil {
		return p, 0, 0, fmt.Errorf("transporter: %w (T1.1, T2)", err)
	}
	switch fields[1] {
	case "w", "W":
		p.toMove = rules.White
	case "b", "B":
		p.toMove = rules.Black
	default:
		return p, 0, 0, fmt.Errorf("transporter: side to move %q: want w or b", fields[1])
	}
	if len(fields) > 2 {
		clock, err = strconv.Atoi(fields[2])
		if err != nil || clock < 0 || clock > drawClock {
			return p, 0, 0, fmt.Errorf("transporter: half-move clock %q: want a number from 0 to %d (T6)", fields[2], drawClock)
		}
	}
	if len(fields) > 3 {
		ply, err = strconv.Atoi(fields[3])
		if err != nil || ply < 0 || ply > 1_000_000 {
			return p, 0, 0, fmt.Errorf("transporter: ply %q: want a whole number", fields[3])
		}
	}
	if err := p.index(); err != nil {
		return p, 0, 0, err
	}
	if p.bare(rules.White) && p.bare(rules.Black) {
		return p, 0, 0, fmt.Errorf("transporter: both sides are bare Admirals (T6)")
	}
	if p.attacked(p.admiral[p.toMove.Other()], p.toMove) {
		return p, 0, 0, fmt.Errorf("transporter: the side not to move is in check")
	}
	return p, clock, ply, nil
}

// index fills the derived fields (Admirals, piece counts, hash) and checks
// the piece counts and placements a game can reach.
func (p *position) index() error {
	var count [2][numKinds]int
	var promoted [2][numKinds]int
	p.men = [2]int{}
	p.admiral = [2]rules.Square{rules.NoSquare, rules.NoSquare}
	for sq := range p.cells {
		c := p.cells[sq]
		if c == empty {
			continue
		}
		if !exists[sq] {
			return fmt.Errorf("transporter: a piece on a missing square")
		}
		k, s := kindOf(c), sideOf(c)
		if k == empty || k >= numKinds || c&^(kindMask|blackBit|promotedBit|freshBit) != 0 ||
			(c&freshBit != 0 && k != fighter) || (c&promotedBit != 0 && k != superFighter && k != mate && k != advisor) {
			return fmt.Errorf("transporter: bad piece code %#x on %s", c, board.Name(rules.Square(sq)))
		}
		if c&promotedBit != 0 {
			promoted[s][k]++
		} else {
			count[s][k]++
		}
		switch k {
		case admiral:
			p.admiral[s] = rules.Square(sq)
		case interference:
			if transporterSq[sq] {
				return fmt.Errorf("transporter: an Interference cannot stand on the transporter square %s (T3)", board.Name(rules.Square(sq)))
			}
		default:
			p.men[s]++
		}
	}
	for s := range 2 {
		side := [2]string{"White", "Black"}[s]
		c, pr := count[s], promoted[s]
		switch {
		case c[admiral] != 1:
			return fmt.Errorf("transporter: %s has %d Admirals, want 1 (T2)", side, c[admiral])
		case c[interference] > 1:
			return fmt.Errorf("transporter: %s has %d Interferences, at most 1 (T3)", side, c[interference])
		case c[commodore] > 1 || c[commander] > 2 || c[assistant] > 2 || c[advisor] > 2:
			return fmt.Errorf("transporter: %s has more Commodores, Commanders, Assistants or Advisors than the set (T1.3)", side)
		case c[fighter]+pr[superFighter] > 6 || c[superFighter]+pr[mate] > 2 || c[mate]+pr[advisor] > 2:
			return fmt.Errorf("transporter: %s has more Fighters, Super Fighters or First Mates (with the pieces promoted from them, T5) than the set (T1.3)", side)
		}
	}
	p.hash = p.computeHash()
	return nil
}

// format writes the position in the notation of StartPosition.
func (p *position) format(clock, ply int) string {
	var b strings.Builder
	b.WriteString(placement.Format(func(sq rules.Square) string {
		c := p.cells[sq]
		if c == empty {
			return ""
		}
		if kindOf(c) == fighter && c&freshBit == 0 {
			return pieceText(c) + "'"
		}
		return pieceText(c)
	}))
	side := "w"
	if p.toMove == rules.Black {
		side = "b"
	}
	fmt.Fprintf(&b, " %s %d %d", side, clock, ply)
	return b.String()
}

// pieceText is a piece as boards show it: its letter, upper case for White,
// lower case for Black, "+" when promoted.
func pieceText(c uint8) string {
	l := letters[kindOf(c)]
	if sideOf(c) == rules.Black {
		l |= 0x20
	}
	if c&promotedBit != 0 {
		return string(l) + "+"
	}
	return string(l)
}

// splitmix64 is a fixed generator for the Zobrist keys: the same keys in
// every run, because hashes are part of the serialised state.
func splitmix64(x *uint64) uint64 {
	*x += 0x9E3779B97F4A7C15
	z := *x
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}
