package store

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/schema-v<current>.db from the fixture builder")

// Each schema version that was ever released keeps a fixture under testdata/, written by
// the program of that version, and a check of what it holds. A new version adds its fixture
// (go test ./store -run TestFixture -update) and its check, and keeps the old ones: every
// later program must still open them, migrate them and find the same content.
var fixtureChecks = map[string]func(*testing.T, *Store){
	"schema-v1.db": checkFixtureV1,
	"schema-v2.db": checkFixtureV2,
	"schema-v3.db": checkFixtureV3,
	"schema-v4.db": checkFixtureV4,
	"schema-v5.db": checkFixtureV5,
}

func TestFixture(t *testing.T) {
	current := fmt.Sprintf("schema-v%d.db", schemaVersion)
	if *update {
		buildFixture(t, filepath.Join("testdata", current))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "schema-v*.db"))
	if !slices.Contains(files, filepath.Join("testdata", current)) {
		t.Fatalf("no fixture for the current schema %d: run go test ./store -run TestFixture -update", schemaVersion)
	}
	for _, file := range files {
		name := filepath.Base(file)
		check, ok := fixtureChecks[name]
		if !ok {
			t.Errorf("fixture %s has no check in fixtureChecks", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "game.db")
			copyFile(t, file, db, 0o600)
			copyFile(t, file[:len(file)-len(".db")]+".key", db+".key", 0o600) // git keeps no 0600
			if name == current {
				// The current version's fixture needs no upgrade: it opens read-only.
				ro, err := Open(db, Options{ReadOnly: true})
				if err != nil {
					t.Fatalf("read-only open of the current fixture (rebuild it with -update): %v", err)
				}
				check(t, ro)
				ro.Close()
			}
			for range 2 { // the first open migrates; the second reads the result
				st, err := Open(db, Options{Logger: testLogger(t)})
				if err != nil {
					t.Fatal(err)
				}
				check(t, st)
				if err := st.Verify(t.Context()); err != nil {
					t.Error(err)
				}
				st.Close()
			}
		})
	}
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

var fixtureTime = time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)

// buildFixture writes the fixture of the current version: an archived open game, an
// active hidden game with secret moves, tokens, mails (one failed once), processed ids,
// deadlines, (since version 2) a game listed under a match key and a player with a
// deadline, (since version 3) a side's conditional moves and (since version 5) welcomes
// counted.
func buildFixture(t *testing.T, path string) {
	dir := t.TempDir()
	st := openTest(t, dir)
	err := st.Update(func(tx *Tx) error {
		a, err := createGame(tx, false, fixtureTime)
		if err != nil {
			return err
		}
		for n := range 4 {
			if _, err := accept(tx, a.ID, n, fixtureTime.Add(time.Duration(n)*time.Hour)); err != nil {
				return err
			}
		}
		if err := finish(tx, a.ID, fixtureTime.Add(5*time.Hour)); err != nil {
			return err
		}
		if err := tx.Archive(a.ID); err != nil {
			return err
		}
		h, err := createGame(tx, true, fixtureTime)
		if err != nil {
			return err
		}
		for n := range 5 {
			if _, err := accept(tx, h.ID, n, fixtureTime.Add(time.Duration(n)*time.Hour)); err != nil {
				return err
			}
		}
		mails, err := tx.PendingMail(fixtureTime.Add(time.Hour*24), 0)
		if err != nil {
			return err
		}
		for _, m := range mails[:len(mails)-3] {
			if err := tx.MarkSent(m.ID); err != nil {
				return err
			}
		}
		if err := tx.PutSetting("service.heartbeat", []byte("2026-02-01T09:00:00Z")); err != nil {
			return err
		}
		o, err := createGame(tx, false, fixtureTime)
		if err != nil {
			return err
		}
		o.Match = "fide 3d/move"
		if err := tx.PutGame(o); err != nil {
			return err
		}
		p, err := tx.Player(3)
		if err != nil {
			return err
		}
		p.Due = fixtureTime.Add(20 * time.Hour)
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
		if err := tx.PutConditionals(h.ID, White, []byte(fixtureConditionals)); err != nil {
			return err
		}
		for range 2 {
			if err := tx.CountWelcome(fixtureStranger, fixtureTime); err != nil {
				return err
			}
		}
		return tx.RecordAttempt(mails[len(mails)-1].ID, 1, "451 4.3.0 try again later", fixtureTime.Add(30*time.Hour))
	})
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "compact.db")
	if err := st.Compact(tmp); err != nil {
		t.Fatal(err)
	}
	st.Close()
	os.Remove(path)
	copyFile(t, tmp, path, 0o644)
	os.Remove(path[:len(path)-len(".db")] + ".key")
	copyFile(t, filepath.Join(dir, "game.db.key"), path[:len(path)-len(".db")]+".key", 0o644)
	t.Logf("wrote %s", path)
}

