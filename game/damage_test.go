package game

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/boltdamage"
	"github.com/bottlepost/bottlepost/store"
)

// TestDamagedPageOfOneGame: a damaged page in one game's log (bbolt panics
// on it) gets each mail about that game an apology, is logged once, and
// marks the mail processed (it is not retried forever); the other game
// plays on.
func TestDamagedPageOfOneGame(t *testing.T) {
	f := newFixture(t, Config{})
	var logs bytes.Buffer
	svc, err := New(Config{Address: "games@bottlepost.test"}, Options{Store: f.st, Clock: func() time.Time { return f.now },
		Rand: rand.NewChaCha8([32]byte{5}), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	startChess(t, f) // game 1: alice v bob
	const dave = "dave@example.org"
	register(f, dave)
	f.send(eve, register(f, eve), "new", "new chess vs "+dave+" as white")
	f.reply(dave, "accept") // game 2: eve v dave
	// Game 2's log grows over many pages (events the service never reads here).
	if err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(2)
		if err != nil {
			return err
		}
		for i := range 300 {
			if _, err = tx.Append(g, store.Entry{Kind: store.KindEvent, Side: store.White, Text: fmt.Sprintf("padding %d %s", i, strings.Repeat("p", 60)),
				Public: "padding", At: f.now}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := boltdamage.LastLeafOf(f.st.Path(), binary.BigEndian.AppendUint64(nil, 2)); err != nil {
		t.Fatal(err)
	}
	seat := f.last(eve).ReplyTo
	for i, move := range []string{"e4", "d4"} {
		n := len(f.inbox[eve])
		res := f.send(eve, seat, "Re: [bp-2]", move)
		if res.Refused != "game 2 is damaged" || res.Mails != 1 {
			t.Fatalf("move %d in the damaged game: %+v", i, res)
		}
		mustSay(t, f, eve, n, "Sorry: game 2 cannot be played at the moment", "Nothing in your mail was done")
		if len(f.inbox[dave]) != 4 { // welcome, games, invitation, start of the game
			t.Errorf("dave got %d mails", len(f.inbox[dave]))
		}
	}
	if n := strings.Count(logs.String(), "game damaged"); n != 1 {
		t.Errorf("the damage was logged %d times, want once:\n%s", n, logs.String())
	}
	// The redelivered mail is a duplicate: it was handled (with the apology).
	if res := f.sendID(fmt.Sprintf("in%d@client.test", f.seq), eve, seat, "Re: [bp-2]", "d4"); !res.Duplicate {
		t.Errorf("the apologised mail is not marked processed: %+v", res)
	}
	// Game 1 plays on.
	f.reply(alice, "e4")
	f.mustContain(f.last(bob), "White played 1. e4.")
	f.reply(bob, "e5")
	f.mustContain(f.last(alice), "Black played 1... e5.")
}
