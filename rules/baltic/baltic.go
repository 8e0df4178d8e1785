// Package baltic is Baltic Sea Chess (Dirk Holdorf's board game, rulings
// B1–B6, see docs/variants/baltic.md): cockles, starfish, seals and gulls on
// a plain 8×8 board (B1, B2), stacks that belong to their top disc and move by
// its animal, never split (B3), and victory points for stacks of three and for
// reaching the far rank (B4).
//
// Two rulesets share the engine: "holdorf", the board game (B4, the
// default), and "sc2022", the German Software Challenge 2022 server's form
// (B5): a shuffled home rank drawn from Options.Seed, two points, thirty
// rounds and a tie-break on the light pieces' progress.
//
// A state is a small value (64 one-byte cells and a few counters): Apply
// copies it, and perft runs on the same arrays without allocating.
package baltic

import (
	"fmt"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// The animals (B2). The values are the Move.Piece codes.
const (
	Cockle   uint8 = 1 // C: one square diagonally forward
	Starfish uint8 = 2 // S: one square forward or diagonally
	Seal     uint8 = 3 // L: a knight's leap
	Gull     uint8 = 4 // G: one square left, right, forward or back
)

// Move kinds (Move.Kind).
const (
	KindStep uint8 = 0 // onto an empty square: "b1-c2"
	KindOnto uint8 = 1 // onto an opposing piece: "b1xc2" (B3.2)
)

// The rulesets.
const (
	RulesHoldorf = "holdorf" // the board game (B4), the default
	RulesSC2022  = "sc2022"  // Software Challenge 2022 (B5)
)

type ruleset uint8

const (
	holdorf ruleset = iota
	sc2022
)

func (r ruleset) String() string {
	if r == sc2022 {
		return RulesSC2022
	}
	return RulesHoldorf
}

func parseRuleset(name string) (ruleset, error) {
	switch name {
	case "", RulesHoldorf:
		return holdorf, nil
	case RulesSC2022:
		return sc2022, nil
	}
	return 0, lang.Fail("baltic", "unknown ruleset %q (want %s or %s)", name, RulesHoldorf, RulesSC2022)
}

// Limits of each ruleset.
const (
	holdorfTarget = 3  // B4.4: 3 points win
	sc2022Target  = 2  // B5: 2 points end the game after the round
	sc2022Rounds  = 30 // B5: the game ends after round 30
	maxHeight     = 2  // a stack of 3 or more always leaves the board (B4.1, B5)
)

// pieceCount is how many discs of each animal a side has at the start (index
// by animal; [0] is the total): B4.5 for holdorf, B5 for sc2022.
var pieceCount = [2][5]int{
	holdorf: {9, 2, 3, 2, 2},
	sc2022:  {8, 2, 2, 2, 2},
}

var board = rules.BalticBoard

// animalLetter gives the White (upper-case) letter of an animal (B2).
var animalLetter = [5]byte{0, 'C', 'S', 'L', 'G'}

var animalName = [5]string{"", "cockle", "starfish", "seal", "gull"}

var _ = lang.Keys("cockle", "starfish", "seal", "gull")

func animalOf(letter byte) uint8 {
	switch letter | 0x20 {
	case 'c':
		return Cockle
	case 's':
		return Starfish
	case 'l':
		return Seal
	case 'g':
		return Gull
	}
	return 0
}

// light reports whether an animal is a light piece of sc2022 (B5): every
// animal but the seal (the server's PieceType.isLight).
func light(a uint8) bool { return a != Seal }

// cell is one square: height in bits 0–1 (0 = empty), the owner of the top
// disc in bit 2, the top animal in bits 3–5, and in a stack of two the
// animal of the covered disc in bits 8–10 (0 when it is not known: a stack
// of a position string or a stored state from before it was kept). The
// covered disc is always the other side's (B3.2: only onto an opposing
// piece) and never moves or scores on its own (B3.1); it is kept for the
// piece list, so that a player can hear what a stack is made of.
type cell uint16

func mkCell(owner rules.Side, animal uint8, height int) cell {
	return cell(height) | cell(owner)<<2 | cell(animal)<<3
}

// underMask holds the covered disc's animal.
const underMask cell = 7 << 8

func (c cell) height() int               { return int(c & 3) }
func (c cell) owner() rules.Side         { return rules.Side(c>>2) & 1 }
func (c cell) animal() uint8             { return uint8(c>>3) & 7 }
func (c cell) under() uint8              { return uint8(c>>8) & 7 }
func (c cell) withUnder(a uint8) cell    { return c&^underMask | cell(a)<<8 }
func (c cell) empty() bool               { return c&3 == 0 }
func (c cell) ownedBy(s rules.Side) bool { return !c.empty() && c.owner() == s }

// text is the cell as boards and position strings show it: the letter of
// the top animal, upper case for White and lower case for Black, followed by
// the height when it is more than 1 ("G2", "s").
func (c cell) text() string {
	if c.empty() {
		return ""
	}
	l := animalLetter[c.animal()]
	if c.owner() == rules.Black {
		l |= 0x20
	}
	if c.height() > 1 {
		return string(l) + fmt.Sprint(c.height())
	}
	return string(l)
}

// targets[side][animal][sq] lists the squares a lone disc of that animal
// may reach from sq (B2), forward being up the board for White, down for
// Black (B1). Computed once.
var targets [2][5][64][]rules.Square

// homeRank is each side's home rank (B1), zero-based; the opponent's is the
// one to reach (B4.2).
var homeRank = [2]int{0, 7}

func init() {
	for side := range 2 {
		fwd := 1
		if side == 1 {
			fwd = -1
		}
		deltas := [5][][2]int{
			Cockle:   {{-1, fwd}, {1, fwd}},
			Starfish: {{0, fwd}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
			Seal:     {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}},
			Gull:     {{0, 1}, {1, 0}, {0, -1}, {-1, 0}},
		}
		for a := Cockle; a <= Gull; a++ {
			for _, sq := range board.Squares() {
				var list []rules.Square
				for _, d := range deltas[a] {
					if t := board.Offset(sq, d[0], d[1]); t != rules.NoSquare {
						list = append(list, t)
					}
				}
				targets[side][a][sq] = list
			}
		}
	}
}

// Variant is Baltic Sea Chess, registered as "baltic".
var Variant rules.Variant = variant{}

type variant struct{}

func (variant) ID() string          { return "baltic" }
func (variant) Name() string        { return "Baltic Sea Chess" }
func (variant) Sides() [2]string    { return [2]string{"White", "Black"} }
func (variant) Rulesets() []string  { return []string{RulesHoldorf, RulesSC2022} }
func (variant) Board() *rules.Board { return board }
func (variant) Hidden() bool        { return false }
func (variant) Help() string        { return helpText }
func (variant) New(opt rules.Options) (rules.State, error) {
	rs, err := parseRuleset(opt.Ruleset)
	if err != nil {
		return nil, err
	}
	s, err := newState(rs, opt.Position, opt.Seed)
	if err != nil {
		return nil, err
	}
	return s, nil
}
func (variant) Unmarshal(data []byte) (rules.State, error) { return unmarshal(data) }
