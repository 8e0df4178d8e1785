package game

import (
	"strings"
	"testing"
)

func TestObserverSeesOnlyPublic(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	po := f.personal(eve)
	f.send(eve, po, "watch", "observe 1")
	f.mustContain(f.last(eve), "You now observe game 1", "what both sides know")
	f.reply(alice, "e4")
	f.mustContain(f.last(eve), "White played 1. e4.")
	f.send(eve, po, "watch", "observe 1")
	f.mustContain(f.last(eve), "you already observe game 1")
	for _, m := range f.inbox[eve] {
		if strings.Contains(m.Text, alice) || strings.Contains(m.Text, bob) || strings.Contains(m.Subject, alice) {
			t.Errorf("an observer learned who plays:\n%s\n%s", m.Subject, m.Text)
		}
	}
	f.send(eve, po, "watch", "observe 1 off")
	f.mustContain(f.last(eve), "You no longer observe game 1.")
	n := len(f.inbox[eve])
	f.reply(bob, "e5")
	if len(f.inbox[eve]) != n {
		t.Errorf("an observer who stopped still gets the moves")
	}
	// Challenges are private: nobody observes a game that has not begun.
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "n", "new chess vs "+ref)
	f.send(eve, po, "watch", "observe 2")
	f.mustContain(f.last(eve), "game 2 is not being played")
}
