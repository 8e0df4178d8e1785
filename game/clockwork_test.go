package game

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// restart builds a second service on the same store, as after a restart:
// nothing held in memory survives.
func (f *fixture) restart(cfg Config) {
	f.t.Helper()
	if cfg.Address == "" {
		cfg.Address = "games@bottlepost.test"
	}
	svc, err := New(cfg, Options{Store: f.st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{9})})
	if err != nil {
		f.t.Fatal(err)
	}
	f.svc = svc
}

func (f *fixture) tick() TickResult {
	f.t.Helper()
	res, err := f.svc.Tick(f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	f.drain()
	return res
}

// startTimed starts a chess game with the given time control; alice (White) is to move.
func startTimed(t *testing.T, f *fixture, tc string) {
	t.Helper()
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white time "+tc)
	f.reply(bob, "accept")
}

func count(f *fixture, addr, text string) int {
	n := 0
	for _, m := range f.inbox[addr] {
		if strings.Contains(m.Text, text) {
			n++
		}
	}
	return n
}

func TestRemindersSentOnceEvenAfterRestart(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "7d")
	const half, dayBefore = "half of your time for this move is gone", "your move is due within a day"
	f.now = f.now.Add(3*Day + 11*time.Hour)
	if r := f.tick(); r.Reminders != 0 || count(f, alice, half) != 0 {
		t.Fatalf("reminder before half time: %+v", r)
	}
	f.now = f.now.Add(2 * time.Hour) // 3.5 days gone
	f.tick()
	if n := count(f, alice, half); n != 1 {
		t.Fatalf("half-time reminders: %d, want 1", n)
	}
	f.tick()
	f.restart(Config{})
	f.tick()
	f.now = f.now.Add(time.Hour)
	f.tick()
	if n := count(f, alice, half); n != 1 {
		t.Errorf("half-time reminder sent %d times across ticks and a restart", n)
	}
	f.now = f.now.Add(2*Day + 12*time.Hour) // 6 days gone: one day left
	f.tick()
	f.restart(Config{})
	f.tick()
	if n := count(f, alice, dayBefore); n != 1 {
		t.Errorf("day-before reminders: %d, want 1", n)
	}
	if n := count(f, bob, "Reminder"); n != 0 {
		t.Errorf("the waiting side was reminded %d times", n)
	}
	// A move starts a new turn: bob is reminded in his turn, alice not again.
	f.reply(alice, "e4")
	f.now = f.now.Add(4 * Day)
	f.tick()
	if count(f, bob, half) != 1 || count(f, alice, half) != 1 {
		t.Errorf("after the move: bob %d, alice %d half-time reminders", count(f, bob, half), count(f, alice, half))
	}
}

func TestAtMostOneReminderPerDay(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d") // half time after 36 h, the day-before mark 12 h later
	f.now = f.now.Add(36 * time.Hour)
	f.tick()
	f.now = f.now.Add(12 * time.Hour)
	f.tick()
	if n := count(f, alice, "Reminder"); n != 1 {
		t.Errorf("%d reminders within a day, want 1", n)
	}
}

func TestTimeoutLossPolicy(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}})
	startTimed(t, f, "2d+1d")
	f.now = f.now.Add(3*Day - time.Minute)
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.now = f.now.Add(2 * time.Minute)
	if r := f.tick(); r.Timeouts != 1 {
		t.Fatalf("tick after the deadline (with grace): %+v", r)
	}
	f.mustContain(f.last(alice), "Black wins: White lost on time")
	f.mustContain(f.last(bob), "Black wins: White lost on time")
	f.mustContain(f.last(ref), "White (alice@example.org) let the deadline pass")
}

func TestTimeoutNotifyPolicy(t *testing.T) {
	f := newFixture(t, Config{TimeoutPolicy: TimeoutNotify})
	startTimed(t, f, "1d")
	f.reply(bob, "claim")
	f.mustContain(f.last(bob), "there is nothing to claim")
	f.now = f.now.Add(Day + time.Minute)
	f.tick()
	f.mustContain(f.last(bob), "White's deadline has passed. Reply claim to win on time")
	f.mustContain(f.last(alice), "Your deadline has passed")
	// The late move still counts if it comes first; then the claim is void.
	f.reply(alice, "e4")
	f.reply(alice, "claim")
	f.mustContain(f.last(alice), "there is nothing to claim")
	f.now = f.now.Add(Day + time.Minute)
	f.tick()
	f.reply(alice, "claim")
	f.mustContain(f.last(alice), "White wins: Black lost on time (claimed)")
}

func TestVacationStopsTheClock(t *testing.T) {
	f := newFixture(t, Config{VacationDays: 5})
	startTimed(t, f, "2d")
	f.reply(alice, "vacation 3 days")
	f.mustContain(f.last(bob), "White is on vacation until")
	f.now = f.now.Add(4 * Day) // past the old deadline, within the new one (3 + 2 days)
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.reply(alice, "vacation 3 days")
	f.mustContain(f.last(alice), "you have 2 vacation days left this year (of 5); you asked for 3")
	f.now = f.now.Add(Day + time.Minute)
	f.tick()
	assertPhase(t, f, 1, phaseOver)
	// A new year brings a new allowance.
	f.now = time.Date(2027, 1, 2, 9, 0, 0, 0, time.UTC)
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "v", "vacation 5 days")
	f.mustContain(f.last(alice), "You have 0 vacation days left this year")
}

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

