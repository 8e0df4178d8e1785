package game

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// testdata/schema-v2-games.db was written by the program before issue 18 (store schema 2,
// record format 1, seat tokens random and kept in the clear): game 1 is the Seachess game of
// seachessGame, which Black resigned (its export by that program is testdata/schema-v2-games-1.pgn);
// game 2 a chess game in play after 1. e4. Its master key is the test fixture's (byte i is
// 7·i). These were the seat tokens of game 2 in the mails of that program.
const (
	oldWhiteToken = "v4ponzengo3eyuyomevuzubqwa"
	oldBlackToken = "ul6wpgxprbd3j6zlebhrt7d4pu"
)

// TestOldDatabase opens a database of the program before issue 18: it migrates (tokens
// hashed, then dropped from the games' data), its finished game exports byte for byte as
// that program exported it and still verifies, the old seat tokens still work, and a
// compacted copy holds none of them.
func TestOldDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "bp.db")
	old, err := os.ReadFile(filepath.Join("testdata", "schema-v2-games.db"))
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i * 7)
	}
	os.WriteFile(db, old, 0o600)
	os.WriteFile(filepath.Join(dir, "bp.key"), key, 0o600)
	st, err := store.Open(db, store.Options{KeyFile: filepath.Join(dir, "bp.key")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := &fixture{t: t, st: st, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC), inbox: map[string][]*sent{}, seq: 1000} // message ids the old run did not use
	f.svc, err = New(Config{Address: "games@bottlepost.test"}, Options{Store: st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{4})})
	if err != nil {
		t.Fatal(err)
	}
	pgn := finalPGN(t, f, 1)
	then, _ := os.ReadFile(filepath.Join("testdata", "schema-v2-games-1.pgn"))
	if !bytes.Equal(pgn, then) {
		t.Errorf("game 1 exports otherwise than the old program exported it:\n%s", pgn)
	}
	res, err := record.Verify(bytes.NewReader(pgn))
	if err != nil || len(res.Unbound) == 0 {
		t.Errorf("game 1: %+v, %v", res, err)
	}
	// The old tokens act for their players; mail from now on carries the derived ones.
	f.send(bob, "games+"+oldBlackToken+"@bottlepost.test", "Re: [bp-2]", "e5")
	f.mustContain(f.last(bob), "Your move e5 was accepted")
	f.send(alice, "games+"+oldWhiteToken+"@bottlepost.test", "Re: [bp-2]", "Nf3")
	f.mustContain(f.last(alice), "Your move Nf3 was accepted")
	if r := f.last(alice).ReplyTo; bytes.Contains([]byte(r), []byte(oldWhiteToken)) {
		t.Errorf("the reply still offers the old token: %s", r)
	}
	// Game 2 began under the old records and ends under the new: its end record binds what
	// its start record did not name, and it verifies against the receipts of either time.
	f.reply(bob, "resign")
	f.mustContain(f.last(bob), "attached as bp-2.pgn")
	res, err = record.Verify(bytes.NewReader(finalPGN(t, f, 2)), f.receiptsOf(bob, "bp-2")...)
	if err != nil || len(res.Unbound) != 0 || res.Result != "1-0" || res.TimeControl != "3d" || res.Players != [2]string{"player 1", "player 2"} ||
		res.Anchor.Records != res.Records {
		t.Errorf("game 2, begun before and ended after the upgrade: %+v, %v", res, err)
	}
	compact := filepath.Join(dir, "compact.db")
	if err := st.Compact(compact); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(compact)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{oldWhiteToken, oldBlackToken} {
		if bytes.Contains(bytes.ToLower(data), []byte(tok)) {
			t.Errorf("the compacted copy holds the old token %s", tok)
		}
	}
}
