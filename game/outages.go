package game

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Settings names in the store.
const (
	settingHeartbeat = "heartbeat"
	settingOutages   = "outages"
	// settingClockBack is set while the times read from a clock that ran
	// ahead are moved back (clockBack).
	settingClockBack = "clock-set-back"
)

// Outage is a span during which the service was not running. Every clock
// that was running is extended by the time it overlapped.
type Outage struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// mergeSpans sorts spans and joins those that overlap or touch, so no time
// is counted twice (a vacation during an outage).
func mergeSpans(spans []Outage) []Outage {
	s := append([]Outage(nil), spans...)
	sort.Slice(s, func(i, j int) bool { return s[i].Start.Before(s[j].Start) })
	var out []Outage
	for _, o := range s {
		if !o.End.After(o.Start) {
			continue
		}
		if n := len(out); n > 0 && !o.Start.After(out[n-1].End) {
			if o.End.After(out[n-1].End) {
				out[n-1].End = o.End
			}
			continue
		}
		out = append(out, o)
	}
	return out
}

// overlap is how much of [from, to) the merged spans cover.
func overlap(spans []Outage, from, to time.Time) time.Duration {
	var d time.Duration
	for _, o := range spans {
		a, b := o.Start, o.End
		if a.Before(from) {
			a = from
		}
		if b.After(to) {
			b = to
		}
		if b.After(a) {
			d += b.Sub(a)
		}
	}
	return d
}

// stopped is every span in which side's clock stands still: the service's
// outages and the side's vacation, merged.
func (c *clocks) stopped(l *loaded, side int) []Outage {
	spans := append([]Outage(nil), c.outages...)
	if from, until := l.meta.VacationFrom[side], l.meta.Vacation[side]; until.After(from) {
		spans = append(spans, Outage{Start: from, End: until})
	}
	return mergeSpans(spans)
}

// extend pushes a deadline back by the merged spans that began before it,
// for a turn that started at start.
func extend(deadline, start time.Time, spans []Outage) time.Time {
	for _, o := range spans {
		if o.End.After(start) && o.Start.Before(deadline) {
			from := o.Start
			if from.Before(start) {
				from = start
			}
			deadline = deadline.Add(o.End.Sub(from))
		}
	}
	return deadline
}

// load reads the service's outages, once.
func (c *clocks) load(tx *store.Tx) error {
	if c.loaded {
		return nil
	}
	c.loaded = true
	b, err := tx.Setting(settingOutages)
	if err != nil || b == nil {
		return err
	}
	return json.Unmarshal(b, &c.outages)
}

// Heartbeat records that the service is alive at now. Call it regularly
// (Tick does); Recover compares it with the time of a restart.
func (s *Service) Heartbeat(now time.Time) error {
	b, _ := now.UTC().MarshalText()
	if err := s.st.Update(func(tx *store.Tx) error { return tx.PutSetting(settingHeartbeat, b) }); err != nil {
		return &SystemError{Err: err}
	}
	return nil
}

// Recover is called when the service starts: if the last heartbeat is
// older than gap, the time since it counts as an outage and every clock is
// extended by it, before anything is judged late. A heartbeat more than gap
// ahead of now means the clock was set back while the service was down
// (setBack). It returns the outage found (zero when none).
func (s *Service) Recover(now time.Time, gap time.Duration) (Outage, error) {
	out, back, err := s.noticeGap(now, gap)
	if err == nil && !out.Start.IsZero() {
		s.log.Warn("the service was down; every clock is extended", "from", out.Start, "to", out.End, "for", out.End.Sub(out.Start))
	}
	if err == nil {
		err = s.afterSetBack(back)
	}
	return out, err
}

