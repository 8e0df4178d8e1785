package game

import (
	"testing"
)

// TestGoldenMails keeps one golden file per kind of mail the service sends,
// from one deterministic scenario (fake clock, seeded randomness).
func TestGoldenMails(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}})
	f.names = map[string]string{alice: "Alice Liddell"} // bob's name comes from the challenge
	f.send(alice, "games@bottlepost.test", "hello", "hi there")
	golden(t, "welcome", f.last(alice))
	pa := f.last(alice).ReplyTo
	f.send(alice, pa, "help", "help")
	golden(t, "help", f.last(alice))
	f.send(alice, pa, "help", "help chess")
	golden(t, "help-variant", f.last(alice))
	f.send(alice, pa, "new", `new chess vs "Bob Smith" <`+bob+`> as white time 10/50d+2d`)
	golden(t, "challenge", f.last(alice))
	golden(t, "invitation", f.last(bob))
	f.reply(bob, "accept")
	golden(t, "started", f.last(bob))
	f.reply(alice, "e4")
	golden(t, "receipt", f.last(alice))
	golden(t, "opponent-moved", f.last(bob))
	f.reply(bob, "e4", "by the way, nice opening")
	golden(t, "illegal-move", f.last(bob))
	f.reply(bob, "history")
	golden(t, "history", f.last(bob))
	f.send(alice, pa, "games", "games")
	golden(t, "games", f.last(alice))
	pr := f.personal(ref)
	f.send(ref, pr, "audit", "audit 1")
	golden(t, "audit", f.last(ref))
	f.reply(bob, "resign")
	golden(t, "final", f.last(alice))
	f.send(ref, pr, "adj", "adjudicate 1 1-0 too late")
	golden(t, "notice", f.last(ref))
}
