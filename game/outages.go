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
// extended by it, before anything is judged late. It returns the outage
// found (zero when none).
func (s *Service) Recover(now time.Time, gap time.Duration) (Outage, error) {
	out, err := s.noticeGap(now, gap)
	if err == nil && !out.Start.IsZero() {
		s.log.Warn("the service was down; every clock is extended", "from", out.Start, "to", out.End, "for", out.End.Sub(out.Start))
	}
	return out, err
}

// CheckClock is Recover while the service runs (Config.OutageGap): a
// heartbeat older than the gap means the clock jumped forward, or the
// machine slept, since the last one. That span is recorded as an outage
// exactly as at start-up, logged, and the heartbeat set to now. Tick calls
// it before sweeping; the daemon also calls it between sweeps, so the
// heartbeat stays fresh whatever the sweep's schedule.
func (s *Service) CheckClock(now time.Time) (Outage, error) {
	if s.cfg.OutageGap <= 0 {
		return Outage{}, s.Heartbeat(now)
	}
	out, err := s.noticeGap(now, s.cfg.OutageGap)
	if err != nil {
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
// is longer than gap, and sets the heartbeat to now.
func (s *Service) noticeGap(now time.Time, gap time.Duration) (Outage, error) {
	var found Outage
	err := s.st.Update(func(tx *store.Tx) error {
		found = Outage{}
		b, err := tx.Setting(settingHeartbeat)
		if err != nil || b == nil {
			return err
		}
		var last time.Time
		if err := last.UnmarshalText(b); err != nil {
			return err
		}
		if now.Sub(last) <= gap {
			return nil
		}
		found = Outage{Start: last.UTC(), End: now.UTC()}
		var c clocks
		if err := c.load(tx); err != nil {
			return err
		}
		outs := append(c.outages, found)
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
		return Outage{}, &SystemError{Err: err}
	}
	return found, nil
}
