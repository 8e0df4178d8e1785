package baltic

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// View is the same for every viewer (nothing is hidden); Black's board is
// turned 180° by the renderer. A cell shows the top disc's owner (upper
// case White, lower case Black), its animal and the stack's height when it
// is more than 1: "G", "s", "C2".
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	for _, sq := range board.Squares() {
		c := s.cells[sq]
		view.Cells[sq] = c.text()
		switch {
		case c.empty():
		case c.height() == 1:
			view.Put(sq, rules.Piece{Side: c.owner(), Kind: animalName[c.animal()]})
		default: // B3: a stack of two, the covered disc the other side's
			view.Put(sq, rules.Piece{Side: c.owner(), Kind: animalName[c.animal()]},
				rules.Piece{Side: c.owner().Other(), Kind: animalName[c.under()]})
		}
	}
	view.Stacked = true
	view.Kinds = kinds
	switch s.rs {
	case holdorf:
		view.Say(lang.Msg("Points: White %d, Black %d (3 points win, B4.4).", s.points[0], s.points[1]))
		view.Say(lang.Msg("Pieces: White %d, Black %d (a single piece left loses, B4.4).", s.count[0], s.count[1]))
	case sc2022:
		if s.outcome.Over() {
			// The server's round number: (moves + 1) / 2.
			view.Say(lang.Msg("Rules sc2022: ended in round %d of %d (B5).", (s.ply+1)/2, sc2022Rounds))
		} else {
			view.Say(lang.Msg("Rules sc2022: round %d of %d (B5).", s.round(), sc2022Rounds))
		}
		view.Say(lang.Msg("Points: White %d, Black %d (2 end the game after the round, B5).", s.points[0], s.points[1]))
		if s.start == startShuffled {
			view.Say(lang.Msg("Home ranks shuffled from seed %d (B5).", s.seed))
		}
	}
	if s.first != rules.White {
		view.Say(lang.Msg("%s moved first (B1).", rules.Word(sideName(s.first))))
	}
	view.Legend = lang.Keys(
		"C cockle  S starfish  L seal  G gull (B2); upper case White, lower",
		"case Black: the owner of the top disc, who moves the whole stack.",
		"A digit is the stack's height: C2 = 2 discs, White cockle on top (B3).",
	)
	return view
}

// kinds are the animals in the order of B2, for the piece list.
var kinds = []string{"cockle", "starfish", "seal", "gull"}

const helpText = `Baltic Sea Chess (rulings B1-B6)

Aim: score 3 victory points, or leave your opponent a single piece
(B4.4). White starts on ranks 1-2, Black on ranks 7-8 (B4.5).

Pieces (B2), moving one square unless said otherwise:
  C cockle   diagonally forward
  S starfish forward, or diagonally in any of the four directions
  L seal     a knight's leap, jumping over anything
  G gull     left, right, forward or back
Upper case letters are White's, lower case Black's.

Stacks (B3): move onto an opposing piece and you go on top; the stack
is now yours and moves by the animal on top ("S2" = a stack of 2
discs, a White starfish on top). Never onto your own piece, never
a stack of 4, and a stack is never split.

Points (B4): a stack of exactly 3 scores 1 point, and so does any
piece reaching the far rank (both at once: still 1). The piece that
scored leaves the board. No legal move on your turn loses.

Ruleset sc2022 (B5, --rules sc2022): the Software Challenge 2022
form: 8 pieces shuffled on the home rank from the game's seed; any
stack of 3 or more scores; seals do not score on the far rank; both
at once score 2; the game ends after a full round in which someone
has 2 points, or after round 30; then more points win, and on a tie
the light pieces (not seals) further from home win.

Notation (B6): b1-c2 onto an empty square, b1xc2 onto an opposing
piece; the record adds the points: d7-d8+1, c7xd8+2. You may also
write b1c2 or "b1 c2".`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(helpText)
