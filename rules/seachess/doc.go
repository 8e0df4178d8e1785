// Package seachess is Christopher Hodde's Seachess for bottlepost, to the
// rulings S1–S11 of shared/variants/seachess.md: boats, cruisers that lay
// hidden mines, torpedo boats, submarines that dive and move unseen,
// destroyers that hunt them, aircraft carriers and their aircraft, and the
// commando ship to checkmate, on the 128-square sea of rules.SeachessBoard.
//
// A State is the referee's full state. Everything a side is offered comes
// from what that side knows (pos.project: the opponent's mines and submerged
// submarines removed), so Moves may list a move across an unseen mine, which
// Apply resolves, or one that leaves the commando ship in check by an unseen
// submarine, which Apply refuses (S8.3). View decides what each viewer sees;
// Report says what each learns of a move (S10).
//
// Files: geometry.go (tables), pos.go (pieces and the position),
// movegen.go (moves and attacks), play.go (resolving a move with its
// effects), state.go (the rules.State), notation.go (S11), report.go
// (records and notices), view.go (boards), position.go (the position
// notation and serialisation), variant.go (the rules.Variant).
package seachess
