package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

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
	f.now = f.now.Add(timing.Day)
	if res := f.tick(); res.Digests != 0 {
		t.Errorf("%d digests after alice turned hers off", res.Digests)
	}
	if err := f.st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
}
