package game

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/boltdamage"
	"github.com/bottlepost/bottlepost/store"
)

// checkedData plays games of every kind into a store and returns a compacted copy of it
// (the database and its key): game 1 a Seachess game with secret moves (sealed records),
// game 2 a chess game in play whose Black holds a conditional line, game 3 an open
// challenge (the match index), game 4 a finished game (archived as it ends); a player with a digest
// (the player deadline index), a welcome counted and a stranger's held commands, the day's
// invitations to strangers, a heartbeat and an outage, and a mail still in the outbox.
func checkedData(t *testing.T) (db, key string) {
	t.Helper()
	const carol, dave, zed = "carol@example.com", "dave@example.com", "zed@example.com"
	f, _ := seachessGame(t, "Sd1v-e3", "sSe3-f5")
	f.send(carol, f.personal(carol), "new", "new chess vs "+dave+" as white")
	f.reply(dave, "accept")
	f.reply(carol, "e4")
	f.reply(dave, "e5", "if Nf3 then Nc6")
	f.send(carol, f.personal(carol), "new", "new chess time 5d") // game 3, open
	f.send(carol, f.personal(carol), "new", "new chess vs "+dave+" as black")
	f.reply(dave, "accept") // game 4
	f.reply(dave, "resign")
	f.reply(alice, "digest 8")
	f.send(zed, "games@bottlepost.test", "hello", "name Zed") // a welcome, the command held
	if err := f.svc.Heartbeat(f.now); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(2 * time.Hour)
	if _, err := f.svc.Recover(f.now, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	// A mail the outbox still holds: handled, not drained.
	if _, err := f.svc.Handle(&Incoming{MessageID: "left@client.test", From: carol, Recipients: []string{f.personal(carol)}, Lines: []string{"help"}}); err != nil {
		t.Fatal(err)
	}
	return copyData(t, f)
}

// copyData copies the fixture's database (compacted) and its key file to a
// directory of the test's, for a test that damages the file or opens it as
// check-store does.
func copyData(t *testing.T, f *fixture) (db, key string) {
	t.Helper()
	dir := t.TempDir()
	db, key = filepath.Join(dir, "c.db"), filepath.Join(dir, "c.key")
	if err := f.st.Compact(db); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(f.st.Path()), "bp.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return db, key
}

// checkAll is bottlepost check-store's check of a database: the store's and the game
// service's, one line a problem.
func checkAll(t *testing.T, db, key string) []string {
	t.Helper()
	st, err := store.Open(db, store.Options{KeyFile: key, ReadOnly: true})
	if err != nil {
		return []string{err.Error()}
	}
	defer st.Close()
	var lines []string
	for _, err := range append(store.Problems(st.Verify(context.Background())), store.Problems(Check(context.Background(), st))...) {
		if !errors.Is(err, store.ErrCorrupt) && !errors.Is(err, store.ErrTampered) {
			t.Errorf("a problem matches neither ErrCorrupt nor ErrTampered: %v", err)
		}
		lines = append(lines, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return lines
}

func be(id uint64, more ...byte) []byte {
	return append(binary.BigEndian.AppendUint64(nil, id), more...)
}

// TestCheckFindsEveryKindOfDamage: a database with records of every kind passes the
// check; a copy with one record of one kind damaged — as a failing disk damages the file
// (boltdamage), or a value the store keeps for the game service unread — fails it with a
// problem naming what is damaged. Before issue 38, check-store found none of the
// records' damage (only pages and logs).
func TestCheckFindsEveryKindOfDamage(t *testing.T) {
	db, key := checkedData(t)
	if got := checkAll(t, db, key); len(got) != 0 {
		t.Fatalf("the sound database has problems:\n%s", strings.Join(got, "\n"))
	}
	half := func(v []byte) []byte { return v[:len(v)/2] }
	flipLast := func(v []byte) []byte { v[len(v)-1] ^= 0x20; return v }
	del := func([]byte) []byte { return nil }
	value := func(bucket string, key []byte, damage func([]byte) []byte) func(string) error {
		return func(path string) error { _, err := boltdamage.Value(path, bucket, key, nil, damage); return err }
	}
	// through the store: what it keeps unread, damaged.
	viaStore := func(fn func(tx *store.Tx) error) func(string) error {
		return func(path string) error {
			st, err := store.Open(path, store.Options{KeyFile: key})
			if err != nil {
				return err
			}
			defer st.Close()
			return st.Update(fn)
		}
	}
	gameData := func(id uint64, fn func(g *store.Game)) func(string) error {
		return viaStore(func(tx *store.Tx) error {
			g, err := tx.Game(id)
			if err != nil {
				return err
			}
			fn(g)
			return tx.PutGame(g)
		})
	}
	setting := func(name, v string) func(string) error {
		return viaStore(func(tx *store.Tx) error { return tx.PutSetting(name, []byte(v)) })
	}
	tests := []struct {
		name   string
		damage func(path string) error
		want   string
	}{
		{"game record", value("games", be(2), half), "game 2"},
		{"archived game record", value("archive", be(4), half), "game 4"},
		{"log record in the clear", value("log", be(2, 0, 0, 0, 1), half), "game 2"},
		{"sealed log record", value("log", be(1, 0, 0, 0, 9), flipLast), "game 1"},
		{"log key", func(path string) error {
			_, err := boltdamage.Key(path, "log", be(2, 0, 0, 0, 1), func(k []byte) []byte { k[6] ^= 0x01; return k })
			return err
		}, "game 258: the log holds records of it"},
		{"player", value("players", be(3), half), "player 3"},
		{"address index", value("addresses", nil, func([]byte) []byte { return be(99) }), "player 99"},
		{"reply token", value("tokens", nil, half), "a reply token"},
		{"outbox mail", value("outbox", nil, flipLast), "outbox mail"},
		{"processed message id", value("processed", nil, half), "a processed message id"},
		{"deadline index", value("deadlines", nil, del), "the deadline index lacks"},
		{"match index", value("matches", nil, del), "game 3"},
		{"player deadline index", value("playerdue", nil, del), "player deadline index"},
		{"conditional moves", value("conditionals", nil, flipLast), "game 2"},
		{"welcomes counted", value("welcomes", nil, half), "a welcomes count"},
		{"key check", value("meta", []byte("keycheck"), func(v []byte) []byte { v[0] ^= 0x01; return v }), "key check"},
		{"game service data", gameData(2, func(g *store.Game) { g.Meta = g.Meta[:len(g.Meta)/2] }), "game 2: its service data does not decode"},
		{"game state", gameData(2, func(g *store.Game) { g.State = g.State[:len(g.State)/2] }), "game 2: its state does not decode"},
		{"hidden game's state", gameData(1, func(g *store.Game) { g.State = g.State[:3] }), "game 1: its state does not decode"},
		{"variant", gameData(2, func(g *store.Game) { g.Variant = "chesz" }), "game 2: its variant does not decode"},
		{"player service data", viaStore(func(tx *store.Tx) error {
			p, err := tx.Player(3)
			if err != nil {
				return err
			}
			p.Meta = p.Meta[:len(p.Meta)-1]
			return tx.PutPlayer(p)
		}), "player 3: its service data does not decode"},
		{"heartbeat", setting(settingHeartbeat, "2026-11-2T09:00:00Z"), `setting "heartbeat"`},
		{"outages", setting(settingOutages, `[{"start":"2026`), `setting "outages"`},
		{"strangers counted", setting(strangersPrefix+"20261121", "1x"), `setting "strangers/20261121"`},
		{"held commands", setting(heldPrefix+"20261121/00", "abc"), `setting "held/20261121/00"`},
		{"a message between opponents", setting(messageName(2, 1), "abc"), `setting "said/00000000000000000002/000001"`},
		{"a pending change of address", setting(movingPrefix+"20261121/00", "abc"), `setting "moving/20261121/00"`},
		{"an address moved away from", setting(movedPrefix+"00", `{"player":`), `setting "moved/00"`},
		{"rating sequence", setting(settingRatingSeq, "1234"), `setting "game.rating-seq"`},
		{"welcomes counted from", setting(settingWelcomesFrom, "2026-13-01"), `setting "game.welcomes-counted-from"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d.db")
			b, err := os.ReadFile(db)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := tt.damage(path); err != nil {
				t.Fatal(err)
			}
			got := checkAll(t, path, key)
			named := false
			for _, line := range got {
				named = named || strings.Contains(line, tt.want)
			}
			if !named {
				t.Errorf("no problem names %q:\n%s", tt.want, strings.Join(got, "\n"))
			}
			t.Logf("%s", strings.Join(got, "\n"))
		})
	}
}
