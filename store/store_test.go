package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/boltdamage"
)

func TestOpenCreatesDatabaseAndKey(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	fi, err := os.Stat(filepath.Join(dir, "game.db.key"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Size() != 32 {
		t.Errorf("key file mode %04o size %d, want 0600 and 32", fi.Mode().Perm(), fi.Size())
	}
	g := newGame(t, st, true)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("directory holds %d files, want the database and its key: %v", len(entries), entries)
	}
	st = openTest(t, dir)
	err = st.View(func(tx *Tx) error {
		got, err := tx.Game(g.ID)
		if err != nil {
			return err
		}
		if !bytes.Equal(got.State, testState(-1)) {
			t.Errorf("state %q after reopening", got.State)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestKeyFileProblems(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, db, key string) // the database exists with its key
		want    error
		msg     string
	}{
		{"too open", func(t *testing.T, db, key string) { os.Chmod(key, 0o644) }, ErrKey, "chmod 600"},
		{"group readable", func(t *testing.T, db, key string) { os.Chmod(key, 0o640) }, ErrKey, "mode 0640"},
		{"too short", func(t *testing.T, db, key string) { os.Truncate(key, 31) }, ErrKey, "holds 31 bytes"},
		{"too long", func(t *testing.T, db, key string) {
			f, _ := os.OpenFile(key, os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte{0})
			f.Close()
		}, ErrKey, "holds 33 bytes"},
		{"missing", func(t *testing.T, db, key string) { os.Remove(key) }, ErrKey, "restore the key file"},
		{"another key", func(t *testing.T, db, key string) {
			os.Remove(key)
			if _, err := createKey(key); err != nil {
				t.Fatal(err)
			}
		}, ErrKey, "does not belong to database"},
		{"directory", func(t *testing.T, db, key string) {
			os.Remove(key)
			os.Mkdir(key, 0o700)
		}, ErrKey, "not a regular file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db, key := filepath.Join(dir, "game.db"), filepath.Join(dir, "game.db.key")
			st, err := Open(db, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			tc.prepare(t, db, key)
			_, err = Open(db, Options{})
			wantErr(t, err, tc.want)
			if !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), key) {
				t.Errorf("error %q does not name the key file and say %q", err, tc.msg)
			}
		})
	}
}

// TestDamagedKeyCheck: a damaged byte of the database's key check (the
// meta bucket's value that tells whether a key file belongs to the
// database) is damage of the database, named so: the right key file is not
// blamed. Opening for writing (serve) refuses, saying so; opening
// read-only (check-store) goes on, and Verify reports it with whatever
// else it finds. A key check that differs wholly is another key, as
// before. Before, every case blamed the key file.
func TestDamagedKeyCheck(t *testing.T) {
	tests := []struct {
		name   string
		damage func(v []byte) []byte
		want   error
	}{
		{"one byte flipped", func(v []byte) []byte { v[3] ^= 0x40; return v }, ErrCorrupt},
		{"two bytes zeroed", func(v []byte) []byte { v[0], v[15] = 0, 0; return v }, ErrCorrupt},
		{"one byte cut off", func(v []byte) []byte { return v[:len(v)-1] }, ErrCorrupt},
		{"another key's check", func(v []byte) []byte {
			for i := range v {
				v[i] ^= byte(0x5a + i)
			}
			return v
		}, ErrKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "game.db")
			st, err := Open(db, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Close()
			if _, err := boltdamage.Value(db, string(bucketMeta), metaKeyCheck, nil, tc.damage); err != nil {
				t.Fatal(err)
			}
			_, err = Open(db, Options{})
			wantErr(t, err, tc.want)
			ro, rerr := Open(db, Options{ReadOnly: true})
			if tc.want == ErrKey {
				if !strings.Contains(err.Error(), "does not belong to database") {
					t.Errorf("another key: %v", err)
				}
				wantErr(t, rerr, ErrKey)
				return
			}
			if errors.Is(err, ErrKey) || strings.Contains(err.Error(), "does not belong") || !strings.Contains(err.Error(), "key check") ||
				!strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), db) {
				t.Errorf("error %q blames the key file, or does not name the database's damaged key check", err)
			}
			if rerr != nil {
				t.Fatalf("read-only: %v", rerr)
			}
			defer ro.Close()
			problems := Problems(ro.Verify(context.Background()))
			if len(problems) != 1 || !errors.Is(problems[0], ErrCorrupt) || !strings.Contains(problems[0].Error(), "key check") {
				t.Errorf("Verify: %v, want the damaged key check", problems)
			}
		})
	}
}

