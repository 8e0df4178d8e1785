package game

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

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
			return "", userf("%q is not a time of day (write digest 8, digest 18:30 or digest off)", arg)
		}
		return fmt.Sprintf("CRON_TZ=%s %d %d * * *", tz, min, hour), nil
	}
	if !strings.HasPrefix(arg, "CRON_TZ=") && !strings.HasPrefix(arg, "TZ=") {
		arg = "CRON_TZ=" + tz + " " + arg
	}
	return arg, nil
}

// digest sets or clears the sender's daily digest.
func (h *handling) digest(c Command, reply *draft) error {
	if err := h.moveDigests(); err != nil {
		return err
	}
	if strings.EqualFold(c.Arg, "off") {
		h.pmeta.Digest = nil
		h.player.Due = time.Time{}
		reply.notice("Your daily digest is off.")
		return h.savePlayer()
	}
	spec, err := digestSpec(c.Arg, h.pmeta.TZ)
	if err != nil {
		return err // a userError
	}
	sched, err := timing.ParseSchedule(spec)
	if err != nil {
		return playerError(err)
	}
	next := sched.Next(h.now)
	if next.IsZero() {
		return userf("the schedule %q never fires", spec)
	}
	h.pmeta.Digest = &digestSchedule{Spec: spec}
	h.player.Due = next.UTC()
	reply.notice("You will get a digest of the games where it is your move (schedule %q); the next one %s.",
		spec, timing.FormatDate(next.In(h.pmeta.location()), "Mon 2 Jan 2006 15:04 MST", reply.lang))
	return h.savePlayer()
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
			if err := h.clocks.load(tx); err != nil {
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
	sched, err := timing.ParseSchedule(pm.Digest.Spec)
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
	lg := h.langOf(p.Address)
	for _, id := range pm.Games {
		l := h.listed(id)
		if l == nil || l.meta.Phase != phasePlay {
			continue
		}
		side := l.side(p.ID)
		if side < 0 || int(l.state.ToMove()) != side {
			continue
		}
		lines = append(lines, lg.Tr("[bp-%d] %s v %s: YOUR MOVE (%s), deadline %s", id, l.v.Name(), displayName(l.seats[1-side]), rules.MoveLabel(l.state.Ply()), h.clocks.deadlineIn(l, pm, lg)))
	}
	if len(lines) == 0 {
		return false
	}
	d := h.draft(p.Address, nil, "games")
	d.subject = d.tr("bottlepost: your daily digest")
	d.replyTo = h.s.replyAddress(h.s.accountToken(p.Address))
	d.notice("Your daily digest: the games where it is your move.")
	d.games = lines
	return true
}
