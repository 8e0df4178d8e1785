// Package store keeps everything bottlepost knows in one bbolt file: games and their
// versioned state, each game's log of moves and events, players, reply tokens, the outbox,
// the ids of processed incoming mail, the welcomes counted per address and day, a deadline
// index and the archive of finished games.
//
// A crash at any instant loses no accepted move and applies none twice: accepting a move,
// the mails it causes and the incoming mail's id are committed in one transaction, and a
// mail leaves the outbox only after the mail server accepted it.
//
// What a side may not see (secret moves, per-side record lines and the whole state of a
// game with hidden information) is sealed with XChaCha20-Poly1305 under a per-game key
// derived from a master key kept in its own file. Each secret move gets an HMAC commitment
// that is quoted to both sides and opened when the game ends, and every log record is
// chained by SHA-256, so the head quoted in each mail is the player's receipt.
// Commit, VerifyCommitment, VerifyChain and VerifyExport need no database.
//
// Accepting a move from an incoming mail:
//
//	err := st.Update(func(tx *store.Tx) error {
//		if err := tx.MarkProcessed(msgID, now); err != nil {
//			return err // ErrDuplicate: applied before
//		}
//		g, err := tx.Game(gameID)
//		if err != nil {
//			return err
//		}
//		rec, err := tx.Append(g, store.Entry{Kind: store.KindMove, Ply: ply, Side: side,
//			Text: "Nb1-c3", Public: "Nb1-c3", At: now})
//		if err != nil {
//			return err
//		}
//		g.State, g.Deadlines, g.Updated = next, deadlines, now
//		if err := tx.PutGame(g); err != nil {
//			return err
//		}
//		return tx.Enqueue(&store.Mail{Game: g.ID, To: to, Data: render(rec, g.Head)})
//	})
//
// docs/store.md describes the file layout, the formats and the failure modes.
package store
