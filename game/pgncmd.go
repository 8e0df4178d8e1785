package game

import (
	"errors"
	"fmt"
	"slices"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/store"
)

// PGNType is the media type of the PGN attachment of final mails and pgn answers.
const PGNType = "application/x-chess-pgn"

// pgnName is the attachment's file name: bp-N.pgn.
func pgnName(id uint64) string { return fmt.Sprintf("bp-%d.pgn", id) }

// pgn answers "pgn GAME": the game's record (record.FinalPGN) as an attachment, for a game the
// sender played or observed, once it has ended. Anyone else gets the same refusal whether
// the game exists or not.
func (h *handling) pgn(c Command) error {
	notYours := userf("game %d is not a game you played or observed: pgn sends the record of your own games, and of those you observed, once they have ended", c.Game)
	l, err := load(h.tx, c.Game)
	if errors.Is(err, store.ErrNotFound) {
		return notYours
	} else if err != nil {
		return err
	}
	if l.side(h.player.ID) < 0 && !slices.Contains(l.meta.Observers, h.from) {
		return notYours
	}
	switch {
	case l.g.Status == store.StatusActive:
		return userf("game %d has not ended: its record, every secret move revealed, is sent when it ends", c.Game)
	case l.g.Status == store.StatusAborted:
		return userf("game %d was never played (%s): it has no record to send", c.Game, lang.By(func(lg lang.Lang) string { return endedIn(l, lg) }))
	}
	if h.games == nil {
		h.games = map[uint64]*loaded{}
	}
	if _, ok := h.games[c.Game]; !ok {
		h.games[c.Game] = l
	}
	d := h.draft(h.from, h.games[c.Game], "notice")
	d.pgn = true
	d.notice("The record of game %d is attached as %[2]s: the moves, every secret move revealed with the key that opens its commitment, and the hashed record. \"bottlepost verify %[2]s RECEIPT...\" checks it against the receipts your mails quoted.", c.Game, pgnName(c.Game))
	return nil
}
