package game

import (
	"slices"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

func (h *handling) draw(l *loaded, side int, d *draft) error {
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	opp := 1 - side
	switch l.meta.DrawOffer {
	case opp:
		return h.finish(l, record.DrawAgreed())
	case side:
		return userf("you have offered a draw already; %s has not answered yet", lang.Raw(l.sidesIn(h.langOf(h.from))[opp]))
	}
	l.meta.DrawOffer = side
	d.notice("You offered a draw. If %s answers draw, the game is drawn; a move declines it.", l.sidesIn(d.lang)[opp])
	od := h.draft(l.seats[opp].Address, l, "update")
	od.notice("%s offers a draw. Reply draw to accept, or simply move to decline.", l.sidesIn(od.lang)[side])
	od.board = true
	return h.save(l)
}

// finish ends a game: the result goes on the record, the ratings take it
// (rate), both players and the observers get the full record with every
// secret move revealed, and the game moves to the archive. Every end with
// a result comes here.
func (h *handling) finish(l *loaded, o rules.Outcome) error {
	l.meta.Phase = phaseOver
	l.meta.Takeback = nil
	l.meta.Reason = o.Describe(l.sides())
	l.meta.Outcome = &o
	l.meta.Finished = h.now
	l.g.Status = store.StatusFinished
	l.g.Result = o.Result()
	if err := h.rate(l); err != nil {
		return err
	}
	if err := h.tournamentGameEnded(l); err != nil {
		return err
	}
	if err := h.appendEnding(l, o.Result()); err != nil {
		return err
	}
	recipients := []string{l.seats[0].Address, l.seats[1].Address}
	recipients = append(recipients, l.meta.Observers...)
	for _, to := range recipients {
		d := h.draft(to, l, "final")
		d.final, d.pgn = true, true
		said := strings.ToLower(outcomeIn(l, d.lang))
		// The mail says how the game ended, once, above its board: not
		// again as the last move's notice.
		d.notices = slices.DeleteFunc(d.notices, func(n string) bool { return said != "" && strings.Contains(strings.ToLower(n), said) })
	}
	return h.close(l)
}

// appendEnding puts the end record on the game's log: the result, the status, how the game
// ended (l.meta.Reason), the players' names and the terms, all bound by the chain.
func (h *handling) appendEnding(l *loaded, result string) error {
	l.meta.Players = [2]string{displayName(l.seats[0]), displayName(l.seats[1])}
	e := record.End{Result: result, Status: l.g.Status.String(), Termination: l.meta.Reason, Players: l.meta.Players,
		Variant: l.g.Variant, Ruleset: l.g.Ruleset, Time: l.g.TimeControl}.Text()
	_, err := h.tx.Append(l.g, store.Entry{Kind: store.KindEvent, Ply: uint32(l.state.Ply()), Side: store.Side(l.state.ToMove()),
		Text: e, Public: e, At: h.now})
	return err
}

// close writes a game that has ended and moves it to the archive.
func (h *handling) close(l *loaded) error {
	if err := h.save(l); err != nil {
		return err
	}
	if err := h.tx.Archive(l.g.ID); err != nil {
		return err
	}
	l.g.Archived = true
	done := map[uint64]bool{}
	for _, p := range l.seats {
		if done[p.ID] {
			continue
		}
		done[p.ID] = true
		if h.player != nil && p.ID == h.player.ID {
			h.pmeta.dropGame(l.g.ID)
			if err := h.savePlayer(); err != nil {
				return err
			}
			continue
		}
		// Read the player afresh: an earlier command of this mail may have
		// changed them since the game was loaded.
		fresh, err := h.tx.Player(p.ID)
		if err != nil {
			return err
		}
		m := decodePlayerMeta(fresh)
		m.dropGame(l.g.ID)
		fresh.Meta = m.encode()
		if err := h.tx.PutPlayer(fresh); err != nil {
			return err
		}
	}
	return nil
}

// resign ends a game in play as a loss for the side resigning.
func (h *handling) resign(l *loaded, side int) error {
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	return h.finish(l, record.Resigned(l.sides(), rules.Side(side)))
}

// outcomeIn is how a game ended as its final mail says it to a reader of
// language lg: the stored reason (gameMeta.Reason, English, as the record
// keeps it) written in lg when it is the outcome's own description, else
// as it stands (a forfeit's, a reason stored by an older version).
func outcomeIn(l *loaded, lg lang.Lang) string {
	o := l.meta.Outcome
	if lg == lang.English || o == nil || o.Describe(l.sides()) != l.meta.Reason {
		return l.meta.Reason
	}
	return o.Because(l.sides(), lang.Raw(reasonIn(*o, l, lg))).In(lg)
}

// reasonIn is an outcome's reason in a language: the service's own endings
// (record.Resigned, DrawAgreed, LostOnTime, Adjudicated) as messages, the
// rules' reasons ("checkmate") looked up as words of the catalog.
func reasonIn(o rules.Outcome, l *loaded, lg lang.Lang) string {
	if lg == lang.English {
		return o.Reason
	}
	en, in := l.sides(), l.sidesIn(lg)
	for i := range en {
		switch o.Reason {
		case en[i] + " resigned":
			return lg.Tr("%s resigned", in[i])
		case en[i] + " lost on time":
			return lg.Tr("%s lost on time", in[i])
		case en[i] + " lost on time (claimed)":
			return lg.Tr("%s lost on time (claimed)", in[i])
		}
	}
	if o.Reason == record.DrawAgreed().Reason {
		return lg.Tr("draw agreed")
	}
	if why, ok := strings.CutPrefix(o.Reason, record.Adjudicated("", "").Reason); ok {
		return lg.Tr("adjudicated by the referee: %s", why)
	}
	if why, ok := forfeitIn(o.Reason, lg); ok {
		return why
	}
	return lg.Word(o.Reason)
}
