package chess

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// View is the board as viewer v sees it. Chess hides nothing, so every
// viewer sees the same cells; Black's board is turned by the renderer.
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	for sq := range 64 {
		side, typ := s.pos.pieceAt(sq)
		if typ == 0 {
			continue
		}
		c := pieceLetters[typ : typ+1]
		if side == black {
			c = strings.ToLower(c)
		}
		view.Cells[sq] = c
		view.Put(rules.Square(sq), rules.Piece{Side: rules.Side(side), Kind: pieceNames[typ]})
	}
	view.Kinds = kinds
	if s.last != "" {
		view.Say(lang.Msg("Last move: %s.", s.numberedLast()))
	}
	if !s.out.Over() && s.pos.inCheck() {
		view.Say(lang.Msg("%s is in check (FIDE 3.9.1).", rules.Word(Variant.Sides()[s.pos.side])))
	}
	if !s.out.Over() && s.pos.half >= 80 {
		view.Say(lang.Msg("%d moves each without a capture or pawn move: the game is drawn at 50 (FIDE 9.3).", s.pos.half/2))
	}
	if !s.out.Over() && s.repetitions() == 2 {
		view.Say(lang.Msg("This position has stood on the board twice: a third time draws (FIDE 9.2)."))
	}
	view.Status = append(view.Status, "FEN: "+s.pos.fen())
	view.Legend = lang.Keys(
		"K king, Q queen, R rook, B bishop, N knight, P pawn.",
		"Upper case: White's pieces; lower case: Black's; \".\": an empty square.",
	)
	return view
}

// kinds are chess's pieces in the order of a piece list.
var kinds = []string{"king", "queen", "rook", "bishop", "knight", "pawn"}

// numberedLast is the last move with its number: "1. e4" or "1... e5".
func (s *State) numberedLast() string {
	if s.pos.side == black {
		return fmt.Sprintf("%d. %s", s.pos.full, s.last)
	}
	return fmt.Sprintf("%d... %s", s.pos.full-1, s.last)
}

const help = `Chess: the FIDE Laws of Chess.

Aim: checkmate the opposing king - attack it so that it has no
legal move (FIDE 1.4, 5.1.1). White moves first (FIDE 1.2).

Write moves in algebraic notation (FIDE Appendix C):
  e4  exd5  Nf3  Nbd2  R1e2  Qxh7+  O-O  O-O-O  e8=Q
Also accepted: coordinates (e2e4, e7e8q), long form (e2-e4,
Ng1-f3), 0-0 and 0-0-0, and any letter case that is not ambiguous.
"B" is always the bishop and "b" the b-pawn: Bxc3 is not bxc3.
Marks such as + and # are optional.

The moves (FIDE 3): bishop along diagonals (3.2), rook along
ranks and files (3.3), queen both (3.4), none of them over other
pieces (3.5); knight jumps (3.6); pawns move forward and capture
diagonally forward, two squares on the first move (3.7), take en
passant (3.7.3.1) and promote on the last rank (3.7.3.3); the king
steps to an adjoining square or castles (3.8). No move may leave
your own king in check (3.9.2).

The server ends the game by itself, without a claim, on:
  checkmate (5.1.1) and stalemate (5.2.1);
  a dead position: K v K, K and a knight or bishop v K, or only
    bishops all on squares of one colour (5.2.2);
  threefold repetition of a position (9.2);
  50 moves each without a capture or pawn move (9.3).
`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(help)
