package game

import (
	"strings"
	"testing"
)

func TestDrawResignAndOpenChallenges(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	f.reply(alice, "draw")
	f.mustContain(f.last(bob), "White offers a draw")
	f.reply(bob, "draw")
	f.mustContain(f.last(alice), "Game over: 1/2-1/2, drawn: draw agreed.")

	// Open challenges are matched by the next player with the same terms.
	pb := f.personal(bob)
	f.send(bob, pb, "new", "new chess time 5d")
	f.mustContain(f.last(bob), "open challenge")
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "new", "new chess time 5d")
	f.mustContain(f.last(alice), "The game has begun")
	f.mustContain(f.last(bob), "The game has begun")
	side := "White"
	if !strings.Contains(flat(f.last(bob).Text), "You play White") {
		side = "Black"
	}
	f.reply(bob, "resign")
	f.mustContain(f.last(alice), side+" resigned")
}
