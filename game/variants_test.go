package game

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// playRandomGame drives a whole game of the variant through the service by
// mail: each player replies to their latest mail with a random move from
// what they may submit, written as the variant prints it, until the game
// ends. It returns the game's id.
func playRandomGame(t *testing.T, f *fixture, id string, seed uint64) uint64 {
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

func TestEveryVariantPlaysToTheEndByMail(t *testing.T) {
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Config{})
			id := playRandomGame(t, f, v.ID(), 11)
			for _, who := range []string{alice, bob} {
				f.mustContain(f.last(who), "Game over: ", "Result: ", "The full record")
			}
			pgn, res := exportGame(t, f, id)
			if res.Moves == 0 || !strings.Contains(pgn, `[VariantID "`+v.ID()+`"]`) {
				t.Errorf("export: %+v\n%s", res, pgn)
			}
		})
	}
}

func TestVerifyCatchesTampering(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	for _, m := range []string{"f3", "e5", "g4", "Qh4#"} {
		who := alice
		if m == "e5" || m == "Qh4#" {
			who = bob
		}
		f.reply(who, m)
	}
	var x *store.Export
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		x, err = tx.Export(1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var pgn bytes.Buffer
	if err := Export(&pgn, x); err != nil {
		t.Fatal(err)
	}
	good := pgn.String()
	if _, err := Verify(strings.NewReader(good)); err != nil {
		t.Fatalf("the untouched export fails: %v", err)
	}
	tests := []struct {
		name, old, new string
	}{
		{"a move changed in the movetext", "2. g4", "2. g3"},
		{"the export block damaged", "bottlepost-export/1\n", "bottlepost-export/1\nAAAA"},
		{"the block removed", "{bottlepost-export/1", "{comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(good, tt.old, tt.new, 1)
			if bad == good {
				t.Fatalf("%q not found in the export", tt.old)
			}
			if _, err := Verify(strings.NewReader(bad)); err == nil {
				t.Errorf("tampered export verified")
			}
		})
	}
	// An altered record in the embedded export is caught by the chain.
	x.Records[2].Record[len(x.Records[2].Record)-1] ^= 1
	var bad bytes.Buffer
	Export(&bad, x)
	_, err := Verify(&bad)
	if !errors.Is(err, store.ErrTampered) {
		t.Errorf("altered record: %v, want ErrTampered", err)
	}
	// A record whose move is illegal, with a chain rebuilt to match, is caught on replay:
	// the chain proves integrity, the replay proves legality.
	_, plies, _ := Replay(variantOf(t, "chess"), rules.Options{}, []string{"f3", "e5", "g4", "Qg5"})
	if plies[3].Err != nil {
		t.Fatalf("Qg5 should replay: %v", plies[3].Err)
	}
	_, plies, _ = Replay(variantOf(t, "chess"), rules.Options{}, []string{"f3", "e5", "g4", "Qh3"})
	if plies[len(plies)-1].Err == nil {
		t.Errorf("illegal Qh3 replayed")
	}
}

// exportGame exports a finished game as PGN and verifies it, failing the
// test when either fails.
func exportGame(t *testing.T, f *fixture, id uint64) (string, *Verification) {
	t.Helper()
	var x *store.Export
	if err := f.st.View(func(tx *store.Tx) error {
		var err error
		x, err = tx.Export(id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var pgn bytes.Buffer
	if err := Export(&pgn, x); err != nil {
		t.Fatal(err)
	}
	res, err := Verify(bytes.NewReader(pgn.Bytes()))
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, pgn.String())
	}
	return pgn.String(), res
}

func variantOf(t *testing.T, id string) rules.Variant {
	v, err := variants.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
