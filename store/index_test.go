package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMatchIndex(t *testing.T) {
	st := openTest(t, t.TempDir())
	games := make([]*Game, 5)
	for i := range games {
		games[i] = newGame(t, st, i%2 == 1)
	}
	setMatch := func(g *Game, match string) error {
		return st.Update(func(tx *Tx) error {
			got, err := tx.Game(g.ID)
			if err != nil {
				return err
			}
			got.Match = match
			return tx.PutGame(got)
		})
	}
	matching := func(match string, limit int) []uint64 {
		t.Helper()
		var ids []uint64
		err := st.View(func(tx *Tx) (err error) { ids, err = tx.Matching(match, limit); return err })
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	// "ab" is a prefix of "abc", but neither key lists the other's games.
	for i, m := range []string{"abc", "ab", "abc", "", "ab"} {
		if err := setMatch(games[i], m); err != nil {
			t.Fatal(err)
		}
	}
	id := func(i ...int) []uint64 {
		var out []uint64
		for _, n := range i {
			out = append(out, games[n].ID)
		}
		return out
	}
	if got := matching("abc", 0); !slices.Equal(got, id(0, 2)) {
		t.Errorf("abc: %v, want %v", got, id(0, 2))
	}
	if got := matching("ab", 0); !slices.Equal(got, id(1, 4)) {
		t.Errorf("ab: %v, want %v", got, id(1, 4))
	}
	if got := matching("ab", 1); !slices.Equal(got, id(1)) {
		t.Errorf("ab, limit 1: %v", got)
	}
	if got := matching("a", 0); len(got) != 0 {
		t.Errorf("a: %v", got)
	}
	if got := matching("", 0); len(got) != 0 {
		t.Errorf("the empty key lists %v", got)
	}

	// The key survives Append (which rewrites the game record) and reads back.
	err := st.Update(func(tx *Tx) error { _, err := accept(tx, games[0].ID, 0, t0); return err })
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		g, err := tx.Game(games[0].ID)
		if err != nil || g.Match != "abc" {
			t.Errorf("game after a move: %+v, %v", g, err)
		}
		return nil
	})
	// accept's PutGame loaded the game with its key and kept it.
	if got := matching("abc", 0); !slices.Equal(got, id(0, 2)) {
		t.Errorf("abc after a move: %v", got)
	}

	// Changing and clearing a key moves the entry.
	if err := setMatch(games[2], "ab"); err != nil {
		t.Fatal(err)
	}
	if err := setMatch(games[1], ""); err != nil {
		t.Fatal(err)
	}
	if got := matching("ab", 0); !slices.Equal(got, id(2, 4)) {
		t.Errorf("ab after changes: %v, want %v", got, id(2, 4))
	}
	if got := matching("abc", 0); !slices.Equal(got, id(0)) {
		t.Errorf("abc after changes: %v", got)
	}

	// Archiving drops the entry, and the archived game has no key.
	err = st.Update(func(tx *Tx) error {
		if err := finish(tx, games[4].ID, t0); err != nil {
			return err
		}
		return tx.Archive(games[4].ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := matching("ab", 0); !slices.Equal(got, id(2)) {
		t.Errorf("ab after archiving: %v", got)
	}
	st.View(func(tx *Tx) error {
		if g, err := tx.Game(games[4].ID); err != nil || g.Match != "" || !g.Archived {
			t.Errorf("archived game: %+v, %v", g, err)
		}
		return nil
	})

	// A new game may be listed from the start.
	var fresh *Game
	err = st.Update(func(tx *Tx) error {
		var err error
		fresh, err = createGame(tx, false, t0)
		if err != nil {
			return err
		}
		fresh.Match = "ab"
		return tx.PutGame(fresh)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := matching("ab", 0); !slices.Equal(got, append(id(2), fresh.ID)) {
		t.Errorf("ab with a new game: %v", got)
	}
	if err := st.Verify(t.Context()); err != nil {
		t.Errorf("Verify: %v", err)
	}

	// Keys the store refuses.
	wantErr(t, setMatch(games[3], strings.Repeat("x", MaxMatch+1)), ErrInvalid)
	wantErr(t, setMatch(games[3], "\xff"), ErrInvalid)
}

func TestMatchIndexCreate(t *testing.T) {
	st := openTest(t, t.TempDir())
	var g *Game
	err := st.Update(func(tx *Tx) error {
		a := &Player{Name: "A", Address: "a@example.org", Created: t0}
		if err := tx.PutPlayer(a); err != nil {
			return err
		}
		g = &Game{Variant: "fide", Ruleset: "fide/1", Seats: [2]Seat{{a.ID, a.Address}, {a.ID, a.Address}},
			State: testState(-1), Created: t0, Updated: t0, Match: "fide 3d"}
		return tx.CreateGame(g)
	})
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		if ids, err := tx.Matching("fide 3d", 0); err != nil || !slices.Equal(ids, []uint64{g.ID}) {
			t.Errorf("Matching after CreateGame: %v, %v", ids, err)
		}
		return nil
	})
}

func TestVerifyMatchIndex(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, false)
	err := st.Update(func(tx *Tx) error {
		got, err := tx.Game(g.ID)
		if err != nil {
			return err
		}
		got.Match = "m"
		return tx.PutGame(got)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Move the entry to another key behind the store's back: Verify names both.
	st.db.Update(func(btx *boltTx) error {
		b := btx.Bucket(bucketMatches)
		b.Delete(matchKey("m", g.ID))
		return b.Put(matchKey("n", g.ID), nil)
	})
	err = st.Verify(t.Context())
	wantErr(t, err, ErrCorrupt)
	if !strings.Contains(err.Error(), "match index holds") || !strings.Contains(err.Error(), "match index lacks") {
		t.Errorf("Verify: %v", err)
	}
}

func TestGameRecordMatchFormat(t *testing.T) {
	g := &Game{ID: 7, Variant: "fide", Created: t0, Updated: t0, Match: "fide 3d"}
	b := encodeGame(g, []byte("state"))
	if b[0] != gameMatched {
		t.Fatalf("format %d, want %d", b[0], gameMatched)
	}
	got, err := decodeGame(b)
	if err != nil || got.Match != "fide 3d" {
		t.Fatalf("decode: %+v, %v", got, err)
	}
	g.Match = ""
	plain := encodeGame(g, []byte("state"))
	if plain[0] != gameFormat {
		t.Fatalf("format %d without a match key, want %d", plain[0], gameFormat)
	}
	// Format 2 with an empty key is not the one encoding of that game.
	odd := append([]byte{gameMatched}, plain[1:]...)
	odd = append(odd, 0)
	if _, err := decodeGame(odd); err == nil {
		t.Error("a format-2 record with an empty match key decoded")
	}
}

// Stats count the game records read: loading a game reads one, a move reads a handful
// (load, append, put), whatever the number of games.
func TestStatsGamesRead(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	before := st.Stats()
	if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, 0, t0); return err }); err != nil {
		t.Fatal(err)
	}
	after := st.Stats()
	if n := after.GamesRead - before.GamesRead; n < 1 || n > 4 {
		t.Errorf("a move read %d game records, want 1 to 4", n)
	}
	if after.PageBytesWritten <= before.PageBytesWritten || after.PagesWritten <= before.PagesWritten || after.FileBytes <= 0 {
		t.Errorf("stats before %+v, after %+v", before, after)
	}
}

