package game

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

// seatTokens are the seat tokens in the Reply-To addresses of every mail sent so far.
func (f *fixture) seatTokens() map[string]bool {
	toks := map[string]bool{}
	for _, m := range f.all {
		local, _, _ := strings.Cut(m.ReplyTo, "@")
		if _, tok, ok := strings.Cut(local, "+"); ok && !strings.HasPrefix(tok, accountPrefix) {
			toks[tok] = true
		}
	}
	return toks
}

// TestBackupHoldsNoSeatToken plays games by mail and searches a fresh backup of the
// database for every seat token the service issued: none is there (a token and a forged
// From would act for its player), while each still works.
func TestBackupHoldsNoSeatToken(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "new", "new chess vs "+bob+" as white")
	f.reply(bob, "accept")
	f.reply(alice, "e4")
	f.reply(bob, "e5")
	chess := f.last(alice)
	f.send(alice, pa, "new", "new seachess vs "+bob)
	f.reply(bob, "accept")
	toks := f.seatTokens()
	if len(toks) != 4 {
		t.Fatalf("%d seat tokens issued, want 4: %v", len(toks), toks)
	}
	var backup bytes.Buffer
	if _, err := f.st.Backup(&backup); err != nil {
		t.Fatal(err)
	}
	low := bytes.ToLower(backup.Bytes())
	for tok := range toks {
		if bytes.Contains(low, []byte(tok)) {
			t.Errorf("the backup holds the seat token %s", tok)
		}
	}
	f.send(alice, chess.ReplyTo, "Re: "+chess.Subject, "Nf3") // the token still works
	f.mustContain(f.last(alice), "Your move Nf3 was accepted")
}

// TestOldSeatTokensForgotten starts the service on a database whose games keep their seat
// tokens in their data, as before schema 3: the tokens leave the data, the old one still
// works, and mail from then on carries the derived one.
func TestOldSeatTokensForgotten(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
	f.reply(bob, "accept")
	old := "oldtokenaaaaaaaaaaaaaaaaaa"
	err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		m, err := decodeGameMeta(g)
		if err != nil {
			return err
		}
		m.OldTokens = [2]string{old, ""}
		if err := tx.PutToken(old, store.TokenRef{Game: 1, Player: g.Seats[0].Player, Side: store.White}); err != nil {
			return err
		}
		if err := tx.PutMeta(1, m.encode()); err != nil {
			return err
		}
		return tx.PutSetting(settingTokensForgotten, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	f.restart(Config{})
	f.st.View(func(tx *store.Tx) error {
		g, _ := tx.Game(1)
		if bytes.Contains(g.Meta, []byte(old)) {
			t.Errorf("the game's data still holds the old token: %s", g.Meta)
		}
		return nil
	})
	f.send(alice, "games+"+old+"@bottlepost.test", "Re: move", "e4")
	m := f.last(alice)
	f.mustContain(m, "Your move e4 was accepted")
	if strings.Contains(m.ReplyTo, old) {
		t.Errorf("the reply still goes to the old token: %s", m.ReplyTo)
	}
	f.reply(alice, "board") // the derived token works too
	f.mustContain(f.last(alice), "Waiting for Black's move.")
}