func TestDigestAcrossDaylightSavingChange(t *testing.T) {
	f := newFixture(t, Config{})
	f.now = time.Date(2027, 3, 25, 12, 0, 0, 0, time.UTC)
	startTimed(t, f, "30d")
	f.reply(alice, "timezone Europe/Berlin")
	f.reply(alice, "digest 8")
	f.mustContain(f.last(alice), `schedule "CRON_TZ=Europe/Berlin 0 8 * * *"`, "the next one Fri 26 Mar 2027 08:00 CET")
	// Tick every 20 minutes for a week around the change to summer time (28 March).
	var got []string
	for end := f.now.Add(7 * Day); f.now.Before(end); f.now = f.now.Add(20 * time.Minute) {
		before := len(f.inbox[alice])
		f.tick()
		for _, m := range f.inbox[alice][before:] {
			if strings.Contains(m.Subject, "digest") {
				got = append(got, f.now.In(time.FixedZone("", 0)).Format("Jan 2 15:04Z"))
				f.mustContain(m, "[bp-1] Chess v bob@example.net: YOUR MOVE")
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
	f.now = f.now.Add(Day)
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
	digests := 0
	for end := f.now.Add(4 * Day); f.now.Before(end); f.now = f.now.Add(15 * time.Minute) {
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

func assertPhase(t *testing.T, f *fixture, id uint64, want string) {
	t.Helper()
	var l *loaded
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		l, err = load(tx, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if l.meta.Phase != want {
		t.Errorf("game %d is in phase %s, want %s", id, l.meta.Phase, want)
	}
}

func TestLateVacationRefundsNothingUsed(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d") // alice's deadline: Tue 24 Nov 09:00
	f.now = f.now.Add(71 * time.Hour)
	f.reply(alice, "vacation 1 days")
	f.reply(alice, "board")
	// The day of vacation is added; the 71 hours already used stay used.
	f.mustContain(f.last(alice), "Deadline: Wed 25 Nov 2026 09:00 UTC")
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

func TestDamagedGameDoesNotStopTheOthers(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "1d")                                                                                     // game 1
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "n", "new chess vs "+eve+" as white time 1d") // game 2
	f.reply(eve, "accept")
	// Game 1's service data is damaged on disk.
	if err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		g.Meta = []byte("{not json")
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(Day + time.Minute)
	res := f.tick()
	if res.Failed != 1 || res.Timeouts != 1 {
		t.Errorf("tick: %+v, want game 1 failed and game 2 timed out", res)
	}
	assertPhase(t, f, 2, phaseOver)
	// Listing games and open challenges still work for everyone.
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "g", "games")
	f.mustContain(f.last(alice), "You have no games in progress")
	pb := f.personal(bob)
	f.send(bob, pb, "n", "new chess")
	f.mustContain(f.last(bob), "open challenge")
}

// Older versions kept every digest schedule in one setting; a tick moves them
// to the players (their service data and deadlines) once, and the digests go
// on as scheduled.
func TestDigestsOfAnOlderVersionAreMoved(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "30d")
	var aliceID, bobID uint64
	err := f.st.Update(func(tx *store.Tx) error {
		a, err := tx.PlayerByAddress(alice)
		if err != nil {
			return err
		}
		b, err := tx.PlayerByAddress(bob)
		if err != nil {
			return err
		}
		aliceID, bobID = a.ID, b.ID
		legacy := fmt.Sprintf(`{"%d":{"spec":"CRON_TZ=UTC 0 10 * * *","next":"2026-11-21T10:00:00Z"},`+
			`"%d":{"spec":"CRON_TZ=UTC 0 11 * * *","next":"2026-11-21T11:00:00Z","last_day":"2026-11-20"},"999":{"spec":"x"}}`, a.ID, b.ID)
		return tx.PutSetting(settingDigests, []byte(legacy))
	})
	if err != nil {
		t.Fatal(err)
	}
	f.now = time.Date(2026, 11, 21, 10, 0, 30, 0, time.UTC)
	if res := f.tick(); res.Digests != 1 {
		t.Errorf("first tick after the upgrade sent %d digests, want alice's", res.Digests)
	}
	f.mustContain(f.last(alice), "Your daily digest", "YOUR MOVE")
	f.st.View(func(tx *store.Tx) error {
		if b, _ := tx.Setting(settingDigests); b != nil {
			t.Errorf("the old setting is still there: %s", b)
		}
		a, _ := tx.Player(aliceID)
		b, _ := tx.Player(bobID)
		if !a.Due.Equal(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) || !b.Due.Equal(time.Date(2026, 11, 21, 11, 0, 0, 0, time.UTC)) {
			t.Errorf("deadlines alice %v, bob %v", a.Due, b.Due)
		}
		if pm := decodePlayerMeta(b); pm.Digest == nil || pm.Digest.Spec != "CRON_TZ=UTC 0 11 * * *" || pm.Digest.LastDay != "2026-11-20" {
			t.Errorf("bob's schedule %+v", pm.Digest)
		}
		return nil
	})
	// Bob's digest comes at 11:00 (it is not his move: no mail, but the schedule moves on).
	f.now = f.now.Add(time.Hour)
	if res := f.tick(); res.Digests != 0 {
		t.Errorf("%d digests at 11:00, want none (not bob's move)", res.Digests)
	}
	f.reply(alice, "digest off")
	f.now = f.now.Add(Day)
	if res := f.tick(); res.Digests != 0 {
		t.Errorf("%d digests after alice turned hers off", res.Digests)
	}
	if err := f.st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
}
