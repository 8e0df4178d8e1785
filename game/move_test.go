package game

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/store"
)

func TestChessGameByMail(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	// Fool's mate, with a receipt to the mover and the news to the other side.
	f.reply(alice, "f3")
	f.mustContain(f.last(alice), "Your move f3 was accepted.", "Waiting for Black's move.")
	f.mustContain(f.last(bob), "White played 1. f3.", "It is your move.", "Deadline: ")
	f.reply(bob, "e5")
	f.reply(alice, "1. g4")
	f.reply(bob, "Qh4#")
	for _, who := range []string{alice, bob} {
		m := f.last(who)
		f.mustContain(m, "Game over: 0-1, Black wins: checkmate", "f3", "Qh4#")
		if !strings.Contains(m.HTML, "<pre") {
			t.Errorf("final mail to %s has no <pre> board", who)
		}
	}
	// The game is archived; moves are refused with a clear answer.
	f.reply(alice, "e4")
	f.mustContain(f.last(alice), "is over")
	err := f.st.View(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		if !g.Archived || g.Result != "0-1" {
			t.Errorf("game not archived with its result: %+v", g)
		}
		return tx.VerifyGame(1)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWrongMoveNumberIsSaid: a move number is read past, so a move
// written with the wrong one is played, but the receipt says so; the right
// one, or none, says nothing.
func TestWrongMoveNumberIsSaid(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	tests := []struct {
		name, who, line, want string
	}{
		{"right number", alice, "1. e4", ""},
		{"no number", bob, "e5", ""},
		{"a number too far", alice, "8. Nf3", "You numbered it 8.; it was played as 2. Nf3."},
		{"the first mover's number for the reply", bob, "2. Nc6", "You numbered it 2.; it was played as 2... Nc6."},
		{"a reply's number for the first mover", alice, "3... Bb5", "You numbered it 3...; it was played as 3. Bb5."},
		{"right reply number", bob, "3… a6", ""},
	}
	for _, tt := range tests {
		f.reply(tt.who, tt.line)
		m := f.last(tt.who)
		f.mustContain(m, "was accepted.")
		if got := strings.Contains(flat(m.Text), "You numbered it"); got != (tt.want != "") {
			t.Errorf("%s: the receipt of %q says of its number: %v:\n%s", tt.name, tt.line, got, m.Text)
		}
		if tt.want != "" {
			f.mustContain(m, tt.want)
		}
	}
}
