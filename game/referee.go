package game

import (
	"errors"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// recordLines lays out plies for one viewer in full-move numbering, one
// numbered move per line within the mail's width: " 1. e4 e5".
func recordLines(plies []record.Ply, v rules.Viewer) []string {
	texts := make([]string, len(plies))
	for i, p := range plies {
		texts[i] = p.Text
		if p.Report != nil {
			texts[i] = p.Report.Record[v]
		}
	}
	return rules.RecordLines(0, texts, textWidth-2)
}

// moveTexts returns the submitted texts of a game's move records that
// stand (standing).
func moveTexts(log []store.Record) []string {
	moves := standingMoves(log)
	out := make([]string, len(moves))
	for i, r := range moves {
		out[i] = r.Text
	}
	return out
}

// standingMoves returns a game's move records that stand: every move but those
// a takeback record took back (takeback.go).
func standingMoves(log []store.Record) []store.Record {
	var out []store.Record
	for _, r := range log {
		switch r.Kind {
		case store.KindMove:
			out = append(out, r)
		case store.KindTakeback:
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		}
	}
	return out
}

// gameLine is a game's log as record.ReplayLine replays it: every move,
// the taken back ones too, and the takebacks.
func gameLine(log []store.Record) []record.Step {
	var out []record.Step
	for _, r := range log {
		switch r.Kind {
		case store.KindMove:
			out = append(out, record.Step{Text: r.Text})
		case store.KindTakeback:
			out = append(out, record.Step{Takeback: true})
		}
	}
	return out
}

// replay replays a game's log from its start (record.ReplayLine) and
// returns the plies that stand.
func replay(l *loaded, log []store.Record) ([]record.Ply, error) {
	_, plies, err := record.ReplayLine(l.v, rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed}, gameLine(log))
	return plies, err
}

func (h *handling) referee(c Command) (*loaded, error) {
	if !h.s.isReferee(h.from) {
		return nil, userf("%s is a referee's command, and you are not a referee of this service", c.Verb)
	}
	l, err := h.game(c.Game)
	if err != nil {
		return nil, err
	}
	if l.side(h.player.ID) >= 0 && l.meta.Phase != phaseOver {
		return nil, userf("you play in game %d: another referee must %s it while it is on", c.Game, c.Verb)
	}
	return l, nil
}

// audit sends the referee the full record with every secret move, a legality
// report from replaying the game and each side's pending conditional lines;
// the players are not told.
func (h *handling) audit(c Command) error {
	l, err := h.referee(c)
	if err != nil {
		return err
	}
	log, err := h.tx.Log(l.g.ID)
	if err != nil {
		return err
	}
	plies, err := replay(l, log)
	if err != nil {
		return err
	}
	d := h.draft(h.from, l, "audit")
	d.viewer = rules.ViewReferee
	d.board = true
	d.record = recordLines(plies, rules.ViewReferee)
	d.result = phaseIn(l, d.lang)
	sides := l.sides()
	legal := 0
	for _, p := range plies {
		if p.Err != nil {
			d.report = append(d.report, d.tr("move %s %s (%s): NOT LEGAL on replay: %v", rules.MoveLabel(p.Index), p.Text, lang.Key(sides[p.Side]), p.Err))
		} else {
			legal++
		}
	}
	d.report = append(d.report, d.tr("%d of %d moves replay legally from the start.", legal, len(moveTexts(log))))
	for _, r := range log {
		if r.Kind == store.KindTakeback {
			d.report = append(d.report, d.tr("takeback by consent: %s's move %s was taken back (record %d)", lang.Key(sides[r.Side]), rules.MoveLabel(int(r.Ply)), r.Index))
		}
	}
	for _, r := range log {
		if !r.Secret || r.Opening == nil {
			continue
		}
		ok := store.VerifyCommitment(l.g.ID, r.Ply, r.Side, r.Commitment, *r.Opening)
		verdict := d.tr("commitment of move %s (%s): opens correctly", rules.MoveLabel(int(r.Ply)), lang.Key(sides[r.Side]))
		if !ok {
			verdict = d.tr("commitment of move %s (%s): DOES NOT OPEN", rules.MoveLabel(int(r.Ply)), lang.Key(sides[r.Side]))
		}
		d.report = append(d.report, verdict, "  "+r.Commitment.String())
	}
	if err := h.tx.VerifyGame(l.g.ID); err != nil {
		if !errors.Is(err, store.ErrTampered) {
			return err
		}
		d.report = append(d.report, d.tr("hash chain: BROKEN: %s", err.Error()))
	} else {
		d.report = append(d.report, d.tr("hash chain: intact, head %s", l.g.Head.String()))
	}
	said, err := h.auditSaids(l)
	if err != nil {
		return err
	}
	d.report = append(d.report, said...)
	if l.meta.Phase == phasePlay {
		for side := range 2 {
			set, err := h.conds(l, side)
			if err != nil {
				return err
			}
			for _, line := range set.Lines {
				d.report = append(d.report, d.tr("conditional line of %s (pending, sealed): %s", lang.Key(sides[side]), FormatConditional(line)))
			}
		}
	}
	return nil
}

// adjudicate lets a referee end a game with a result and a reason.
func (h *handling) adjudicate(c Command) error {
	l, err := h.referee(c)
	if err != nil {
		return err
	}
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	o := record.Adjudicated(c.Result, c.Reason)
	d := h.draft(h.from, l, "notice")
	d.notice("Game %d adjudicated %s; both players have been told.", l.g.ID, c.Result)
	return h.finish(l, o)
}

// phaseIn is a game's phase as an audit shows it to a reader of language
// lg: how it ended, once over.
func phaseIn(l *loaded, lg lang.Lang) string {
	switch l.meta.Phase {
	case phaseOver:
		return endedIn(l, lg)
	case phaseChallenge:
		return lg.Tr("challenge")
	case phaseOpen:
		return lg.Tr("open")
	case phasePlay:
		return lg.Tr("play")
	}
	return l.meta.Phase
}
