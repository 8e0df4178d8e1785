// Package transporter implements Transporter Chess (Andrew P. Newton) to
// the rulings T1–T7 (docs/variants/transporter.md): the 84-square board
// with its camps and the transporter squares a3 a8 j3 j8, Black moving
// first, the Admiral, Commodore, Commander, Assistant, First Mate, Advisor,
// Fighter and Super Fighter, the uncapturable Interference that blocks
// every line, transport with the mover's choice of destination, the
// once-in-a-life promotion chain, and the end: checkmate, no legal move and
// a bare Admiral all lose.
//
// Moves are rules.Move values: Piece and Promo hold the kind codes of T2,
// Kind is 1 for a capture, and Aux is the transporter square the piece is
// carried to (NoSquare when it is not carried). A transport with two free
// destinations is two moves. Positions are written in the notation of
// StartPosition, which Options.Position (the CLI's --fen) accepts.
package transporter

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

type variant struct{}

// Variant is Transporter Chess, for the registry.
var Variant rules.Variant = variant{}

// ID is "transporter".
func (variant) ID() string { return "transporter" }

// Name is the display name.
func (variant) Name() string { return "Transporter Chess" }

// Sides are White (side 0, bottom) and Black (side 1, top, moving first).
func (variant) Sides() [2]string { return sideNames }

// Rulesets has the one ruleset of T1–T7.
func (variant) Rulesets() []string { return []string{"standard"} }

// Board is the 84-square board (T1.1).
func (variant) Board() *rules.Board { return board }

// Hidden is false: both sides see everything.
func (variant) Hidden() bool { return false }

// Help is the players' guide quoted by the help mail.
func (variant) Help() string { return help }

// Unmarshal decodes a state written by State.MarshalBinary.
func (variant) Unmarshal(data []byte) (rules.State, error) {
	s, err := unmarshal(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// New starts a game from the standard position (T1.3) or from
// opt.Position.
func (variant) New(opt rules.Options) (rules.State, error) {
	if opt.Ruleset != "" && opt.Ruleset != "standard" {
		return nil, lang.Fail("transporter", "unknown ruleset %q (there is only \"standard\")", opt.Ruleset)
	}
	text := opt.Position
	if text == "" {
		text = StartPosition
	}
	p, clock, ply, err := parsePosition(text)
	if err != nil {
		return nil, err
	}
	return newState("standard", p, clock, ply, []uint64{p.hash}), nil
}

const help = `Transporter Chess: checkmate the enemy Admiral. Black moves first.
The board has 84 squares; your camp is your first two ranks (T1).
Pieces (T2), White upper case, Black lower case on the board:
 A Admiral: a king, or two squares straight over an empty square
 C Commodore: moves as a bishop; captures only along ranks and
   files, jumping exactly one piece (a cannon)
 R Commander: a rook          B Assistant: a bishop
 M First Mate: one square any way, but not capturing sideways
 D Advisor: a king, or two squares diagonally over an empty square
 F Fighter: one square diagonally forward, two on its first move;
   captures one square straight forward
 S Super Fighter: one square diagonally any way; captures one
   square left, right or forward
 I Interference: moves to any empty square of its own rank. It is
   never captured and blocks every piece and every check (T3).
Transporters a3 a8 j3 j8 (T4): a piece ending its move there goes at
once to a free transporter square on the same file or rank (never
back where it started); you choose if both are free, it stays if
neither is. Write the square reached after "@": Rd3-a3@a8. If only
one is free you may leave it out.
Promotion (T5), compulsory, once in a piece's life, on arriving in
the enemy camp: F becomes S, S becomes M, M becomes D: Fc8-d9=S.
End (T6): checkmate wins; a side with no legal move loses (there is
no stalemate); a side left with only its Admiral (and Interference)
loses. Draw after 50 moves each without capture or Fighter move,
or on threefold repetition.
Notation (T7): Rd1-d7, Cd4xd8, Fb2-c3, Id5-h5, Rd3-a3@a8, Fc8-d9=S.
Case, spaces, "-" and "x" are optional; Ra3@a8 works when only one
Commander can go there.
`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(help)
