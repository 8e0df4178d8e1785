package game

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// Takebacks by consent (issue 33). "takeback" asks to take back the
// sender's last move while the opponent has not answered it (it is the
// opponent's turn, and the move is the last that stands); the opponent
// answers "takeback accept" or "takeback decline", and a move of theirs
// declines it. Accepted, the game's log gets a takeback record
// (store.KindTakeback, the side and ply of the move taken back), the
// position returns to before that move (the line that stands replayed
// from the start: record.ReplayLine, as verify replays it), both sides'
// pending conditional lines are dropped (they were made for the position
// the takeback undoes), the turn's clock starts afresh, and both players
// and the observers are told. At most maxTakebacks a game and side, and
// never in Seachess.

// maxTakebacks bounds the takebacks of one side in one game.
const maxTakebacks = 3

// VerbTakeback asks for a takeback, or answers one (takeback accept|decline).
const VerbTakeback Verb = "takeback"

// takebackAsk is a pending request: the side that asked and the ply of the
// move it would take back.
type takebackAsk struct {
	Side int `json:"side"`
	Ply  int `json:"ply"`
}

// noTakebacks names the variants whose rules have no takebacks.
var noTakebacks = map[string]lang.Text{
	"seachess": lang.Msg("Seachess has no takebacks: its rulings have none, and every move stands"),
}

// parseTakeback reads "takeback", "takeback accept|yes" or "takeback decline|no".
func parseTakeback(c *Command, args []string) lang.Text {
	if len(args) == 1 && gameRef.MatchString(args[0]) {
		c.Game, _ = parseGame(args[0])
		args = nil
	}
	switch {
	case len(args) == 0:
	case len(args) == 1 && (strings.EqualFold(args[0], "accept") || strings.EqualFold(args[0], "yes")):
		c.Arg = "accept"
	case len(args) == 1 && (strings.EqualFold(args[0], "decline") || strings.EqualFold(args[0], "no")):
		c.Arg = "decline"
	default:
		return lang.Msg("write takeback (to ask to take back your last move), takeback accept or takeback decline")
	}
	return lang.Text{}
}

// takeback runs the takeback commands for side in l.
func (h *handling) takeback(l *loaded, side int, c Command, d *draft) error {
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	if why, ok := noTakebacks[l.g.Variant]; ok {
		return &userError{msg: why}
	}
	if c.Arg == "" {
		return h.askTakeback(l, side, d)
	}
	ask := l.meta.Takeback
	if ask == nil || ask.Side == side {
		return userf("there is no takeback of %s's to answer", l.sidesIn(d.lang)[1-side])
	}
	if c.Arg == "decline" {
		l.meta.Takeback = nil
		d.notice("You declined %s's takeback; it is still your move.", l.sidesIn(d.lang)[ask.Side])
		od := h.draft(l.seats[ask.Side].Address, l, "update")
		od.notice("%s declined your takeback: your move stands.", l.sidesIn(od.lang)[side])
		return h.save(l)
	}
	return h.acceptTakeback(l, ask)
}

// askTakeback asks the opponent to take back side's last move.
func (h *handling) askTakeback(l *loaded, side int, d *draft) error {
	sides := l.sidesIn(d.lang)
	opp := 1 - side
	if int(l.state.ToMove()) != opp || l.state.Ply() == 0 {
		return userf("a takeback takes back your last move while %s has not answered it; it is your move now", sides[opp])
	}
	log, err := h.tx.Log(l.g.ID)
	if err != nil {
		return err
	}
	moves := standingMoves(log)
	if len(moves) == 0 || int(moves[len(moves)-1].Side) != side || int(moves[len(moves)-1].Ply) != l.state.Ply()-1 {
		return userf("your last move has been answered (or there is none): only a move %s has not answered can be taken back", sides[opp])
	}
	if l.meta.Takeback != nil {
		return userf("you asked for a takeback already; %s has not answered yet", sides[opp])
	}
	if l.meta.Takebacks[side] >= maxTakebacks {
		return userf("you have taken back %d moves in this game, the most a side may", maxTakebacks)
	}
	last := moves[len(moves)-1]
	l.meta.Takeback = &takebackAsk{Side: side, Ply: int(last.Ply)}
	label := rules.MoveLabel(int(last.Ply))
	d.notice("You asked %s to let you take back %s %s.", sides[opp], label, last.Lines[side])
	od := h.draft(l.seats[opp].Address, l, "update")
	od.notice("%s asks to take back %s %s. Reply takeback accept to let them (they move again), or takeback decline; a move of yours declines it.", l.sidesIn(od.lang)[side], label, last.Lines[opp])
	od.board = true
	return h.save(l)
}

