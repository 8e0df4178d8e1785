package game

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
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

// TestDamagedGameInThePublicList: a game whose service data no longer decodes
// is left out of the public list, which names it, and logged once; the other
// game is listed. Before issue 38 the list failed as a whole (the web index
// was an HTTP 500). TestDamagedGameDoesNotStopTheOthers has the sweep and the
// games command.
func TestDamagedGameInThePublicList(t *testing.T) {
	f := newFixture(t, Config{})
	var logs bytes.Buffer
	svc, err := New(Config{Address: "games@bottlepost.test"}, Options{Store: f.st, Clock: func() time.Time { return f.now },
		Rand: rand.NewChaCha8([32]byte{5}), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	startChess(t, f) // game 1: alice v bob
	const carol = "carol@example.com"
	f.send(alice, f.personal(alice), "new", "new chess vs "+carol+" as white")
	f.reply(carol, "accept") // game 2: alice v carol
	if err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		g.Meta = g.Meta[:len(g.Meta)/2]
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		list, err := f.svc.PublicGames(false, 0, 10)
		if err != nil {
			t.Fatalf("the public list fails: %v", err)
		}
		if len(list.Games) != 1 || list.Games[0].ID != 2 || len(list.Damaged) != 1 || list.Damaged[0] != 1 {
			t.Errorf("public list: %+v", list)
		}
	}
	if got := strings.Count(logs.String(), "game damaged"); got != 1 || !strings.Contains(logs.String(), "game=1 ") {
		t.Errorf("the damaged game was logged %d times, want once naming game 1:\n%s", got, logs.String())
	}
}

// TestRatingListsPassOverADamagedPlayer: one player's record damaged on disk
// leaves the rating lists (the ratings command, the web's leaderboards) to
// everyone else, without that player; before, the whole list failed.
func TestRatingListsPassOverADamagedPlayer(t *testing.T) {
	const carol, dave = "carol@example.com", "dave@example.com"
	f := newFixture(t, Config{})
	startChess(t, f) // players 1 and 2
	f.reply(alice, "e4")
	f.reply(bob, "e5")
	f.reply(bob, "resign")
	f.send(carol, f.personal(carol), "new", "new chess vs "+dave+" as white") // players 3 and 4
	f.reply(dave, "accept")
	f.reply(carol, "e4")
	f.reply(dave, "e5")
	f.reply(dave, "resign")
	db, key := copyData(t, f)
	if _, err := boltdamage.Value(db, "players", be(3), nil, func(v []byte) []byte { return v[:len(v)/2] }); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db, store.Options{KeyFile: key, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var got map[string][]Standing
	if err := st.View(func(tx *store.Tx) error {
		got, err = poolStandings(tx, func(string) bool { return true })
		return err
	}); err != nil {
		t.Fatalf("one damaged player fails the rating lists: %v", err)
	}
	var ids []uint64
	for _, s := range got["chess"] {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []uint64{1, 2, 4}) {
		t.Errorf("the chess pool lists players %v, want 1, 2 and 4 (3 damaged)", ids)
	}
}
