package battle

import "github.com/bottlepost/bottlepost/lang"

// help is the players' guide quoted by the help mail (Variant.Help).
const help = `Chess-Battle (Yurgelevich, 1933): mate the enemy headquarter (C5).
Board: a 128-square cross, ranks 1-2 and 11-12 only on files c-j (C1.1).
White (ranks 1-3) moves first; Red starts on ranks 10-12 (C1.3).

Pieces (C2):
  H headquarter  moves like a king; it is the royal piece.
  B bomber       a queen that may pass over one of its own pieces per
                 move, never over an enemy one.
  T tank         one or two squares along a rank or file; cannot be
                 taken by a machine-gun, cavalry or soldier.
  G gun          moves one square, never capturing; shoots (C3.2).
  M machine-gun  moves one square, never capturing; shoots (C3.3).
  C cavalry      leaps (1,2), (1,3) or (2,3), like a long knight.
  S soldier      one square any way; from a light square also two in a
                 straight line over an empty square. Captures only one
                 square sideways, forward or diagonally forward.
Shots (C3): the shooter stays and removes one enemy piece over empty
squares: a gun up to 5 squares left, right, forward or diagonally
forward; a machine-gun up to 3 any way, never at a tank. A headquarter
in a line of fire is in check (C3.4).
Far end (C4): a soldier reaching the last rank leaves the board and you
remove one enemy piece of your choice, not the headquarter.
A missing square ends every line; only cavalry leaps cross gaps (C1.5).
Draws (C5): stalemate, threefold repetition, 50 moves each without
capture, shot or soldier move.

Notation (C6):
  Cd1-e4   a move          Bf1xf7   a capture
  Sd3-d4   soldiers too    Gc1!c6   a shot at c6
  Sd11-d12^h9   a soldier arrives; you remove the piece on h9
  Sd11xe12^h9   the same, capturing on e12
Short forms such as Sd4 or G!c6 work when only one move fits.
`

// The summary is a message of the catalogs, looked up by its value
// in the reader's language (lang.Lang.Word).
var _ = lang.Keys(help)