// CheckClock is Recover while the service runs (Config.OutageGap): a
// heartbeat older than the gap means the clock jumped forward, or the
// machine slept, since the last one. That span is recorded as an outage
// exactly as at start-up, logged, and the heartbeat set to now. A heartbeat
// more than the gap ahead of now means the clock was set back (setBack).
// Tick calls it before sweeping; the daemon also calls it between sweeps,
// so the heartbeat stays fresh whatever the sweep's schedule.
func (s *Service) CheckClock(now time.Time) (Outage, error) {
	if s.cfg.OutageGap <= 0 {
		return Outage{}, s.Heartbeat(now)
	}
	out, back, err := s.noticeGap(now, s.cfg.OutageGap)
	if err != nil {
		return out, err
	}
	if err := s.afterSetBack(back); err != nil {
		return out, err
	}
	if !out.Start.IsZero() {
		s.log.Warn("the clock jumped forward while the service ran (a suspend, or a clock step); every clock is extended",
			"from", out.Start, "to", out.End, "for", out.End.Sub(out.Start))
		return out, nil
	}
	return out, s.Heartbeat(now)
}

// noticeGap records the time since the last heartbeat as an outage when it
// is longer than gap, or sets the clock back (setBack) when the heartbeat
// is more than gap ahead, and then sets the heartbeat to now. It returns
// the outage found and the setting back still to be finished (By zero when
// none).
func (s *Service) noticeGap(now time.Time, gap time.Duration) (Outage, clockBack, error) {
	var (
		found Outage
		back  clockBack
	)
	err := s.st.Update(func(tx *store.Tx) error {
		found, back = Outage{}, clockBack{}
		if b, err := tx.Setting(settingClockBack); err != nil {
			return err
		} else if b != nil && json.Unmarshal(b, &back) != nil {
			back = clockBack{} // unreadable: check-store names it
		}
		b, err := tx.Setting(settingHeartbeat)
		if err != nil || b == nil {
			return err
		}
		var last time.Time
		if err := last.UnmarshalText(b); err != nil {
			return err
		}
		var c clocks
		switch {
		case now.Sub(last) > gap:
			found = Outage{Start: last.UTC(), End: now.UTC()}
			if err := c.load(tx); err != nil {
				return err
			}
			c.outages = append(c.outages, found)
		case last.Sub(now) > gap:
			if err := c.load(tx); err != nil {
				return err
			}
			back = clockBack{By: last.Sub(now), At: now.UTC()} // a walk under way starts again
			c.outages = setBack(c.outages, now, last.Sub(now))
			bb, err := json.Marshal(back)
			if err != nil {
				return err
			}
			if err := tx.PutSetting(settingClockBack, bb); err != nil {
				return err
			}
		default:
			return nil
		}
		outs := c.outages
		// Outages older than a year cannot touch any clock still running.
		for len(outs) > 0 && now.Sub(outs[0].End) > 366*timing.Day {
			outs = outs[1:]
		}
		ob, err := json.Marshal(outs)
		if err != nil {
			return err
		}
		if err := tx.PutSetting(settingOutages, ob); err != nil {
			return err
		}
		nb, _ := now.UTC().MarshalText()
		return tx.PutSetting(settingHeartbeat, nb)
	})
	if err != nil {
		return Outage{}, clockBack{}, &SystemError{Err: err}
	}
	return found, back, nil
}

// clockBack is a clock found set back, while the times read from it when
// it ran ahead are moved back (setBack): game by game, in the order of
// their ids, so that a restart goes on where it stopped.
type clockBack struct {
	By    time.Duration `json:"by"`    // how far it ran ahead, as the last heartbeat tells
	At    time.Time     `json:"at"`    // when it was found
	After uint64        `json:"after"` // the games up to this id are done
}

// setBackTime is t, read from a clock that ran ahead by `by` and was found
// set back at now: an instant after now cannot have been read from the
// right clock, and is moved back by `by` (to now at the latest); an
// instant before now is left as it is.
func setBackTime(t, now time.Time, by time.Duration) time.Time {
	if !t.After(now) {
		return t
	}
	if t = t.Add(-by); t.After(now) {
		return now
	}
	return t
}

// setBack gives back the outages, or the parts of them, that a clock set
// back by `by` at now disowns: a jump forward taken for a suspend whose
// end was read from the clock running ahead. An outage found at start-up
// with the clock ahead keeps the part before it (the service was down
// then).
func setBack(outs []Outage, now time.Time, by time.Duration) []Outage {
	var kept []Outage
	for _, o := range outs {
		o.Start, o.End = setBackTime(o.Start, now, by), setBackTime(o.End, now, by)
		if o.End.After(o.Start) {
			kept = append(kept, o)
		}
	}
	return kept
}

