package game

import (
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

func TestTwoDayOutageForfeitsNothing(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d")
	f.now = f.now.Add(3*Day - time.Hour)
	f.tick() // the last heartbeat, an hour before alice's deadline
	// The service is down for two days; when it comes back, it first recovers.
	f.now = f.now.Add(2 * Day)
	f.restart(Config{})
	out, err := f.svc.Recover(f.now, 5*time.Minute)
	if err != nil || out.End.Sub(out.Start) != 2*Day {
		t.Fatalf("outage found: %+v, %v", out, err)
	}
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.reply(alice, "board")
	f.mustContain(f.last(alice), "Deadline: Thu 26 Nov 2026 09:00 UTC") // 3 days + the 2 lost
	f.now = f.now.Add(59 * time.Minute)
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.now = f.now.Add(2 * time.Minute)
	f.tick()
	assertPhase(t, f, 1, phaseOver)
	// A short pause (below the gap) is no outage.
	f2 := newFixture(t, Config{})
	f2.tick()
	f2.now = f2.now.Add(time.Minute)
	if out, _ := f2.svc.Recover(f2.now, 5*time.Minute); !out.Start.IsZero() {
		t.Errorf("a one-minute pause counted as an outage: %+v", out)
	}
}

func TestOutagesAndVacationsAreNotChargedToICCFClocks(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "10/50d")
	f.tick()
	f.now = f.now.Add(48 * time.Hour)
	f.restart(Config{})
	if _, err := f.svc.Recover(f.now, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(time.Hour)
	f.reply(alice, "e4") // 49 hours after the turn began, 48 of them an outage
	var l *loaded
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		l, err = load(tx, 1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := l.meta.Clocks[0].Budget, 50*Day-time.Hour; got != want {
		t.Errorf("white's budget after the move: %v, want %v (only the hour of play charged)", got, want)
	}
}