// checkFixtureV1 checks what buildFixture of version 1 wrote; once migrated, the match
// index and the welcomes are there and empty.
func checkFixtureV1(t *testing.T, st *Store) {
	checkFixture(t, st, []uint64{2})
	checkWelcomes(t, st, 0)
	st.View(func(tx *Tx) error {
		if ids, err := tx.Matching("fide 3d/move", 0); err != nil || len(ids) != 0 {
			t.Errorf("games matching in a version 1 database: %v, %v", ids, err)
		}
		if due, err := tx.DuePlayers(fixtureTime.Add(1000*time.Hour), 0); err != nil || len(due) != 0 {
			t.Errorf("players due in a version 1 database: %v, %v", due, err)
		}
		return nil
	})
}

// checkFixtureV2 checks what buildFixture of version 2 wrote: version 1's content, game 3
// listed under a match key, and player 3's deadline.
func checkFixtureV2(t *testing.T, st *Store) {
	checkFixture(t, st, []uint64{2, 3})
	st.View(func(tx *Tx) error {
		if ids, err := tx.Matching("fide 3d/move", 0); err != nil || !slices.Equal(ids, []uint64{3}) {
			t.Errorf("games matching: %v, %v", ids, err)
		}
		if g, err := tx.Game(3); err != nil || g.Match != "fide 3d/move" || g.Status != StatusActive {
			t.Errorf("game 3: %+v, %v", g, err)
		}
		due, err := tx.DuePlayers(fixtureTime.Add(1000*time.Hour), 0)
		if err != nil || len(due) != 1 || due[0].Player != 3 || !due[0].At.Equal(fixtureTime.Add(20*time.Hour)) {
			t.Errorf("players due: %v, %v", due, err)
		}
		if p, err := tx.Player(3); err != nil || !p.Due.Equal(fixtureTime.Add(20*time.Hour)) || p.Name != "Alice" {
			t.Errorf("player 3: %+v, %v", p, err)
		}
		return nil
	})
}

// fixtureConditionals are White's conditional moves in game 2 (since version 3).
const fixtureConditionals = `{"v":1,"lines":[[["(h)","Sx6-y3"]]]}`

// checkFixtureV3 checks what buildFixture of version 3 wrote: version 2's content and
// White's conditional moves in game 2.
func checkFixtureV3(t *testing.T, st *Store) {
	checkFixtureV2(t, st)
	st.View(func(tx *Tx) error {
		if v, err := tx.Conditionals(2, White); err != nil || string(v) != fixtureConditionals {
			t.Errorf("conditional moves of game 2: %q, %v", v, err)
		}
		return nil
	})
}

// checkFixtureV4 checks what buildFixture of version 4 wrote: version 3's content, with the
// reply tokens kept as keyed hashes only (checkFixture checks the tokens bucket); once
// migrated, the welcomes bucket is there and empty.
func checkFixtureV4(t *testing.T, st *Store) {
	checkFixtureV3(t, st)
	checkWelcomes(t, st, 0)
}

// fixtureStranger is the address welcomed twice on the fixture's day (since version 5).
const fixtureStranger = "Stranger@Example.org"

// checkFixtureV5 checks what buildFixture of version 5 wrote: version 4's content and the
// stranger's two welcomes.
func checkFixtureV5(t *testing.T, st *Store) {
	checkFixtureV3(t, st)
	checkWelcomes(t, st, 2)
}

// checkWelcomes checks the welcomes counted for the stranger on the fixture's day, and that
// the bucket holds them as a day and a keyed hash, never the address.
func checkWelcomes(t *testing.T, st *Store, want int) {
	t.Helper()
	st.View(func(tx *Tx) error {
		if n, err := tx.Welcomes("stranger@example.org", fixtureTime.Add(10*time.Hour)); err != nil || n != want {
			t.Errorf("welcomes of the stranger: %d, %v; want %d", n, err, want)
		}
		return tx.bucket(bucketWelcomes).ForEach(func(k, _ []byte) error {
			if len(k) != len(welcomeDayLayout)+16 || strings.Contains(strings.ToLower(string(k)), "stranger") {
				t.Errorf("welcomes bucket key %q is not a day and a keyed hash", k)
			}
			return nil
		})
	})
}

