package game

import (
	"errors"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// move plays a player's move, text, written with the move number number
// ("" for none): a number other than the move's is read past, and the
// receipt says so.
func (h *handling) move(l *loaded, side int, text, number string, d *draft) error {
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	if int(l.state.ToMove()) != side {
		d.board = true
		return userf("it is not your turn: %s is to move", lang.Key(l.sides()[l.state.ToMove()]))
	}
	// A player writing in German may write chess's German piece letters.
	m, err := rules.ParseIn(l.state, text, string(h.langOf(h.from)))
	var next rules.State
	var rep *rules.Report
	if err == nil {
		next, rep, err = l.state.Apply(m)
	}
	if err != nil {
		d.board = true
		var me *rules.MoveError
		if errors.As(err, &me) {
			if len(me.Options) > 0 && me.Kind != rules.Ambiguous {
				return userf("Your move was not played: %s. Legal moves that come close: %s.", me.Text(), strings.Join(me.Options, ", "))
			}
			return userf("Your move was not played: %s.", me.Text())
		}
		return err
	}
	played := withICCF(h.metaOf(l, side), l.state, rep.Move, rep.Text)
	yours := lang.Msg("Your move %s was accepted.", played)
	if ply := l.state.Ply(); number != "" && number != rules.MoveLabel(ply) {
		yours = lang.Msg("Your move %s was accepted. You numbered it %s; it was played as %s %s.", played, number, rules.MoveLabel(ply), rep.Text)
	}
	return h.play(l, side, rep, next, yours, lang.Text{})
}

// play records a move the referee accepted (rep, leading to next) for side, charges its
// clock and tells the mover (yours comes first in its mail), the opponent (theirs, if
// not empty, after what the report tells it) and the observers, each in their language. Moves played in this mail
// are noted, so that the opponent's conditional lines can answer them.
func (h *handling) play(l *loaded, side int, rep *rules.Report, next rules.State, yours, theirs lang.Text) error {
	before := l.state
	ply := l.state.Ply()
	rec, err := h.tx.Append(l.g, store.Entry{Kind: store.KindMove, Ply: uint32(ply), Side: store.Side(side),
		Text: rep.Text, Secret: rep.Secret, Public: rep.Record[rules.ViewPublic],
		Lines: [2]string{rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack]}, At: h.now})
	if err != nil {
		return err
	}
	h.clocks.spend(l, side, h.now)
	l.state = next
	declined := l.meta.DrawOffer == 1-side
	if declined {
		l.meta.DrawOffer = -1 // a move declines the offer it answers
	}
	opp := 1 - side
	commit := func(dr *draft) string {
		return dr.tr("%s %s's hidden move:\n    %s", rules.MoveLabel(ply), lang.Key(l.sides()[side]), rec.Commitment)
	}
	over := next.Outcome().Over()
	kind := "update"
	if over {
		kind = "final" // the final mail carries the move's news too: one mail, not two
	}
	d := h.draft(l.seats[side].Address, l, kind)
	d.notices = append(d.notices, yours.In(d.lang))
	d.notices = append(d.notices, sentences(rep.NoticesIn(rules.Viewer(side), d.lang))...)
	if declined {
		d.notice("Your move declines %s's draw offer.", lang.Key(l.sides()[opp]))
	}
	d.board, d.lastMoves = true, true
	// The move comes first in every other reader's mail, then what it set off
	// (a capture, a mine strike, a submarine surfacing, check).
	od := h.draft(l.seats[opp].Address, l, kind)
	od.notice("%s played %s %s.", lang.Key(l.sides()[side]), rules.MoveLabel(ply),
		withICCF(h.metaOf(l, opp), before, rep.Move, rep.Record[rules.ViewerOf(rules.Side(opp))]))
	od.notices = append(od.notices, sentences(rep.NoticesIn(rules.Viewer(opp), od.lang))...)
	if !theirs.IsZero() {
		od.notices = append(od.notices, theirs.In(od.lang))
	}
	if declined {
		od.notice("%s declined your draw offer by moving.", lang.Key(l.sides()[side]))
	}
	od.board, od.lastMoves = true, true
	h.takebackDeclinedByMove(l, side, d, od)
	drafts := []*draft{d, od}
	for _, o := range l.meta.Observers {
		obs := h.draft(o, l, kind)
		obs.notice("%s played %s %s.", lang.Key(l.sides()[side]), rules.MoveLabel(ply), rep.Record[rules.ViewPublic])
		obs.notices = append(obs.notices, sentences(rep.NoticesIn(rules.ViewPublic, obs.lang))...)
		obs.board, obs.lastMoves = true, true
		drafts = append(drafts, obs)
	}
	for _, dr := range drafts {
		dr.last = rep
	}
	if rep.Secret {
		for _, dr := range drafts {
			dr.commitments = append(dr.commitments, commit(dr))
		}
	}
	if over {
		return h.finish(l, next.Outcome())
	}
	h.answers = append(h.answers, answer{l: l, mover: side, before: before, rep: rep})
	return h.save(l)
}

// sentences are the notices of a move's report as the mails write them:
// each a sentence, begun with a capital letter and ended with a full stop,
// as the variants do not all write them ("the queen promotes to a rook
// (T5)", "your hidden move is sealed: …").
func sentences(notices []string) []string {
	out := make([]string, 0, len(notices))
	for _, n := range notices {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		r, size := utf8.DecodeRuneInString(n)
		n = string(unicode.ToUpper(r)) + n[size:]
		if !strings.HasSuffix(n, ".") && !strings.HasSuffix(n, "!") && !strings.HasSuffix(n, "?") {
			n += "."
		}
		out = append(out, n)
	}
	return out
}

// spend charges the mover's clock for a move at now and starts the
// opponent's turn.
func (c *clocks) spend(l *loaded, side int, now time.Time) {
	tc, _ := timing.ParseTimeControl(l.meta.Time)
	// Time the clock stood still (outages, the mover's vacation) is not charged.
	used := now.Sub(l.meta.TurnStart) - overlap(c.stopped(l, side), l.meta.TurnStart, now)
	l.meta.Clocks[side] = tc.Spend(l.meta.Clocks[side], max(used, 0))
	l.meta.TurnStart = now
	l.meta.RemindedHalf, l.meta.RemindedDay, l.meta.TimedOut = false, false, -1
}
