package game

import (
	"testing"
)

func TestGamesTimezoneVacation(t *testing.T) {
	f := newFixture(t, Config{VacationDays: 10})
	startChess(t, f)
	f.reply(bob, "timezone Europe/Berlin")
	f.mustContain(f.last(bob), "Deadlines will be shown in Europe/Berlin")
	f.reply(alice, "e4")
	f.mustContain(f.last(bob), "Deadline: Tue 24 Nov 2026 10:00 CET (UTC+01:00)")
	f.reply(bob, "timezone Mars/Olympus")
	f.mustContain(f.last(bob), "is not a time zone name")
	f.reply(bob, "vacation 4 days")
	f.mustContain(f.last(bob), "6 vacation days left")
	f.mustContain(f.last(alice), "Black is on vacation until")
	f.reply(bob, "games")
	f.mustContain(f.last(bob), "[bp-1] Chess v player 1 (1500?) as Black: YOUR MOVE (1...), deadline Sat 28", "Nov 2026 10:00 CET")
	f.reply(bob, "vacation 7 days")
	f.mustContain(f.last(bob), "you have 6 vacation days left this year (of 10); you asked for 7")
}