// checkFixture checks the content every fixture has (fixtureParts), and that active are
// the active games.
func checkFixture(t *testing.T, st *Store, active []uint64) {
	t.Helper()
	err := st.View(func(tx *Tx) error {
		ids, err := tx.Games()
		if err != nil || !slices.Equal(ids, active) {
			t.Errorf("active games %v, %v; want %v", ids, err, active)
		}
		for _, part := range fixtureParts {
			if err := part.check(t, tx, ids); err != nil {
				t.Errorf("%s: %v", part.name, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// fixtureParts are the parts of every fixture's content, each with its check; active are
// the active games.
var fixtureParts = []struct {
	name  string
	check func(t *testing.T, tx *Tx, active []uint64) error
}{
	{"the games", checkFixtureGames},
	{"game 2's log and game 1's export", checkFixtureLog},
	{"players and tokens", checkFixtureTokens},
	{"the outbox", checkFixtureOutbox},
	{"processed mail, settings and deadlines", checkFixtureIndexes},
}

// checkFixtureGames: game 1 archived and finished, game 2 hidden and active.
func checkFixtureGames(t *testing.T, tx *Tx, _ []uint64) error {
	a, err := tx.Game(1)
	if err != nil {
		return err
	}
	if !a.Archived || a.Status != StatusFinished || a.Result != "1-0" || a.Records != 5 || a.Hidden || a.Variant != "fide" {
		t.Errorf("game 1: %+v", a)
	}
	h, err := tx.Game(2)
	if err != nil {
		return err
	}
	if h.Archived || h.Status != StatusActive || h.Records != 5 || !h.Hidden || string(h.State) != string(testState(4)) ||
		h.Seats[Black].Address != "bob1@example.org" || h.TimeControl != "3d/move" {
		t.Errorf("game 2: %+v", h)
	}
	return nil
}

// checkFixtureLog: game 2's log, its secret move sealed and opened, and game 1's export.
func checkFixtureLog(t *testing.T, tx *Tx, _ []uint64) error {
	log, err := tx.Log(2)
	if err != nil {
		return err
	}
	if len(log) != 5 || log[3].Text != moveText(3) || !log[3].Secret || log[3].Public != "2. (h)" || log[3].Opening == nil ||
		log[3].Lines[White] != "2. (h)" || !log[4].At.Equal(fixtureTime.Add(4*time.Hour)) {
		t.Errorf("game 2 log: %+v", log)
	}
	if x, err := tx.Export(1); err != nil || VerifyExport(x) != nil {
		t.Errorf("export of game 1: %v", err)
	}
	return nil
}

// checkFixtureTokens: a player by address, a token, and, whatever version wrote it, the
// tokens bucket holding keyed hashes, not tokens.
func checkFixtureTokens(t *testing.T, tx *Tx, active []uint64) error {
	p, err := tx.PlayerByAddress("alice1@example.org")
	if err != nil || p.Name != "Alice" || p.ID != 3 {
		t.Errorf("player: %+v, %v", p, err)
	}
	ref, err := tx.TokenLookup("tok2x1")
	if err != nil || ref != (TokenRef{Game: 2, Player: 4, Side: Black}) {
		t.Errorf("token: %+v, %v", ref, err)
	}
	n := 0
	err = tx.bucket(bucketTokens).ForEach(func(k, _ []byte) error {
		n++
		if len(k) != 32 || strings.HasPrefix(string(k), "tok") {
			t.Errorf("tokens bucket key %q is not a keyed hash", k)
		}
		return nil
	})
	if n != 2*len(active)+2 { // two per game, archived game 1 included
		t.Errorf("%d tokens, want %d", n, 2*len(active)+2)
	}
	return err
}

// checkFixtureOutbox: three mails waiting, one of them failed once and due later.
func checkFixtureOutbox(t *testing.T, tx *Tx, _ []uint64) error {
	mails, err := tx.PendingMail(fixtureTime.Add(48*time.Hour), 0)
	if err != nil || len(mails) != 3 || mails[2].Attempts != 1 || mails[2].LastError != "451 4.3.0 try again later" ||
		string(mails[0].To[0]) != "bob1@example.org" {
		t.Errorf("outbox: %+v, %v", mails, err)
	}
	if due, _ := tx.PendingMail(fixtureTime.Add(24*time.Hour), 0); len(due) != 2 {
		t.Errorf("%d mails due before the retry time, want 2", len(due))
	}
	return nil
}

// checkFixtureIndexes: game 2's messages processed, the heartbeat setting, game 2's
// deadlines.
func checkFixtureIndexes(t *testing.T, tx *Tx, _ []uint64) error {
	for n := range 5 {
		if ok, _ := tx.Processed(msgID(2, n)); !ok {
			t.Errorf("message %d of game 2 not processed", n)
		}
	}
	if v, err := tx.Setting("service.heartbeat"); err != nil || string(v) != "2026-02-01T09:00:00Z" {
		t.Errorf("setting %q, %v", v, err)
	}
	due, err := tx.DueDeadlines(fixtureTime.Add(1000*time.Hour), 0)
	want := []Due{{2, Deadline{fixtureTime.Add(52 * time.Hour), DeadlineReminder}}, {2, Deadline{fixtureTime.Add(76 * time.Hour), DeadlineTimeout}}}
	if err != nil || !equalDue(due, want) {
		t.Errorf("deadlines %v, %v", due, err)
	}
	return nil
}
