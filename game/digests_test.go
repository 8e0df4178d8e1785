package game

import (
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/timing"
)

func TestDigestAcrossDaylightSavingChange(t *testing.T) {
	f := newFixture(t, Config{})
	f.now = time.Date(2027, 3, 25, 12, 0, 0, 0, time.UTC)
	startTimed(t, f, "30d")
	f.reply(alice, "timezone Europe/Berlin")
	f.reply(alice, "digest 8")
	f.mustContain(f.last(alice), `schedule "CRON_TZ=Europe/Berlin 0 8 * * *"`, "the next one Fri 26 Mar 2027 08:00 CET")
	// Tick every 20 minutes (every hour with -short) for a week around the change to
	// summer time (28 March).
	step := 20 * time.Minute
	if testing.Short() {
		step = time.Hour
	}
	var got []string
	for end := f.now.Add(7 * timing.Day); f.now.Before(end); f.now = f.now.Add(step) {
		before := len(f.inbox[alice])
		f.tick()
		for _, m := range f.inbox[alice][before:] {
			if strings.Contains(m.Subject, "digest") {
				got = append(got, f.now.In(time.FixedZone("", 0)).Format("Jan 2 15:04Z"))
				f.mustContain(m, "[bp-1] Chess v player 2: YOUR MOVE")
			}
		}
	}
	want := []string{"Mar 26 07:00Z", "Mar 27 07:00Z", "Mar 28 06:00Z", "Mar 29 06:00Z", "Mar 30 06:00Z", "Mar 31 06:00Z", "Apr 1 06:00Z"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("digests at %v, want 08:00 Berlin time daily: %v", got, want)
	}
	// No digest when it is not the player's move.
	f.reply(alice, "e4")
	n := len(f.inbox[alice])
	f.now = f.now.Add(timing.Day)
	f.tick()
	for _, m := range f.inbox[alice][n:] {
		if strings.Contains(m.Subject, "digest") {
			t.Errorf("digest sent although it is not alice's move")
		}
	}
}

func TestDigestAtARepeatedHourIsSentOnce(t *testing.T) {
	f := newFixture(t, Config{})
	f.now = time.Date(2027, 10, 29, 12, 0, 0, 0, time.UTC)
	startTimed(t, f, "30d")
	f.reply(alice, "timezone Europe/Berlin")
	f.reply(alice, "digest 2:30") // 02:30 happens twice on 31 October 2027
	// Every 15 minutes (30 with -short: both 02:30s, 00:30 and 01:30 UTC, are still met).
	step := 15 * time.Minute
	if testing.Short() {
		step = 30 * time.Minute
	}
	digests := 0
	for end := f.now.Add(4 * timing.Day); f.now.Before(end); f.now = f.now.Add(step) {
		before := len(f.inbox[alice])
		f.tick()
		for _, m := range f.inbox[alice][before:] {
			if strings.Contains(m.Subject, "digest") {
				digests++
			}
		}
	}
	if digests != 4 {
		t.Errorf("%d digests in four days at 02:30 across the change to winter time, want 4", digests)
	}
}

func TestDigestCommandValidation(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	tests := []struct{ arg, want string }{
		{"25", "is not a time of day"},
		{"TZ=", "is not a schedule"},
		{"CRON_TZ=UTC", "is not a schedule"},
		{"CRON_TZ=Nowhere/Land 0 8 * * *", "is not a schedule"},
		{"0 8 * * * * *", "is not a schedule"},
		{"0 8 * * 1-5", `schedule "CRON_TZ=UTC 0 8 * * 1-5"`},
		{"off", "Your daily digest is off."},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			f.send(alice, pa, "d", "digest "+tt.arg)
			f.mustContain(f.last(alice), tt.want)
		})
	}
}
