package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// Timeout policies.
const (
	TimeoutLoss   = "loss"   // the late side loses on time at once
	TimeoutNotify = "notify" // both are told; the opponent may claim the win
)

// Settings names in the store.
const (
	settingHeartbeat = "heartbeat"
	settingOutages   = "outages"
	settingDigests   = "digests" // the digest schedules of older versions, moved to the players
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
func (h *handling) stopped(l *loaded, side int) []Outage {
	spans := append([]Outage(nil), h.outages...)
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

func (h *handling) loadOutages() error {
	if h.outagesLoaded {
		return nil
	}
	h.outagesLoaded = true
	b, err := h.tx.Setting(settingOutages)
	if err != nil || b == nil {
		return err
	}
	return json.Unmarshal(b, &h.outages)
}

// turnTimes are the instants of the side to move's turn: when it began
// (after any vacation), the reminders and the deadline, all after outages.
type turnTimes struct {
	start, half, dayBefore, deadline time.Time
}

func (h *handling) turn(l *loaded) turnTimes {
	tc, _ := ParseTimeControl(l.meta.Time)
	side := int(l.state.ToMove())
	start := l.meta.TurnStart
	base := tc.Deadline(l.meta.Clocks[side], start)
	dl := extend(base, start, h.stopped(l, side))
	t := turnTimes{start: start, deadline: dl}
	t.half = start.Add(dl.Sub(start) / 2)
	if before := h.s.cfg.ReminderBefore; before > 0 && dl.Sub(start) > before {
		t.dayBefore = dl.Add(-before)
	}
	return t
}

// deadlines is the deadline index entries a game in play needs: the
// reminders not yet sent and the timeout.
func (h *handling) deadlines(l *loaded) []store.Deadline {
	if l.meta.Phase != phasePlay || l.meta.TimedOut >= 0 {
		return nil
	}
	t := h.turn(l)
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
	t := h.turn(l)
	side := int(l.state.ToMove())
	switch {
	case !h.now.Before(t.deadline):
		return h.timeout(l, side)
	case !t.dayBefore.IsZero() && !h.now.Before(t.dayBefore) && !l.meta.RemindedDay:
		l.meta.RemindedDay, l.meta.RemindedHalf = true, true
		h.remind(l, side, t, "Reminder: your move is due within a day.")
	case !h.now.Before(t.half) && !l.meta.RemindedHalf:
		l.meta.RemindedHalf = true
		h.remind(l, side, t, "Reminder: half of your time for this move is gone.")
	}
	return h.save(l)
}

// remind mails the side to move, at most once a day per player and game.
func (h *handling) remind(l *loaded, side int, t turnTimes, text string) {
	if last := l.meta.LastReminder[side]; !last.IsZero() && h.now.Sub(last) < Day {
		return
	}
	l.meta.LastReminder[side] = h.now
	d := h.draft(l.seats[side].Address, l, "update")
	d.notices = append(d.notices, text)
	d.board = true
}

// timeout applies the timeout policy to the side that let its deadline pass.
func (h *handling) timeout(l *loaded, side int) error {
	sides := l.sides()
	for _, r := range h.s.cfg.Referees {
		d := h.draft(r, l, "notice")
		d.notices = append(d.notices, fmt.Sprintf("Game %d: %s (%s) let the deadline pass; policy %q.", l.g.ID, sides[side], l.seats[side].Address, h.s.cfg.TimeoutPolicy))
	}
	if h.s.cfg.TimeoutPolicy == TimeoutNotify {
		l.meta.TimedOut = side
		d := h.draft(l.seats[1-side].Address, l, "update")
		d.notices = append(d.notices, fmt.Sprintf("%s's deadline has passed. Reply claim to win on time, or wait for the move.", sides[side]))
		d2 := h.draft(l.seats[side].Address, l, "update")
		d2.notices = append(d2.notices, fmt.Sprintf("Your deadline has passed. %s may now claim the game on time; your move still counts if it comes first.", sides[1-side]))
		d2.board = true
		return h.save(l)
	}
	return h.finish(l, rules.Outcome{Status: rules.Win, Winner: rules.Side(1 - side), Reason: sides[side] + " lost on time"})
}

// claim lets the opponent of a side whose deadline passed win on time
// (TimeoutNotify policy).
func (h *handling) claim(l *loaded, side int) error {
	if l.meta.Phase != phasePlay {
		return h.notPlaying(l)
	}
	if l.meta.TimedOut != 1-side {
		return userf("there is nothing to claim: %s's deadline has not passed", l.sides()[1-side])
	}
	return h.finish(l, rules.Outcome{Status: rules.Win, Winner: rules.Side(side), Reason: l.sides()[1-side] + " lost on time (claimed)"})
}

// digestSchedule is a player's daily digest, kept in the player's service
// data; when it is next due is the store's Player.Due, so that a tick finds
// the players due in the store's player deadline index without reading the
// others.
type digestSchedule struct {
	Spec    string `json:"spec"`
	LastDay string `json:"last_day,omitempty"` // the local date of the last digest
}

// digestEntry is one player's digest schedule as older versions kept it: all
// of them in one setting (settingDigests), read and written whole by every
// tick and every digest command. moveDigests moves them to the players.
type digestEntry struct {
	Spec    string    `json:"spec"`
	Next    time.Time `json:"next"`
	LastDay string    `json:"last_day,omitempty"` // the local date of the last digest
}

// parseCron validates a user-given cron expression without letting the
// library panic on malformed input.
func parseCron(spec string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("game: %q is not a schedule (%v)", spec, r)
		}
	}()
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("game: %q is not a schedule: %w", spec, err)
	}
	return sched, nil
}

