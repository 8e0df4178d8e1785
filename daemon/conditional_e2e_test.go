package daemon

import (
	"strings"
	"testing"
)

// TestEndToEndConditionalMovesAcrossRestart registers a chained conditional line by mail
// through the hub, restarts the service, and has the opponent's moves answered at once
// from the lines the store kept.
func TestEndToEndConditionalMovesAcrossRestart(t *testing.T) {
	r, pw, alice, bob := chessGame(t)
	sent(t)(alice.Reply("e4\nif e5 then Nf3 if Nc6 then Bb5\nif d5 then exd5"))
	await(t, alice, "Conditional line registered: if e5 then Nf3 if Nc6 then Bb5.")
	await(t, bob, "White played 1. e4.")
	aliceToken, bobToken := alice.Inbox[len(alice.Inbox)-1].ReplyTo, bob.Inbox[len(bob.Inbox)-1].ReplyTo
	// A new process (and a new, empty hub) on the same store.
	d2 := r.restart(t)
	alice2, bob2 := NewPlayer(d2.Hub(), "alice", pw), NewPlayer(d2.Hub(), "bob", pw)

	sent(t)(bob2.Send(Mail{To: bobToken, Subject: "Re: [bp-1]", Body: "e5"}))
	got := await(t, bob2, "White answered at once with a conditional move.")
	if !strings.Contains(got.Text(), "It is your move.") || !strings.Contains(got.Text(), "Nf3") {
		t.Errorf("bob's receipt does not show the reply and the board after it:\n%s", got.Text())
	}
	await(t, alice2, "Your conditional move 2. Nf3 was played at once in answer to 1... e5.")
	sent(t)(bob2.Send(Mail{To: bobToken, Subject: "Re: [bp-1]", Body: "Nc6"}))
	await(t, bob2, "White answered at once with a conditional move.")
	await(t, alice2, "Your conditional move 3. Bb5 was played at once in answer to 2... Nc6.")
	sent(t)(alice2.Send(Mail{To: aliceToken, Subject: "Re: [bp-1]", Body: "conditionals"}))
	await(t, alice2, "You have no conditional moves pending in game 1.")
}