// setBack moves back the instants of the game that were read from a clock
// running ahead (setBackTime): when its turn began, when a side was last
// reminded, when it finished. A vacation's dates are left: they may lie
// ahead by right. It reports whether anything changed.
func (m *gameMeta) setBack(now time.Time, by time.Duration) bool {
	changed := false
	for _, t := range []*time.Time{&m.TurnStart, &m.LastReminder[0], &m.LastReminder[1], &m.Finished} {
		if u := setBackTime(*t, now, by); !u.Equal(*t) {
			*t, changed = u, true
		}
	}
	return changed
}

// rewindBatch is how many games one transaction of a setting back handles.
const rewindBatch = 100

// afterSetBack finishes a setting back of the clock (noticeGap found it
// now, or an earlier one was cut short): it logs it when it is new, and
// moves back the times of every game and digest read from the clock while
// it ran ahead (rewind).
func (s *Service) afterSetBack(back clockBack) error {
	if back.By <= 0 {
		return nil
	}
	if back.After == 0 {
		s.log.Warn("the clock went back: it had run ahead; the times read from it meanwhile are moved back, and every deadline follows the clock as it is now",
			"by", back.By, "at", back.At)
	}
	return s.rewind()
}

// rewind moves back the instants read from a clock that ran ahead (the
// setting settingClockBack), rewindBatch games a transaction, and
// recomputes the deadlines of every game in play (the outages it disowned
// are gone, so the index may hold instants too late); then the digests
// due too late. Instants read after the clock was set right are never
// after now, so a move handled meanwhile is left alone. A game that
// cannot be read is logged and left.
func (s *Service) rewind() error {
	for {
		done := false
		err := s.st.Update(func(tx *store.Tx) error {
			done = false
			b, err := tx.Setting(settingClockBack)
			if err != nil || b == nil {
				done = true
				return err
			}
			var back clockBack
			if err := json.Unmarshal(b, &back); err != nil || back.By <= 0 {
				done = true
				s.log.Error("the record of a clock set back is unreadable; dropped", "err", err)
				return tx.PutSetting(settingClockBack, nil)
			}
			now := s.now().UTC()
			ids, err := tx.GameIDs(false, back.After, false, rewindBatch)
			if err != nil {
				return err
			}
			h := s.internal(tx, now)
			if err := h.clocks.load(tx); err != nil {
				return err
			}
			if len(ids) == 0 {
				done = true
				if err := h.rewindDigests(now); err != nil {
					return err
				}
				return tx.PutSetting(settingClockBack, nil)
			}
			for _, id := range ids {
				back.After = id
				l, err := loadSafely(tx, id)
				if err != nil {
					s.damaged(id, err)
					continue
				}
				if !l.meta.setBack(now, back.By) && l.meta.Phase != phasePlay {
					continue
				}
				if err := h.save(l); err != nil {
					return err
				}
			}
			bb, err := json.Marshal(back)
			if err != nil {
				return err
			}
			return tx.PutSetting(settingClockBack, bb)
		})
		if err != nil {
			return &SystemError{Err: err}
		}
		if done {
			return nil
		}
	}
}

// rewindDigests brings forward the digests due later than their schedule
// gives from now: their time was reckoned from a clock that ran ahead. A
// digest is still sent at most once a local day.
func (h *handling) rewindDigests(now time.Time) error {
	due, err := h.tx.DuePlayers(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 0)
	if err != nil {
		return err
	}
	for _, d := range due {
		if !d.At.After(now) {
			continue
		}
		p, err := h.tx.Player(d.Player)
		if err != nil {
			h.s.log.Error("clock set back: a player's digest left as it was: the player cannot be read", "player", d.Player, "err", err)
			continue
		}
		pm := decodePlayerMeta(p)
		if pm.Digest == nil {
			continue
		}
		sched, err := timing.ParseSchedule(pm.Digest.Spec)
		if err != nil {
			continue
		}
		if next := sched.Next(now).UTC(); !next.IsZero() && next.Before(p.Due) {
			p.Due = next
			if err := h.tx.PutPlayer(p); err != nil {
				return err
			}
		}
	}
	return nil
}
