// Package seachess is Christopher Hodde's Seachess for bottlepost, to the
// rulings S1–S11 (docs/variants/seachess.md cites them): boats, cruisers that lay
// hidden mines, torpedo boats, submarines that dive and move unseen,
// destroyers that hunt them, aircraft carriers and their aircraft, and the
// commando ship to checkmate, on the 128-square sea of rules.SeachessBoard.
//
// A State is the referee's full state. What a side may submit comes from
// what that side knows (pos.project: its board without the opponent's
// mines and submerged submarines, plus the public facts of how many
// submarines the opponent has under water and whether it may have laid
// mines): every move its pieces can make there, dropping only those that
// would leave its commando ship in check whatever it cannot see (S8.3).
// So Moves may list a move across an unseen mine, which Apply resolves, a
// move that only looks like leaving the commando ship in check, which
// Apply accepts when a hidden mine or a surfacing submarine shields it,
// and a move that leaves it in check by an unseen submarine, which Apply
// refuses (S8.3). Apply, checkmate, stalemate and repetition are judged
// with full information (S8.3, S9). View decides what each viewer sees;
// Report says what each learns of a move (S10).
//
// Files: geometry.go (tables), pieces.go (pieces and the position),
// movegen.go (moves and attacks), play.go (resolving a move with its
// effects), state.go (the rules.State), notation.go (S11), report.go
// (records and notices), view.go (boards), position.go (the position
// notation and serialisation), variant.go (the rules.Variant).
package seachess
