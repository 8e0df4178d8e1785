package game

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

func TestTwoDayOutageForfeitsNothing(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d")
	f.now = f.now.Add(3*timing.Day - time.Hour)
	f.tick() // the last heartbeat, an hour before alice's deadline
	// The service is down for two days; when it comes back, it first recovers.
	f.now = f.now.Add(2 * timing.Day)
	f.restart(Config{})
	out, err := f.svc.Recover(f.now, 5*time.Minute)
	if err != nil || out.End.Sub(out.Start) != 2*timing.Day {
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
	if got, want := l.meta.Clocks[0].Budget, 50*timing.Day-time.Hour; got != want {
		t.Errorf("white's budget after the move: %v, want %v (only the hour of play charged)", got, want)
	}
}

// TestClockJumpWhileRunning: a clock that jumps forward while the service
// runs (a suspended machine resumed, an NTP step) is an outage exactly like
// one found at start-up: the sweep that notices it extends every running
// clock by the jump, logs it, and forfeits nothing; the clock then runs on
// from the extended deadline. Jumps within the gap are ordinary time.
func TestClockJumpWhileRunning(t *testing.T) {
	const gap = 5 * time.Minute
	tests := []struct {
		name    string
		jump    time.Duration
		outage  bool
		over    bool   // alice lost on time at the sweep after the jump
		display string // alice's deadline afterwards
	}{
		{"a suspend of two days", 2 * timing.Day, true, false, "Deadline: Thu 26 Nov 2026 09:00 UTC"},
		{"an NTP step of ten minutes", 10 * time.Minute, true, false, "Deadline: Tue 24 Nov 2026 09:10 UTC"},
		{"two minutes, within the gap", 2 * time.Minute, false, false, "Deadline: Tue 24 Nov 2026 09:00 UTC"},
		{"two hours with the check off", 2 * time.Hour, false, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			var logs bytes.Buffer
			cfg := Config{Address: "games@bottlepost.test", OutageGap: gap}
			if tt.over {
				cfg.OutageGap = 0
			}
			svc, err := New(cfg, Options{Store: f.st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{9}),
				Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			f.svc = svc
			startTimed(t, f, "3d") // alice's deadline: Tue 24 Nov 2026 09:00 UTC
			f.now = f.now.Add(3*timing.Day - time.Hour)
			if res := f.tick(); !res.Outage.Start.IsZero() {
				t.Fatalf("a sweep an hour before the deadline found an outage: %+v", res.Outage)
			}
			before := f.now
			f.now = f.now.Add(tt.jump) // the jump: nothing ran in between
			res := f.tick()
			if got := !res.Outage.Start.IsZero(); got != tt.outage {
				t.Fatalf("outage found = %v (%+v), want %v", got, res.Outage, tt.outage)
			}
			if tt.outage {
				if !res.Outage.Start.Equal(before) || !res.Outage.End.Equal(f.now) {
					t.Errorf("outage %v – %v, want %v – %v", res.Outage.Start, res.Outage.End, before, f.now)
				}
				if !strings.Contains(logs.String(), "the clock jumped forward while the service ran") {
					t.Errorf("the jump was not logged:\n%s", logs.String())
				}
			}
			if tt.over {
				assertPhase(t, f, 1, phaseOver)
				return
			}
			assertPhase(t, f, 1, phasePlay)
			f.reply(alice, "board")
			f.mustContain(f.last(alice), tt.display)
			// The clock runs on from the extended deadline, the sweep running
			// every minute (every four with -short, still within the gap):
			// lost on time once it passes.
			left := time.Hour
			if !tt.outage {
				left -= tt.jump
			}
			step := time.Minute
			if testing.Short() {
				step = 4 * time.Minute
			}
			deadline := f.now.Add(left)
			for f.now.Add(step).Before(deadline) {
				f.now = f.now.Add(step)
				if res := f.tick(); !res.Outage.Start.IsZero() {
					t.Fatalf("a sweep %s after the last found an outage: %+v", step, res.Outage)
				}
			}
			assertPhase(t, f, 1, phasePlay)
			f.now = deadline.Add(time.Minute)
			f.tick()
			assertPhase(t, f, 1, phaseOver)
		})
	}
}
