// Package record is a bottlepost game's record as it leaves the service: the start and end
// records that open and close every game's log (what the hash chain binds besides the
// moves: the terms, the players, how it ended), the export of a game that has ended as PGN
// with every secret move revealed and the store's hashed records embedded (FinalPGN), and the
// offline verifier of such a file against the receipts a player was sent (Verify).
// docs/verify.md specifies the format; anyone may write another verifier from it.
//
// It reads a game through the store's export (store.Tx.Export) and replays its moves with
// the rules (Replay); it knows nothing of the game service, mail or the network, so the
// service, the web view and the bottlepost export and verify commands share one record.
//
// Files: record.go (the start and end records), export.go (FinalPGN and the PGN written),
// verify.go (Verify, check by check), pgndiff.go (naming a file's first difference from the
// one its record gives), replay.go (Replay).
package record
