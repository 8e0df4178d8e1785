package game

import (
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// Open challenges are found through the store's match index: only the ones
// with the same terms are read, oldest first, and the sender's own are
// skipped.
func TestOpenChallengesMatchByTerms(t *testing.T) {
	f := newFixture(t, Config{})
	const carol = "carol@example.com"
	f.send(bob, f.svc.replyAddress(f.svc.accountToken(bob)), "new", "new chess time 5d")
	f.send(bob, f.svc.replyAddress(f.svc.accountToken(bob)), "new", "new chess time 7d")
	f.send(carol, f.svc.replyAddress(f.svc.accountToken(carol)), "new", "new chess time 9d")
	// Bob's own 7-day challenge is not matched with bob: a second one waits.
	f.send(bob, f.svc.replyAddress(f.svc.accountToken(bob)), "new", "new chess time 7d")
	f.mustContain(f.last(bob), "open challenge")
	listed := func(match string) []uint64 {
		var ids []uint64
		f.st.View(func(tx *store.Tx) (err error) { ids, err = tx.Matching(match, 0); return err })
		return ids
	}
	if ids := listed(openMatch("chess", "fide", "7d", false)); len(ids) != 2 {
		t.Fatalf("7-day challenges listed: %v", ids)
	}
	// Alice takes the oldest 7-day challenge: bob's first (game 2).
	before := f.st.Stats().GamesRead
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "new", "new chess time 7d")
	if n := f.st.Stats().GamesRead - before; n > 10 {
		t.Errorf("matching read %d game records", n)
	}
	f.mustContain(f.last(alice), "The game has begun")
	f.mustContain(f.last(bob), "The game has begun", "alice@example.org")
	if ids := listed(openMatch("chess", "fide", "7d", false)); len(ids) != 1 || ids[0] != 4 {
		t.Errorf("7-day challenges left: %v, want bob's second (4)", ids)
	}
	if ids := listed(openMatch("chess", "fide", "9d", false)); len(ids) != 1 || ids[0] != 3 {
		t.Errorf("9-day challenges: %v, want carol's (3)", ids)
	}
	if ids := listed(openMatch("chess", "fide", "5d", false)); len(ids) != 1 {
		t.Errorf("5-day challenges: %v", ids)
	}
	if err := f.st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
}

// A database from before the match index holds open challenges without a
// match key: the first new without an opponent lists them (once) and finds
// them.
func TestOpenChallengesOfAnOlderVersionAreListed(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(bob, f.svc.replyAddress(f.svc.accountToken(bob)), "new", "new chess time 5d")
	f.send(eve, f.svc.replyAddress(f.svc.accountToken(eve)), "new", "new chess vs "+alice) // a challenge, not open
	// Make it look as an older version wrote it.
	err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		g.Match = ""
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return tx.PutSetting(settingOpenListed, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "new", "new chess time 5d")
	f.mustContain(f.last(alice), "The game has begun")
	f.mustContain(f.last(bob), "The game has begun")
	f.st.View(func(tx *store.Tx) error {
		if b, _ := tx.Setting(settingOpenListed); b == nil {
			t.Error("the listing is not recorded as done")
		}
		if g, _ := tx.Game(2); g.Match != "" {
			t.Errorf("a direct challenge got a match key %q", g.Match)
		}
		return nil
	})
	// Once listed, the next open challenge reads no other game.
	before := f.st.Stats().GamesRead
	f.send(eve, f.svc.replyAddress(f.svc.accountToken(eve)), "new", "new chess time 9d")
	if n := f.st.Stats().GamesRead - before; n > 6 {
		t.Errorf("an open challenge read %d game records after the listing", n)
	}
}
