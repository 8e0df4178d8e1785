package game

import (
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/timing"
)

// vacation stops the sender's clocks for N days, within the yearly allowance.
func (h *handling) vacation(c Command, reply *draft) error {
	year := h.now.Year()
	if h.pmeta.Vacation.Year != year {
		h.pmeta.Vacation.Year, h.pmeta.Vacation.Used = year, 0
	}
	left := h.s.cfg.VacationDays - h.pmeta.Vacation.Used
	if c.Days > left {
		return userf("you have %d vacation days left this year (of %d); you asked for %d", left, h.s.cfg.VacationDays, c.Days)
	}
	start := h.now
	if h.pmeta.Vacation.Until.After(start) {
		start = h.pmeta.Vacation.Until
	}
	until := start.Add(time.Duration(c.Days) * timing.Day)
	h.pmeta.Vacation.Used += c.Days
	h.pmeta.Vacation.Until = until
	for _, id := range h.pmeta.Games {
		l := h.listed(id)
		if l == nil {
			continue
		}
		side := l.side(h.player.ID)
		if l.meta.Phase != phasePlay || side < 0 {
			continue
		}
		if l.meta.Vacation[side].Before(start) {
			l.meta.VacationFrom[side] = start // a new vacation; one that continues keeps its start
		}
		l.meta.Vacation[side] = until
		if err := h.save(l); err != nil {
			return err
		}
		od := h.draft(l.seats[1-side].Address, l, "update")
		oppZone := decodePlayerMeta(l.seats[1-side]).location()
		od.notice("%s is on vacation until %s; their clock stands still until then.", lang.Key(l.sides()[side]), timing.FormatDate(until.In(oppZone), "Mon 2 Jan 2006 15:04 MST", od.lang))
	}
	if err := h.savePlayer(); err != nil {
		return err
	}
	reply.notice("Your clocks stand still until %s. You have %d vacation days left this year.",
		timing.FormatDate(until.In(h.pmeta.location()), "Mon 2 Jan 2006 15:04 MST", reply.lang), h.s.cfg.VacationDays-h.pmeta.Vacation.Used)
	return nil
}
