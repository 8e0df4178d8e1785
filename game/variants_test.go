package game

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// playRandomGame drives a whole game of the variant through the service by
// mail: each player replies to their latest mail with a random move from
// what they may submit, written as the variant prints it, until the game
// ends, or until the side to move resigns at ply resignAt (0: never). It
// returns the game's id.
func playRandomGame(t *testing.T, f *fixture, id string, seed uint64, resignAt int) uint64 {
	t.Helper()
	pa := f.personal(alice)
	f.send(alice, pa, "new", "new "+id+" vs "+bob+" as white")
	f.reply(bob, "accept")
	var gameID uint64
	if err := f.st.View(func(tx *store.Tx) error {
		ids, err := tx.Games()
		gameID = ids[len(ids)-1]
		return err
	}); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	players := [2]string{alice, bob}
	for ply := 0; ply < 3000; ply++ {
		var l *loaded
		if err := f.st.View(func(tx *store.Tx) error {
			var err error
			l, err = load(tx, gameID)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if l.meta.Phase == phaseOver {
			return gameID
		}
		side := l.state.ToMove()
		if resignAt > 0 && ply == resignAt {
			f.reply(players[side], "resign")
			continue
		}
		moves := l.state.Moves()
		if len(moves) == 0 {
			t.Fatalf("ply %d: no moves offered in an ongoing game", ply)
		}
		// Try moves until one is accepted (the referee may refuse some, Seachess S8.3).
		for _, k := range r.Perm(len(moves)) {
			text := l.state.Format(moves[k])
			before := len(f.inbox[players[side]])
			f.reply(players[side], text)
			if strings.Contains(f.inbox[players[side]][before].Text, "Your move "+text+" was accepted") ||
				strings.Contains(f.inbox[players[side]][before].Text, "Game over") {
				break
			}
			if !strings.Contains(f.last(players[side]).Text, "Your move was not played") {
				t.Fatalf("ply %d: %s got neither a receipt nor a refusal:\n%s", ply, text, f.last(players[side]).Text)
			}
		}
	}
	t.Fatalf("%s game did not end", id)
	return 0
}

// TestEveryVariantPlaysToTheEndByMail: a random game of every variant, played by mail to
// its end (with -short, 30 plies and a resignation), ends with the final mails and a record
// that verifies.
func TestEveryVariantPlaysToTheEndByMail(t *testing.T) {
	resignAt := 0
	if testing.Short() {
		resignAt = 30
	}
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Config{})
			id := playRandomGame(t, f, v.ID(), 11, resignAt)
			for _, who := range []string{alice, bob} {
				f.mustContain(f.last(who), "Game over: ", "The full record")
			}
			pgn, res := exportGame(t, f, id)
			if res.Moves == 0 || !strings.Contains(pgn, `[VariantID "`+v.ID()+`"]`) {
				t.Errorf("export: %+v\n%s", res, pgn)
			}
		})
	}
}

// exportGame exports a finished game as PGN (record.FinalPGN) and verifies it, failing the
// test when either fails.
func exportGame(t *testing.T, f *fixture, id uint64) (string, *record.Verification) {
	t.Helper()
	pgn := finalPGN(t, f, id)
	res, err := record.Verify(bytes.NewReader(pgn))
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, pgn)
	}
	return string(pgn), res
}
