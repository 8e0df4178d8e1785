package submachine

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// View is the board as viewer v sees it. Nothing is hidden in Submachine
// Chess, so every viewer sees every piece; Black's board is turned round by
// the renderer.
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	var onTeleport []string
	for _, sq := range board.Squares() {
		c := s.pos.cells[sq]
		if c == 0 {
			continue
		}
		view.Cells[sq] = string(pieceLetter(c))
		view.Put(sq, rules.Piece{Side: sideOf(c), Kind: kindNames[kindOf(c)]})
		if isTeleport[sq] {
			onTeleport = append(onTeleport, string(pieceLetter(c))+" on "+board.Name(sq))
		}
	}
	if s.check && !s.outcome.Over() {
		view.Say(lang.Msg("%s is in check.", rules.Word(sideName[s.pos.side])))
	}
	if len(onTeleport) > 0 {
		view.Say(lang.Msg("On teleport squares: %s.", strings.Join(onTeleport, ", ")))
	}
	view.Kinds = kinds
	view.Special = []rules.Special{{Kind: "teleport", Ruling: "M3", Squares: board.Marked(rules.MarkTeleport)}}
	view.Legend = legend
	return view
}

// kindNames name the kinds for players, indexed like letters (M4).
var kindNames = [...]string{"", "pawn", "knight", "bishop", "rook", "queen", "king", "cardinal", "marshall"}

// kinds are the pieces in the order of a piece list.
var kinds = []string{"king", "queen", "marshall", "cardinal", "rook", "bishop", "knight", "pawn"}

var legend = lang.Keys(
	"K king, Q queen, R rook, B bishop, N knight, P pawn, C cardinal",
	"(bishop+knight), M marshall (rook+knight): White upper case,",
	"Black lower case. \".\" an empty square, \"o\" an empty teleport",
	"square (c3 i3 c10 i10, M3); a blank is a hole, not a square (M1).",
	"Wraps (M2): on ranks 1 2 4 5 8 9 11 12, a<->e and g<->k join; down",
	"off rank 1 a1->b5 b1->c5 d1->c5 e1->d5 (g-k alike), up off rank 12",
	"a12->b8 b12->c8 d12->c8 e12->d8; one way only.",
)

const help = `Submachine Chess: checkmate the enemy king (M6), on a board of four
5x5 sub-boards with holes (M1) and wrap-around edges (M2).

Board (M1): files a-k, ranks 1-12, 100 squares. Holes: b3 d3 h3 j3
b10 d10 h10 j10 and the gaps on file f and on ranks 6-7; the loose
squares f3 f10 c6 c7 i6 i7 f6 f7 join the sub-boards.
Wraps (M2): on ranks 1 2 4 5 8 9 11 12 each sub-board is a cylinder:
a rook goes b1-a1-e1. Straight down off rank 1 a piece goes on at
rank 5 one file nearer the centre (a1->b5, e1->d5, c1 stops), up off
rank 12 at rank 8 (a12->b8); never back the other way. Holes stop
everything but pawns; knight leaps never wrap.
Teleports (M3): a piece (not a pawn) on c3, i3, c10 or i10 may jump
to any other of them, capturing there; it attacks them too.
Pieces (M4): K Q R B N as in chess, C cardinal (bishop+knight),
M marshall (rook+knight). No castling.
Pawns (M5): step to the next existing square ahead, jumping holes
(b2-b4, f3-f6, a5-a8, but c5-c6); two such steps from the start
rank (b2-b5), en passant; capture one square diagonally forward, no
wrap; promote on rank 10-12 (Black 3-1) to Q R B N C M: g9-g10=Q,
b4xc3=Q.
Draws (M6): stalemate, threefold repetition, 50 moves, bare kings.

Notation (M7): piece letter, from, "-" or "x", to: Nb1-c3, Qe1xe5,
b2-b4, c4xd5, g9-g10=Q; a teleport is the plain move, Nc3-i10.
Short forms work when they fit one move only: Nc3, Nbc3, b4, bxc3.
Case, spaces and check marks do not matter.`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(help)
