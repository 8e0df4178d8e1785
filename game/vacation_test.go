package game

import (
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/timing"
)

// TestNoVacations: with no allowance (VacationDays 0, as service.vacation_days 0 in the
// configuration) a vacation is refused and the clock runs on.
func TestNoVacations(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d")
	f.reply(alice, "vacation 1 days")
	f.mustContain(f.last(alice), "you have 0 vacation days left this year (of 0); you asked for 1")
	f.reply(alice, "board")
	f.mustContain(f.last(alice), "Deadline: Tue 24 Nov 2026 09:00 UTC")
}

func TestVacationStopsTheClock(t *testing.T) {
	f := newFixture(t, Config{VacationDays: 5})
	startTimed(t, f, "2d")
	f.reply(alice, "vacation 3 days")
	f.mustContain(f.last(bob), "White is on vacation until")
	f.now = f.now.Add(4 * timing.Day) // past the old deadline, within the new one (3 + 2 days)
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.reply(alice, "vacation 3 days")
	f.mustContain(f.last(alice), "you have 2 vacation days left this year (of 5); you asked for 3")
	f.now = f.now.Add(timing.Day + time.Minute)
	f.tick()
	assertPhase(t, f, 1, phaseOver)
	// A new year brings a new allowance.
	f.now = time.Date(2027, 1, 2, 9, 0, 0, 0, time.UTC)
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "v", "vacation 5 days")
	f.mustContain(f.last(alice), "You have 0 vacation days left this year")
}

func TestLateVacationRefundsNothingUsed(t *testing.T) {
	f := newFixture(t, Config{VacationDays: 30})
	startTimed(t, f, "3d") // alice's deadline: Tue 24 Nov 09:00
	f.now = f.now.Add(71 * time.Hour)
	f.reply(alice, "vacation 1 days")
	f.reply(alice, "board")
	// The day of vacation is added; the 71 hours already used stay used.
	f.mustContain(f.last(alice), "Deadline: Wed 25 Nov 2026 09:00 UTC")
}
