// Package rules is the pure core of bottlepost's game engines: board
// geometry as data, the Variant and State interfaces that every variant
// implements, move reading (Notation: every reading of a text, and the one
// legal move it may name), per-viewer views and their ASCII
// rendering (rules/htmlboard draws the HTML board), the placement codec of
// position strings, PGN and perft.
//
// Nothing here does I/O, reads a clock or draws randomness of its own: a
// state plus a move gives a new state or a typed error, and randomness (a
// shuffled setup, say) arrives as a seed in Options.
//
// Hidden information is first-class. A State is the referee's full state;
// View decides what each Viewer may see, and every rendering goes through
// it. Moves lists what the side to move may submit, computed from what that
// side knows, and Apply may still refuse a move once the referee judges it
// with full information (see MoveError.Kind Refused).
//
// The variant packages name the same parts alike, so that the six read as
// one design: State is the rules.State and position the board a move
// changes; a position string's board field goes through Placement; moves
// are read by the variant's notation (a Notation) against its spelled
// legal moves; a text that fits no legal move is explained by the
// variant's diagnose (the Diagnose given to Notation.Match), which takes
// the text's readings and asks why: the one
// explainer of why a move is not legal, in every variant a walk down
// tables of Check (each a rule the move may break, its reason and its
// ruling) about a whyMove, the move under explanation; geometry helpers
// such as Abs and Sign live here, not in each package.
package rules
