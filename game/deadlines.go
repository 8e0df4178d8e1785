package game

import (
	"errors"
	"fmt"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Timeout policies.
const (
	TimeoutLoss   = "loss"   // the late side loses on time at once
	TimeoutNotify = "notify" // both are told; the opponent may claim the win
)

// clocks times the turns of games: a side's time for a move runs from the
// start of its turn to its deadline, and stands still during the service's
// outages (outages.go) and the side's vacation. A handling loads the
// outages once (load) and only reads them after; the mails it renders show
// the deadlines it judged by.
type clocks struct {
	outages        []Outage
	loaded         bool
	reminderBefore time.Duration // Config.ReminderBefore: the second reminder
}

// turnTimes are the instants of the side to move's turn: when it began
// (after any vacation), the reminders and the deadline, all after outages.
type turnTimes struct {
	start, half, dayBefore, deadline time.Time
}

func (c *clocks) turn(l *loaded) turnTimes {
	tc, _ := timing.ParseTimeControl(l.meta.Time)
	side := int(l.state.ToMove())
	start := l.meta.TurnStart
	base := tc.Deadline(l.meta.Clocks[side], start)
	dl := extend(base, start, c.stopped(l, side))
	t := turnTimes{start: start, deadline: dl}
	t.half = start.Add(dl.Sub(start) / 2)
	if before := c.reminderBefore; before > 0 && dl.Sub(start) > before {
		t.dayBefore = dl.Add(-before)
	}
	return t
}

// deadlines is the deadline index entries a game in play needs: the
// reminders not yet sent and the timeout.
func (c *clocks) deadlines(l *loaded) []store.Deadline {
	if l.meta.Phase != phasePlay || l.meta.TimedOut >= 0 {
		return nil
	}
	t := c.turn(l)
	var out []store.Deadline
	if !l.meta.RemindedHalf {
		out = append(out, store.Deadline{At: t.half, Kind: store.DeadlineReminder})
	}
	if !l.meta.RemindedDay && !t.dayBefore.IsZero() {
		out = append(out, store.Deadline{At: t.dayBefore, Kind: store.DeadlineReminder})
	}
	return append(out, store.Deadline{At: t.deadline, Kind: store.DeadlineTimeout})
}

// sweep acts on a game whose indexed deadline has come: a reminder or a
// timeout, judged on the deadline recomputed now (vacations and outages may
// have moved it).
func (h *handling) sweep(l *loaded) error {
	if l.meta.Phase != phasePlay || l.meta.TimedOut >= 0 {
		return h.save(l) // nothing to do: drop stale index entries
	}
	t := h.clocks.turn(l)
	side := int(l.state.ToMove())
	switch {
	case !h.now.Before(t.deadline):
		return h.timeout(l, side)
	case !t.dayBefore.IsZero() && !h.now.Before(t.dayBefore) && !l.meta.RemindedDay:
		l.meta.RemindedDay, l.meta.RemindedHalf = true, true
		h.remind(l, side, t, lang.Msg("Reminder: your move is due within a day."))
	case !h.now.Before(t.half) && !l.meta.RemindedHalf:
		l.meta.RemindedHalf = true
		h.remind(l, side, t, lang.Msg("Reminder: half of your time for this move is gone."))
	}
	return h.save(l)
}

// remind mails the side to move, at most once a day per player and game.
func (h *handling) remind(l *loaded, side int, t turnTimes, text lang.Text) {
	if last := l.meta.LastReminder[side]; !last.IsZero() && h.now.Sub(last) < timing.Day {
		return
	}
	l.meta.LastReminder[side] = h.now
	d := h.draft(l.seats[side].Address, l, "update")
	d.notices = append(d.notices, text.In(d.lang))
	d.board = true
}

// timeout applies the timeout policy to the side that let its deadline pass.
func (h *handling) timeout(l *loaded, side int) error {
	sides := l.sides()
	for _, r := range h.s.cfg.Referees {
		d := h.draft(r, l, "notice")
		d.notice("Game %d: %s (%s) let the deadline pass; policy %q.", l.g.ID, l.sidesIn(d.lang)[side], nameAndAddress(l.seats[side]), h.s.cfg.TimeoutPolicy)
	}
	if h.s.cfg.TimeoutPolicy == TimeoutNotify {
		l.meta.TimedOut = side
		d := h.draft(l.seats[1-side].Address, l, "update")
		d.notice("%s's deadline has passed. Reply claim to win on time, or wait for the move.", l.sidesIn(d.lang)[side])
		d2 := h.draft(l.seats[side].Address, l, "update")
		d2.notice("Your deadline has passed. %s may now claim the game on time; your move still counts if it comes first.", l.sidesIn(d2.lang)[1-side])
		d2.board = true
		return h.save(l)
	}
	return h.finish(l, record.LostOnTime(sides, rules.Side(side), false))
}

// TickResult counts what a tick did.
type TickResult struct {
	Reminders, Timeouts, Digests, Games int
	// Tournaments counts the tournaments started or cancelled on their
	// start date (tournament.go).
	Tournaments int
	// Failed counts games that could not be handled (logged).
	Failed int
	// Outage is the jump of the clock found before the sweep (zero when
	// none): every running clock was extended by it.
	Outage Outage
}

// Tick does the time-driven work due at now: reminders and timeouts from
// the deadline index, and daily digests. Each game is handled in its own
// transaction, so a tick never holds the store for long and a crash
// mid-tick repeats nothing that was committed.
//
// With Config.OutageGap set, it first compares now with the last heartbeat
// (CheckClock): a clock that jumped forward while the service ran (a
// suspended machine resumed, an NTP step) is treated exactly like an outage
// found at start-up, so no game is forfeited for time nobody could play.
func (s *Service) Tick(now time.Time) (TickResult, error) {
	now = now.UTC()
	var res TickResult
	if s.cfg.OutageGap > 0 {
		out, err := s.CheckClock(now)
		if err != nil {
			return res, err
		}
		res.Outage = out
	}
	var due []store.Due
	if err := s.st.View(func(tx *store.Tx) error {
		var err error
		due, err = tx.DueDeadlines(now, 500)
		return err
	}); err != nil {
		return res, &SystemError{Err: err}
	}
	seen := map[uint64]bool{}
	for _, d := range due {
		if seen[d.Game] {
			continue
		}
		seen[d.Game] = true
		err := s.st.Update(func(tx *store.Tx) error {
			h := s.internal(tx, now)
			if err := h.clocks.load(tx); err != nil {
				return err
			}
			l, err := h.game(d.Game)
			if err != nil {
				return err
			}
			phase, timedOut, half, day := l.meta.Phase, l.meta.TimedOut, l.meta.RemindedHalf, l.meta.RemindedDay
			if err := h.sweep(l); err != nil {
				return err
			}
			switch {
			case l.meta.Phase != phase || l.meta.TimedOut != timedOut:
				res.Timeouts++
			case l.meta.RemindedHalf != half || l.meta.RemindedDay != day:
				res.Reminders++
			}
			_, err = h.flush()
			return err
		})
		if err != nil {
			// One game that cannot be handled (damaged data, a variant no longer
			// built, a store error) must not stop the sweep for every other game.
			var ue *userError
			if !errors.As(err, &ue) {
				if store.DamagedGame(err) == 0 {
					s.log.Error("sweep: game skipped", "game", d.Game, "err", err)
				} else {
					s.damaged(store.DamagedGame(err), err)
				}
				res.Failed++
			}
			continue
		}
		res.Games++
	}
	n, err := s.sendDigests(now)
	res.Digests = n
	if err != nil {
		return res, err
	}
	if res.Tournaments, err = s.startDueTournaments(now); err != nil {
		return res, err
	}
	if err := s.st.Update(func(tx *store.Tx) error {
		if _, err := pruneHeld(tx, now); err != nil {
			return err
		}
		if _, err := pruneStrangers(tx, now); err != nil {
			return err
		}
		if _, err := pruneMoving(tx, now); err != nil {
			return err
		}
		_, err := tx.PruneWelcomes(now) // the limit counts today's only
		return err
	}); err != nil {
		return res, &SystemError{Err: err}
	}
	if err := s.Heartbeat(now); err != nil {
		return res, err
	}
	return res, nil
}

// internal is a handling with no incoming message, for time-driven work.
func (s *Service) internal(tx *store.Tx, now time.Time) *handling {
	return s.newHandling(tx, &Incoming{}, func() Allowance { return Allowance{OK: true} }, now)
}

// deadlineIn is the deadline of the turn under way in a game, in the time
// zone of a player's settings, written for a reader of language lg ("Mon 2
// Jan 2026 15:04 CET (UTC+01:00)", "Mo 2. Jan. 2026 15:04 MEZ (UTC+01:00)").
func (c *clocks) deadlineIn(l *loaded, pm *playerMeta, lg lang.Lang) string {
	t := c.turn(l).deadline.In(pm.location())
	name, off := t.Zone()
	if lg == lang.English {
		return fmt.Sprintf("%s %s (UTC%s)", t.Format("Mon 2 Jan 2006 15:04"), name, offset(off))
	}
	return fmt.Sprintf("%s (UTC%s)", timing.FormatDate(t, "Mon 2 Jan 2006 15:04 MST", lg), offset(off))
}