// acceptTakeback takes back the asker's last move: the takeback record,
// the position replayed, the conditional lines dropped, everyone told.
func (h *handling) acceptTakeback(l *loaded, ask *takebackAsk) error {
	opp := 1 - ask.Side
	if int(l.state.ToMove()) != opp || l.state.Ply() != ask.Ply+1 {
		l.meta.Takeback = nil // the game went on since: nothing to take back
		h.touch(l)
		return userf("the takeback %s asked for no longer applies", l.sidesIn(h.langOf(h.from))[ask.Side])
	}
	log, err := h.tx.Log(l.g.ID)
	if err != nil {
		return err
	}
	taken := standingMoves(log)
	last := taken[len(taken)-1]
	if _, err := h.tx.Append(l.g, store.Entry{Kind: store.KindTakeback, Ply: uint32(ask.Ply), Side: store.Side(ask.Side),
		Text: "takeback", Public: "takeback", At: h.now}); err != nil {
		return err
	}
	line := append(gameLine(log), record.Step{Takeback: true})
	st, plies, err := record.ReplayLine(l.v, rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed}, line)
	if err != nil {
		return err
	}
	if n := len(plies); n > 0 && plies[n-1].Err != nil {
		return fmt.Errorf("game: game %d: its line does not replay after a takeback: %w", l.g.ID, plies[n-1].Err)
	}
	l.state = st
	l.meta.Takeback = nil
	l.meta.Takebacks[ask.Side]++
	l.meta.TurnStart = h.now
	l.meta.RemindedHalf, l.meta.RemindedDay, l.meta.TimedOut = false, false, -1
	label := rules.MoveLabel(ask.Ply)
	left := maxTakebacks - l.meta.Takebacks[ask.Side]
	tell := func(side int) *draft {
		d := h.draft(l.seats[side].Address, l, "update")
		d.board, d.lastMoves = true, true
		return d
	}
	d := tell(ask.Side)
	d.notice("%s accepted your takeback: %s %s is taken back, and it is your move again (takebacks left to you in this game: %d).", l.sidesIn(d.lang)[opp], label, last.Lines[ask.Side], left)
	d = tell(opp)
	sides := l.sidesIn(d.lang)
	d.notice("You accepted %s's takeback: %s %s is taken back, and %[1]s moves again.", sides[ask.Side], label, last.Lines[opp])
	for _, o := range l.meta.Observers {
		od := h.draft(o, l, "update")
		od.notice("%s took back %s %s, by consent.", l.sidesIn(od.lang)[ask.Side], label, last.Public)
		od.board, od.lastMoves = true, true
	}
	for side := range 2 {
		set, err := h.conds(l, side)
		if err != nil {
			return err
		}
		if len(set.Lines) == 0 {
			continue
		}
		if err := h.saveConds(l, side, &condSet{}); err != nil {
			return err
		}
		d := h.draft(l.seats[side].Address, l, "update")
		d.notice("Your conditional moves were for the position the takeback undid, and were dropped (%d lines).", len(set.Lines))
	}
	return h.save(l)
}

// takebackDeclinedByMove ends a pending takeback when the side asked moves
// instead of answering (play).
func (h *handling) takebackDeclinedByMove(l *loaded, mover int, d, od *draft) {
	ask := l.meta.Takeback
	if ask == nil || ask.Side == mover {
		return
	}
	l.meta.Takeback = nil
	d.notice("Your move declines %s's takeback.", l.sidesIn(d.lang)[ask.Side])
	od.notice("%s declined your takeback by moving.", l.sidesIn(od.lang)[mover])
}