func TestKeyFileOption(t *testing.T) {
	dir := t.TempDir()
	keyDir := filepath.Join(dir, "secrets")
	os.Mkdir(keyDir, 0o700)
	key := filepath.Join(keyDir, "master.key")
	st, err := Open(filepath.Join(dir, "game.db"), Options{KeyFile: key})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(key); err != nil {
		t.Errorf("the key was not created at the configured path: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "game.db.key")); err == nil {
		t.Error("a key was created at the default path too")
	}
}

func TestLocked(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	_ = st
	start := time.Now()
	_, err := Open(filepath.Join(dir, "game.db"), Options{LockTimeout: 200 * time.Millisecond})
	wantErr(t, err, ErrLocked)
	if !strings.Contains(err.Error(), "in use by another process") {
		t.Errorf("error %q does not say the database is in use", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 2*time.Second {
		t.Errorf("Open gave up after %v, want about the 200ms lock timeout", d)
	}
}

// TestWelcomes: the welcomes are counted per address (its mailfmt.Key: case and display
// name aside) and UTC day; PruneWelcomes forgets the days before a given one, and keeps it.
func TestWelcomes(t *testing.T) {
	st := openTest(t, t.TempDir())
	day := time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC)
	next := day.Add(time.Hour) // the next UTC day
	err := st.Update(func(tx *Tx) error {
		for _, c := range []struct {
			addr string
			at   time.Time
		}{{"eve@example.org", day}, {"Eve <EVE@example.org>", day.Add(-20 * time.Hour)}, {"eve@example.org", next}, {"mallory@example.org", day}} {
			if err := tx.CountWelcome(c.addr, c.at); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	count := func(addr string, at time.Time) int {
		t.Helper()
		var n int
		if err := st.View(func(tx *Tx) error { var err error; n, err = tx.Welcomes(addr, at); return err }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	tests := []struct {
		name string
		addr string
		at   time.Time
		want int
	}{
		{"twice on a day, in any case", "EVE@example.org", day, 2},
		{"the next day", "eve@example.org", next, 1},
		{"another address", "mallory@example.org", day.Add(-time.Hour), 1},
		{"an address never welcomed", "trent@example.org", day, 0},
		{"a day without welcomes", "eve@example.org", day.AddDate(0, 0, -1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := count(tt.addr, tt.at); n != tt.want {
				t.Errorf("Welcomes(%s, %s) = %d, want %d", tt.addr, tt.at, n, tt.want)
			}
		})
	}
	err = st.Update(func(tx *Tx) error {
		n, err := tx.PruneWelcomes(next)
		if n != 2 || err != nil {
			t.Errorf("PruneWelcomes = %d, %v; want the 2 counts of the day before", n, err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if count("eve@example.org", day) != 0 || count("eve@example.org", next) != 1 {
		t.Errorf("after pruning: %d on the day before, %d on the day", count("eve@example.org", day), count("eve@example.org", next))
	}
}

func TestSchemaProblems(t *testing.T) {
	t.Run("newer", func(t *testing.T) {
		dir := t.TempDir()
		st := openTest(t, dir)
		st.db.Update(func(btx *boltTx) error {
			return btx.Bucket(bucketMeta).Put(metaSchema, []byte{schemaVersion + 1})
		})
		st.Close()
		_, err := Open(filepath.Join(dir, "game.db"), Options{})
		wantErr(t, err, ErrSchema)
		if !strings.Contains(err.Error(), "newer than this program") {
			t.Errorf("error %q", err)
		}
	})
	t.Run("foreign", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		db, err := boltOpen(path)
		if err != nil {
			t.Fatal(err)
		}
		db.Update(func(btx *boltTx) error { _, err := btx.CreateBucket([]byte("widgets")); return err })
		db.Close()
		_, err = Open(path, Options{})
		wantErr(t, err, ErrSchema)
		if !strings.Contains(err.Error(), "not a bottlepost database") {
			t.Errorf("error %q", err)
		}
	})
	t.Run("not a database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "junk.db")
		os.WriteFile(path, bytes.Repeat([]byte("junk"), 4096), 0o600)
		_, err := Open(path, Options{})
		wantErr(t, err, ErrCorrupt)
	})
	t.Run("missing, read-only", func(t *testing.T) {
		_, err := Open(filepath.Join(t.TempDir(), "none.db"), Options{ReadOnly: true})
		wantErr(t, err, ErrNotFound)
	})
}

func TestMigrationSteps(t *testing.T) {
	st := openTest(t, t.TempDir())
	ran := 0
	steps := map[uint64]migration{
		1: {describe: "add a widget bucket", run: func(btx *boltTx, _ *vault) error {
			ran++
			_, err := btx.CreateBucket([]byte("widgets"))
			return err
		}},
		2: {describe: "fail", run: func(btx *boltTx, _ *vault) error { return errors.New("boom") }},
	}
	err := st.db.Update(func(btx *boltTx) error { return migrateTo(btx, st.vault, 1, 2, steps, testLogger(t)) })
	if err != nil || ran != 1 {
		t.Fatalf("migrate 1→2: %v, ran %d", err, ran)
	}
	st.db.View(func(btx *boltTx) error {
		if btx.Bucket([]byte("widgets")) == nil || !bytes.Equal(btx.Bucket(bucketMeta).Get(metaSchema), []byte{2}) {
			t.Error("the step's change or the new version is missing")
		}
		return nil
	})
	err = st.db.Update(func(btx *boltTx) error { return migrateTo(btx, st.vault, 2, 4, steps, testLogger(t)) })
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("failing step: %v", err)
	}
	err = st.db.Update(func(btx *boltTx) error { return migrateTo(btx, st.vault, 3, 4, steps, testLogger(t)) })
	wantErr(t, err, ErrSchema)
	st.db.View(func(btx *boltTx) error {
		if v := btx.Bucket(bucketMeta).Get(metaSchema); !bytes.Equal(v, []byte{2}) {
			t.Errorf("schema %v after failed migrations, want 2", v)
		}
		return nil
	})
}

func TestGames(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, false)
	h := newGame(t, st, true)

	t.Run("load", func(t *testing.T) {
		st.View(func(tx *Tx) error {
			got, err := tx.Game(g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Variant != "fide" || got.Seats != g.Seats || got.Head != ChainStart(g.ID) || got.Records != 0 ||
				!got.Created.Equal(t0) || string(got.PublicState) != "public" || got.Archived {
				t.Errorf("game %+v", got)
			}
			ids, _ := tx.Games()
			if !slices.Equal(ids, []uint64{g.ID, h.ID}) {
				t.Errorf("Games() = %v", ids)
			}
			_, err = tx.Game(99)
			wantErr(t, err, ErrNotFound)
			return nil
		})
	})
	t.Run("stale value", func(t *testing.T) {
		stale := *g
		err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, 0, t0); return err })
		if err != nil {
			t.Fatal(err)
		}
		err = st.Update(func(tx *Tx) error { return tx.PutGame(&stale) })
		wantErr(t, err, ErrConflict)
		err = st.Update(func(tx *Tx) error {
			_, err := tx.Append(&stale, Entry{Kind: KindMove, Text: "e4", At: t0})
			return err
		})
		wantErr(t, err, ErrConflict)
	})
	t.Run("hidden flag fixed", func(t *testing.T) {
		err := st.Update(func(tx *Tx) error {
			got, _ := tx.Game(h.ID)
			got.Hidden = false
			return tx.PutGame(got)
		})
		wantErr(t, err, ErrInvalid)
	})
	t.Run("unknown player", func(t *testing.T) {
		err := st.Update(func(tx *Tx) error {
			return tx.CreateGame(&Game{Variant: "fide", Seats: [2]Seat{{Player: 1}, {Player: 77}}})
		})
		wantErr(t, err, ErrNotFound)
	})
	t.Run("archive", func(t *testing.T) {
		err := st.Update(func(tx *Tx) error { return tx.Archive(g.ID) })
		wantErr(t, err, ErrInvalid) // still active
		err = st.Update(func(tx *Tx) error {
			if err := finish(tx, g.ID, t0); err != nil {
				return err
			}
			return tx.Archive(g.ID)
		})
		if err != nil {
			t.Fatal(err)
		}
		st.Update(func(tx *Tx) error {
			got, err := tx.Game(g.ID)
			if err != nil || !got.Archived || got.Status != StatusFinished || got.Deadlines != nil {
				t.Errorf("archived game %+v, %v", got, err)
			}
			ids, _ := tx.Games()
			if !slices.Equal(ids, []uint64{h.ID}) {
				t.Errorf("Games() = %v after archiving %d", ids, g.ID)
			}
			wantErr(t, tx.PutGame(got), ErrArchived)
			_, err = tx.Append(got, Entry{Kind: KindEvent, Text: "x", At: t0})
			wantErr(t, err, ErrArchived)
			wantErr(t, tx.Archive(g.ID), ErrArchived)
			ref, err := tx.TokenLookup("tok1x0")
			if err != nil || ref.Game != g.ID {
				t.Errorf("token of an archived game: %v %v", ref, err)
			}
			return tx.VerifyGame(g.ID)
		})
	})
}

func TestAppendChecks(t *testing.T) {
	st := openTest(t, t.TempDir())
	open := newGame(t, st, false)
	hidden := newGame(t, st, true)
	ok := Entry{Kind: KindMove, Ply: 0, Side: White, Text: "e2-e4", At: t0}
	tests := []struct {
		name string
		game *Game
		edit func(*Entry)
	}{
		{"no kind", open, func(e *Entry) { e.Kind = 0 }},
		{"bad side", open, func(e *Entry) { e.Side = 2 }},
		{"no text", open, func(e *Entry) { e.Text = "" }},
		{"no time", open, func(e *Entry) { e.At = time.Time{} }},
		{"secret in an open game", open, func(e *Entry) { e.Secret = true }},
		{"secret event", hidden, func(e *Entry) { e.Secret, e.Kind = true, KindEvent }},
		{"not utf-8", hidden, func(e *Entry) { e.Lines[1] = "\xff" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := ok
			tc.edit(&e)
			err := st.Update(func(tx *Tx) error {
				g, _ := tx.Game(tc.game.ID)
				_, err := tx.Append(g, e)
				return err
			})
			wantErr(t, err, ErrInvalid)
		})
	}
	st.View(func(tx *Tx) error {
		for _, g := range []*Game{open, hidden} {
			if recs, _ := tx.Log(g.ID); len(recs) != 0 {
				t.Errorf("game %d has %d records after refused appends", g.ID, len(recs))
			}
		}
		return nil
	})
}

func TestLog(t *testing.T) {
	for _, hidden := range []bool{false, true} {
		name := map[bool]string{false: "open game", true: "hidden game"}[hidden]
		t.Run(name, func(t *testing.T) {
			st := openTest(t, t.TempDir())
			g := newGame(t, st, hidden)
			var want []*Record
			for n := range 6 {
				err := st.Update(func(tx *Tx) error {
					r, err := accept(tx, g.ID, n, t0.Add(time.Duration(n)*time.Hour))
					want = append(want, r)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			st.View(func(tx *Tx) error {
				got, err := tx.Log(g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%d records, want %d", len(got), len(want))
				}
				for i, r := range got {
					w := want[i]
					if r.Index != uint32(i) || r.Ply != uint32(i) || r.Text != moveText(i) || r.Lines != w.Lines ||
						r.Public != w.Public || !r.At.Equal(w.At) || r.Hash != w.Hash || r.Commitment != w.Commitment {
						t.Errorf("record %d = %+v, want %+v", i, r, w)
					}
					secret := hidden && i%2 == 1
					if r.Secret != secret || (r.Opening != nil) != secret || r.Sealed != secret {
						t.Errorf("record %d: secret %v opening %v sealed %v", i, r.Secret, r.Opening, r.Sealed)
					}
					if secret && !VerifyCommitment(g.ID, r.Ply, r.Side, r.Commitment, *r.Opening) {
						t.Errorf("record %d: commitment does not verify", i)
					}
				}
				g2, _ := tx.Game(g.ID)
				if g2.Head != want[5].Hash || g2.Records != 6 || !bytes.Equal(g2.State, testState(5)) {
					t.Errorf("game head %s records %d state %q", g2.Head.Short(), g2.Records, g2.State)
				}
				return tx.VerifyGame(g.ID)
			})
		})
	}
}

func TestPlayersAndTokens(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, false)
	err := st.Update(func(tx *Tx) error {
		p, err := tx.PlayerByAddress("  ALICE0@Example.org ")
		if err != nil || p.Name != "Alice" {
			t.Errorf("PlayerByAddress: %v %v", p, err)
		}
		wantErr(t, tx.PutPlayer(&Player{Name: "Eve", Address: "alice0@example.org"}), ErrExists)
		wantErr(t, tx.PutPlayer(&Player{Name: "Eve", Address: "nobody"}), ErrInvalid)
		wantErr(t, tx.PutPlayer(&Player{ID: 40, Name: "Eve", Address: "eve@example.org"}), ErrInvalid)

		p.Address = "alice@new.example"
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
		if _, err := tx.PlayerByAddress("alice0@example.org"); !errors.Is(err, ErrNotFound) {
			t.Errorf("old address still found: %v", err)
		}
		if q, err := tx.PlayerByAddress("alice@new.example"); err != nil || q.ID != p.ID {
			t.Errorf("new address: %v %v", q, err)
		}

		tok, err := newToken(strings.NewReader(strings.Repeat("k", 16)))
		if err != nil || len(tok) != 26 || tok != strings.ToLower(tok) {
			t.Errorf("newToken = %q, %v", tok, err)
		}
		ref := TokenRef{Game: g.ID, Player: g.Seats[Black].Player, Side: Black}
		if err := tx.PutToken(tok, ref); err != nil {
			return err
		}
		if err := tx.PutToken(strings.ToUpper(tok), ref); err != nil {
			t.Errorf("putting the same token again: %v", err)
		}
		got, err := tx.TokenLookup(strings.ToUpper(tok))
		if err != nil || got != ref {
			t.Errorf("TokenLookup = %v, %v", got, err)
		}
		wantErr(t, tx.PutToken(tok, TokenRef{Game: g.ID, Player: g.Seats[White].Player, Side: White}), ErrExists)
		wantErr(t, tx.PutToken("x", TokenRef{Game: g.ID, Player: g.Seats[White].Player, Side: Black}), ErrInvalid)
		wantErr(t, tx.PutToken("x", TokenRef{Game: 99, Player: 1}), ErrNotFound)
		wantErr(t, tx.PutToken("", ref), ErrInvalid)
		_, err = tx.TokenLookup("nope")
		wantErr(t, err, ErrNotFound)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestOutbox(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, false)
	err := st.Update(func(tx *Tx) error {
		_, err := accept(tx, g.ID, 0, t0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var pending []Mail
	st.View(func(tx *Tx) error { pending, err = tx.PendingMail(t0, 0); return err })
	if len(pending) != 2 || pending[0].To[0] != "alice0@example.org" || pending[1].To[0] != "bob0@example.org" ||
		!bytes.Contains(pending[0].Data, []byte("X-Test: 1 0 0")) || !pending[0].Created.Equal(t0) {
		t.Fatalf("pending %+v", pending)
	}
	first, second := pending[0].ID, pending[1].ID
	err = st.Update(func(tx *Tx) error {
		if err := tx.RecordAttempt(first, 1, "451 try later", t0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.MarkSent(second)
	})
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		if p, _ := tx.PendingMail(t0, 0); len(p) != 0 {
			t.Errorf("mail pending before its next try: %+v", p)
		}
		p, _ := tx.PendingMail(t0.Add(time.Minute), 1)
		if len(p) != 1 || p[0].ID != first || p[0].Attempts != 1 || p[0].LastError != "451 try later" {
			t.Errorf("after the back-off: %+v", p)
		}
		return nil
	})
	err = st.Update(func(tx *Tx) error { return tx.MarkSent(second) })
	wantErr(t, err, ErrNotFound)
	err = st.Update(func(tx *Tx) error { return tx.RecordAttempt(second, 1, "x", t0) })
	wantErr(t, err, ErrNotFound)
	err = st.Update(func(tx *Tx) error { return tx.Enqueue(&Mail{Data: []byte("x")}) })
	wantErr(t, err, ErrInvalid)
}

func TestProcessedMail(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	apply := func(n int) error {
		return st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err })
	}
	if err := apply(0); err != nil {
		t.Fatal(err)
	}
	// The same mail again: refused as a whole, nothing applied twice.
	wantErr(t, apply(0), ErrDuplicate)
	st.View(func(tx *Tx) error {
		g2, _ := tx.Game(g.ID)
		recs, _ := tx.Log(g.ID)
		mails, _ := tx.PendingMail(t0, 0)
		if g2.Records != 1 || len(recs) != 1 || len(mails) != 2 {
			t.Errorf("after a duplicate: %d records, log %d, %d mails", g2.Records, len(recs), len(mails))
		}
		for _, id := range []string{msgID(g.ID, 0), strings.Trim(msgID(g.ID, 0), "<>"), " " + msgID(g.ID, 0)} {
			if ok, err := tx.Processed(id); !ok || err != nil {
				t.Errorf("Processed(%q) = %v, %v", id, ok, err)
			}
		}
		if ok, _ := tx.Processed(msgID(g.ID, 1)); ok {
			t.Error("an unseen message counts as processed")
		}
		_, err := tx.Processed("<>")
		wantErr(t, err, ErrInvalid)
		return nil
	})
	err := st.Update(func(tx *Tx) error {
		if err := tx.MarkProcessed("<late@x>", t0.Add(time.Hour)); err != nil {
			return err
		}
		n, err := tx.PruneProcessed(t0.Add(time.Minute))
		if n != 1 || err != nil {
			t.Errorf("PruneProcessed = %d, %v", n, err)
		}
		if ok, _ := tx.Processed(msgID(g.ID, 0)); ok {
			t.Error("pruned id still processed")
		}
		if ok, _ := tx.Processed("<late@x>"); !ok {
			t.Error("later id pruned")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeadlines(t *testing.T) {
	st := openTest(t, t.TempDir())
	a := newGame(t, st, false)
	b := newGame(t, st, true)
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	set := func(g *Game, dls ...Deadline) {
		t.Helper()
		err := st.Update(func(tx *Tx) error {
			got, err := tx.Game(g.ID)
			if err != nil {
				return err
			}
			got.Deadlines = dls
			return tx.PutGame(got)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	due := func(before time.Time, limit int) []Due {
		var out []Due
		st.View(func(tx *Tx) error {
			var err error
			out, err = tx.DueDeadlines(before, limit)
			if err != nil {
				t.Fatal(err)
			}
			return nil
		})
		return out
	}
	set(a, Deadline{at(10), DeadlineTimeout}, Deadline{at(5), DeadlineReminder})
	set(b, Deadline{At: at(7).In(time.FixedZone("CET", 3600)), Kind: DeadlineTimeout})
	got := due(at(7), 0)
	want := []Due{{a.ID, Deadline{at(5), DeadlineReminder}}, {b.ID, Deadline{at(7), DeadlineTimeout}}}
	if !equalDue(got, want) {
		t.Errorf("due at +7h: %v, want %v", got, want)
	}
	if got := due(at(100), 1); len(got) != 1 || got[0].Game != a.ID {
		t.Errorf("limit 1: %v", got)
	}
	// Replacing a game's deadlines replaces its index entries.
	set(a, Deadline{at(1), DeadlineReminder})
	got = due(at(100), 0)
	want = []Due{{a.ID, Deadline{at(1), DeadlineReminder}}, {b.ID, Deadline{at(7), DeadlineTimeout}}}
	if !equalDue(got, want) {
		t.Errorf("after replacing: %v, want %v", got, want)
	}
	err := st.Update(func(tx *Tx) error {
		g, _ := tx.Game(a.ID)
		g.Deadlines = []Deadline{{At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}
		return tx.PutGame(g)
	})
	wantErr(t, err, ErrInvalid)
	err = st.Update(func(tx *Tx) error {
		if err := finish(tx, b.ID, t0); err != nil {
			return err
		}
		return tx.Archive(b.ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := due(at(100), 0); len(got) != 1 || got[0].Game != a.ID {
		t.Errorf("after archiving %d: %v", b.ID, got)
	}
}

func equalDue(a, b []Due) bool {
	return slices.EqualFunc(a, b, func(x, y Due) bool { return x.Game == y.Game && x.Kind == y.Kind && x.At.Equal(y.At) })
}

func TestBackupAndCompact(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	g := newGame(t, st, true)
	for n := range 20 {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	n, err := st.Backup(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("Backup = %d, %v", n, err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := st.BackupFile(backup); err != nil {
		t.Fatal(err)
	}
	wantErr(t, st.BackupFile(backup), ErrExists)
	compact := filepath.Join(dir, "compact.db")
	if err := st.Compact(compact); err != nil {
		t.Fatal(err)
	}
	wantErr(t, st.Compact(compact), ErrExists)
	key := filepath.Join(dir, "game.db.key")
	for _, path := range []string{backup, compact} {
		c, err := Open(path, Options{KeyFile: key})
		if err != nil {
			t.Fatal(err)
		}
		err = c.View(func(tx *Tx) error {
			recs, err := tx.Log(g.ID)
			if err != nil || len(recs) != 20 || recs[19].Text != moveText(19) {
				t.Errorf("%s: %d records, %v", path, len(recs), err)
			}
			return tx.VerifyGame(g.ID)
		})
		if err != nil {
			t.Error(err)
		}
		// Ids go on from where the original stopped.
		c.Update(func(tx *Tx) error {
			h, err := createGame(tx, false, t0)
			if err != nil || h.ID != g.ID+1 {
				t.Errorf("%s: new game %v, %v", path, h, err)
			}
			return nil
		})
		c.Close()
	}
	fi1, _ := os.Stat(filepath.Join(dir, "game.db"))
	fi2, _ := os.Stat(compact)
	t.Logf("live %d bytes, compacted %d", fi1.Size(), fi2.Size())
	if fi2.Size() > fi1.Size() {
		t.Errorf("compacted copy (%d) larger than the live file (%d)", fi2.Size(), fi1.Size())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestVerifyStore(t *testing.T) {
	st := openTest(t, t.TempDir())
	g := newGame(t, st, true)
	for n := range 5 {
		st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err })
	}
	if err := st.Verify(t.Context()); err != nil {
		t.Fatal(err)
	}
	// A deadline index entry no game has.
	st.db.Update(func(btx *boltTx) error {
		return btx.Bucket(bucketDeadlines).Put(deadlineKey(g.ID, Deadline{At: t0, Kind: 9}), nil)
	})
	err := st.Verify(t.Context())
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "deadline index") {
		t.Fatalf("Verify with a stray deadline: %v", err)
	}
	st.db.Update(func(btx *boltTx) error {
		return btx.Bucket(bucketDeadlines).Delete(deadlineKey(g.ID, Deadline{At: t0, Kind: 9}))
	})
	// Drop the last record behind the store's back.
	st.db.Update(func(btx *boltTx) error { return btx.Bucket(bucketLog).Delete(logKey(g.ID, 4)) })
	err = st.Verify(t.Context())
	var ce *ChainError
	if !errors.As(err, &ce) || !errors.Is(err, ErrTampered) || ce.Index != 4 {
		t.Fatalf("Verify after removing the last record: %v", err)
	}
}

// TestBackupHoldsNoToken issues reply tokens and searches a fresh backup and the live file
// for them: neither holds a token, in any case, only keyed hashes (docs/store.md).
func TestBackupHoldsNoToken(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	g := newGame(t, st, false)
	var tokens []string
	err := st.Update(func(tx *Tx) error {
		for range 20 {
			tok, err := newToken(rand.Reader)
			if err != nil {
				return err
			}
			tokens = append(tokens, tok)
			if err := tx.PutToken(tok, TokenRef{Game: g.ID, Player: g.Seats[White].Player, Side: White}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var backup bytes.Buffer
	if _, err := st.Backup(&backup); err != nil {
		t.Fatal(err)
	}
	live, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []struct {
		name string
		data []byte
	}{{"backup", backup.Bytes()}, {"live file", live}} {
		low := bytes.ToLower(file.data)
		for _, tok := range tokens {
			if bytes.Contains(low, []byte(tok)) {
				t.Errorf("the %s holds the token %s", file.name, tok)
			}
		}
	}
	st.View(func(tx *Tx) error {
		for _, tok := range tokens {
			if ref, err := tx.TokenLookup(strings.ToUpper(tok)); err != nil || ref.Game != g.ID {
				t.Errorf("token %s: %+v, %v", tok, ref, err)
			}
		}
		return nil
	})
}

func TestPutMetaAndArchivedGames(t *testing.T) {
	st := openTest(t, t.TempDir())
	a, b := newGame(t, st, false), newGame(t, st, true)
	err := st.Update(func(tx *Tx) error {
		if err := finish(tx, a.ID, t0.Add(time.Hour)); err != nil {
			return err
		}
		if err := tx.Archive(a.ID); err != nil {
			return err
		}
		for _, id := range []uint64{a.ID, b.ID} {
			if err := tx.PutMeta(id, []byte(fmt.Sprint("meta of ", id))); err != nil {
				return err
			}
		}
		wantErr(t, tx.PutMeta(99, nil), ErrNotFound)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st.View(func(tx *Tx) error {
		ids, err := tx.ArchivedGames()
		if err != nil || !slices.Equal(ids, []uint64{a.ID}) {
			t.Errorf("archived games %v, %v", ids, err)
		}
		for _, id := range []uint64{a.ID, b.ID} {
			g, err := tx.Game(id)
			if err != nil || string(g.Meta) != fmt.Sprint("meta of ", id) || g.Archived != (id == a.ID) {
				t.Errorf("game %d: %+v, %v", id, g, err)
			}
		}
		if g, _ := tx.Game(b.ID); string(g.State) != string(testState(-1)) {
			t.Errorf("the hidden game's state changed: %q", g.State)
		}
		return nil
	})
	if err := st.Verify(t.Context()); err != nil {
		t.Error(err)
	}
}