var timeOfDay = regexp.MustCompile(`^\d{1,2}(:\d{2})?$`)

// digestSpec turns the argument of the digest command into a cron spec in
// the player's zone: "8" (08:00 daily), "18:30", or a cron expression.
func digestSpec(arg string, tz string) (string, error) {
	if tz == "" {
		tz = "UTC"
	}
	if timeOfDay.MatchString(arg) {
		h, m, _ := strings.Cut(arg, ":")
		hour, _ := strconv.Atoi(h)
		min := 0
		if m != "" {
			min, _ = strconv.Atoi(m)
		}
		if hour > 23 || min > 59 {
			return "", fmt.Errorf("game: %q is not a time of day (write digest 8, digest 18:30 or digest off)", arg)
		}
		return fmt.Sprintf("CRON_TZ=%s %d %d * * *", tz, min, hour), nil
	}
	if !strings.HasPrefix(arg, "CRON_TZ=") && !strings.HasPrefix(arg, "TZ=") {
		arg = "CRON_TZ=" + tz + " " + arg
	}
	return arg, nil
}

// moveDigests moves the digest schedules an older version kept in one
// setting to the players' service data and deadlines, and deletes the
// setting: once, after an upgrade.
func (h *handling) moveDigests() error {
	b, err := h.tx.Setting(settingDigests)
	if err != nil || b == nil {
		return err
	}
	m := map[string]*digestEntry{}
	if err := json.Unmarshal(b, &m); err != nil {
		// Unreadable, they would stop every tick before its heartbeat: the players
		// set their digests again.
		h.s.log.Error("digest schedules of an older version dropped: unreadable", "err", err)
		return h.tx.PutSetting(settingDigests, nil)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := m[k]
		id, err := strconv.ParseUint(k, 10, 64)
		if err != nil || e == nil {
			continue
		}
		p, err := h.tx.Player(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		pm := decodePlayerMeta(p)
		pm.Digest = &digestSchedule{Spec: e.Spec, LastDay: e.LastDay}
		p.Due = e.Next.UTC()
		if y := p.Due.Year(); y < 1970 || y > 9999 {
			p.Due = h.now // due at once: the tick computes the next one from the schedule
		}
		p.Meta = pm.encode()
		if err := h.tx.PutPlayer(p); err != nil {
			return err
		}
		if h.player != nil && h.player.ID == id {
			h.player, h.pmeta = p, pm // the sender's copy must not undo it
		}
	}
	h.s.log.Info("digest schedules moved to the players", "players", len(keys))
	return h.tx.PutSetting(settingDigests, nil)
}

// digest sets or clears the sender's daily digest.
func (h *handling) digest(c Command, reply *draft) error {
	if err := h.moveDigests(); err != nil {
		return err
	}
	if strings.EqualFold(c.Arg, "off") {
		h.pmeta.Digest = nil
		h.player.Due = time.Time{}
		reply.notices = append(reply.notices, "Your daily digest is off.")
		return h.savePlayer()
	}
	spec, err := digestSpec(c.Arg, h.pmeta.TZ)
	if err != nil {
		return userf("%s", strings.TrimPrefix(err.Error(), "game: "))
	}
	sched, err := parseCron(spec)
	if err != nil {
		return userf("%s", strings.TrimPrefix(err.Error(), "game: "))
	}
	next := sched.Next(h.now)
	if next.IsZero() {
		return userf("the schedule %q never fires", spec)
	}
	h.pmeta.Digest = &digestSchedule{Spec: spec}
	h.player.Due = next.UTC()
	reply.notices = append(reply.notices, fmt.Sprintf("You will get a digest of the games where it is your move (schedule %q); the next one %s.",
		spec, next.In(h.pmeta.location()).Format("Mon 2 Jan 2006 15:04 MST")))
	return h.savePlayer()
}

// TickResult counts what a tick did.
type TickResult struct {
	Reminders, Timeouts, Digests, Games int
	// Failed counts games that could not be handled (logged).
	Failed int
}

// Tick does the time-driven work due at now: reminders and timeouts from
// the deadline index, and daily digests. Each game is handled in its own
// transaction, so a tick never holds the store for long and a crash
// mid-tick repeats nothing that was committed.
func (s *Service) Tick(now time.Time) (TickResult, error) {
	now = now.UTC()
	var res TickResult
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
			if err := h.loadOutages(); err != nil {
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
				s.log.Error("sweep: game skipped", "game", d.Game, "err", err)
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
	if err := s.Heartbeat(now); err != nil {
		return res, err
	}
	return res, nil
}

// internal is a handling with no incoming message, for time-driven work.
func (s *Service) internal(tx *store.Tx, now time.Time) *handling {
	return &handling{s: s, tx: tx, in: &Incoming{}, quiet: func() bool { return false }, now: now, drafts: map[draftKey]*draft{}}
}

// digestBatch is how many players' digests one transaction sends at most.
const digestBatch = 100

// sendDigests sends the digests due at now: it finds the players due in the
// store's player deadline index (nothing else is read when none is due) and
// sends them in transactions of at most digestBatch players.
func (s *Service) sendDigests(now time.Time) (int, error) {
	sent := 0
	for {
		var (
			due    []store.PlayerDue
			legacy bool
		)
		err := s.st.View(func(tx *store.Tx) error {
			b, err := tx.Setting(settingDigests)
			if err != nil {
				return err
			}
			legacy = b != nil
			due, err = tx.DuePlayers(now, digestBatch)
			return err
		})
		if err != nil {
			return sent, &SystemError{Err: err}
		}
		if legacy {
			if err := s.st.Update(func(tx *store.Tx) error { return s.internal(tx, now).moveDigests() }); err != nil {
				return sent, &SystemError{Err: err}
			}
			continue
		}
		if len(due) == 0 {
			return sent, nil
		}
		n, moved := 0, 0
		err = s.st.Update(func(tx *store.Tx) error {
			n, moved = 0, 0
			h := s.internal(tx, now)
			if err := h.loadOutages(); err != nil {
				return err
			}
			for _, d := range due {
				p, err := tx.Player(d.Player)
				if errors.Is(err, store.ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
				if p.Due.IsZero() || p.Due.After(now) {
					continue // changed since
				}
				if h.nextDigest(p, now) {
					n++
				}
				if err := tx.PutPlayer(p); err != nil {
					return err
				}
				moved++
			}
			_, err := h.flush()
			return err
		})
		if err != nil {
			return sent, &SystemError{Err: err}
		}
		sent += n
		if len(due) < digestBatch || moved == 0 {
			return sent, nil // moved == 0: entries nobody can move (Verify reports them)
		}
	}
}

// nextDigest handles a player whose digest is due at now: it queues the
// digest (at most one per local day: a repeated hour when clocks go back) and
// sets when the next is due, or clears the deadline when the player has no
// valid schedule. It reports whether a digest was queued; the caller stores p.
func (h *handling) nextDigest(p *store.Player, now time.Time) bool {
	pm := decodePlayerMeta(p)
	p.Due = time.Time{}
	if pm.Digest == nil {
		return false
	}
	sched, err := parseCron(pm.Digest.Spec)
	if err != nil {
		pm.Digest = nil
		p.Meta = pm.encode()
		return false
	}
	p.Due = sched.Next(now).UTC()
	day := now.In(pm.location()).Format("2006-01-02")
	if pm.Digest.LastDay == day {
		return false
	}
	pm.Digest.LastDay = day
	p.Meta = pm.encode()
	return h.digestFor(p, pm)
}

// digestFor queues a player's digest, listing the games where it is their
// move; it sends nothing when there are none.
func (h *handling) digestFor(p *store.Player, pm *playerMeta) bool {
	var lines []string
	for _, id := range pm.Games {
		l := h.listed(id)
		if l == nil || l.meta.Phase != phasePlay {
			continue
		}
		side := l.side(p.ID)
		if side < 0 || int(l.state.ToMove()) != side {
			continue
		}
		lines = append(lines, fmt.Sprintf("[bp-%d] %s v %s: YOUR MOVE, deadline %s", id, l.v.Name(), l.seats[1-side].Address, h.deadlineText(l, pm)))
	}
	if len(lines) == 0 {
		return false
	}
	d := h.draft(p.Address, nil, "games")
	d.subject = "bottlepost: your daily digest"
	d.replyTo = h.s.replyAddress(h.s.accountToken(p.Address))
	d.notices = append(d.notices, "Your daily digest: the games where it is your move.")
	d.games = lines
	return true
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
	var found Outage
	err := s.st.Update(func(tx *store.Tx) error {
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
		h := s.internal(tx, now)
		if err := h.loadOutages(); err != nil {
			return err
		}
		outs := append(h.outages, found)
		// Outages older than a year cannot touch any clock still running.
		for len(outs) > 0 && now.Sub(outs[0].End) > 366*Day {
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
	if !found.Start.IsZero() {
		s.log.Warn("the service was down; every clock is extended", "from", found.Start, "to", found.End, "for", found.End.Sub(found.Start))
	}
	return found, nil
}