func TestPlayerDeadlines(t *testing.T) {
	st := openTest(t, t.TempDir())
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	var ids []uint64
	err := st.Update(func(tx *Tx) error {
		for i, h := range []int{5, 2, 0, 2} {
			p := &Player{Name: "P", Address: fmt.Sprintf("p%d@example.org", i), Created: t0}
			if h > 0 {
				p.Due = at(h).In(time.FixedZone("CET", 3600))
			}
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
			ids = append(ids, p.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	due := func(before time.Time, limit int) []PlayerDue {
		t.Helper()
		var out []PlayerDue
		if err := st.View(func(tx *Tx) (err error) { out, err = tx.DuePlayers(before, limit); return err }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	equal := func(got, want []PlayerDue) bool {
		return slices.EqualFunc(got, want, func(a, b PlayerDue) bool { return a.Player == b.Player && a.At.Equal(b.At) })
	}
	if got, want := due(at(2), 0), []PlayerDue{{ids[1], at(2)}, {ids[3], at(2)}}; !equal(got, want) {
		t.Errorf("due at +2h: %v, want %v", got, want)
	}
	if got := due(at(10), 1); len(got) != 1 || got[0].Player != ids[1] {
		t.Errorf("limit 1: %v", got)
	}
	// Loading and storing a player keeps its deadline; changing it moves the entry;
	// clearing it removes it.
	err = st.Update(func(tx *Tx) error {
		for i, h := range []int{-1, 7, 1, 0} {
			p, err := tx.Player(ids[i])
			if err != nil {
				return err
			}
			switch {
			case h == 0:
				p.Due = time.Time{}
			case h > 0:
				p.Due = at(h)
			}
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := due(at(100), 0), []PlayerDue{{ids[2], at(1)}, {ids[0], at(5)}, {ids[1], at(7)}}; !equal(got, want) {
		t.Errorf("after changes: %v, want %v", got, want)
	}
	st.View(func(tx *Tx) error {
		p, err := tx.Player(ids[0])
		if err != nil || !p.Due.Equal(at(5)) {
			t.Errorf("player: %+v, %v", p, err)
		}
		return nil
	})
	if err := st.Verify(t.Context()); err != nil {
		t.Errorf("Verify: %v", err)
	}
	// A deadline out of range is refused; an index entry nobody calls for is found.
	err = st.Update(func(tx *Tx) error {
		p, _ := tx.Player(ids[3])
		p.Due = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
		return tx.PutPlayer(p)
	})
	wantErr(t, err, ErrInvalid)
	st.db.Update(func(btx *boltTx) error { return btx.Bucket(bucketPlayerDue).Put(playerDueKey(ids[3], at(3)), nil) })
	err = st.Verify(t.Context())
	wantErr(t, err, ErrCorrupt)
	if !strings.Contains(err.Error(), "player deadline index holds") {
		t.Errorf("Verify: %v", err)
	}
}

func TestPlayerRecordDueFormat(t *testing.T) {
	p := &Player{ID: 3, Name: "A", Address: "a@example.org", Created: t0, Due: t0.Add(time.Hour)}
	b := encodePlayer(p)
	if b[0] != playerDue {
		t.Fatalf("format %d, want %d", b[0], playerDue)
	}
	if got, err := decodePlayer(b); err != nil || !got.Due.Equal(p.Due) {
		t.Fatalf("decode: %+v, %v", got, err)
	}
	p.Due = time.Time{}
	if b := encodePlayer(p); b[0] != playerFormat {
		t.Fatalf("format %d without a deadline, want %d", b[0], playerFormat)
	}
}
