package game

import (
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/timing"
)

// TestGoldenMails keeps one golden file per kind of mail the service sends,
// from one deterministic scenario (fake clock, seeded randomness), in every
// language: English under testdata/mail/KIND.eml, the others under
// testdata/mail/LANG-KIND.eml (the service's language set to it, so that
// the welcome and the invitation to a stranger are in it too).
func TestGoldenMails(t *testing.T) {
	for _, lg := range lang.All {
		t.Run(string(lg), func(t *testing.T) {
			prefix := ""
			if lg != lang.English {
				prefix = string(lg) + "-"
			}
			golden := func(t *testing.T, name string, m *sent) { t.Helper(); golden(t, prefix+name, m) }
			f := newFixture(t, Config{Referees: []string{ref}, Language: lg})
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
		})
	}
}

// TestGoldenTimedMailsGerman keeps the mails of a game's clock and of its
// offers in German (testdata/mail/de-*.eml): the draw offer to each side,
// the half-time and the day-before reminders, the daily digest and its
// setting, the timeout's notices (the notify policy) and the lost-on-time
// and draw-agreed final mails; every line within 78 columns, every message
// from the catalog.
func TestGoldenTimedMailsGerman(t *testing.T) {
	keep := func(t *testing.T, name string, m *sent) {
		t.Helper()
		golden(t, "de-"+name, m)
		within78(t, name, m)
	}
	t.Run("clock", func(t *testing.T) {
		f := newFixture(t, Config{Referees: []string{ref}, Language: lang.German, TimeoutPolicy: TimeoutNotify})
		f.names = map[string]string{alice: "Alice Liddell", bob: "Bob Smith"}
		startTimed(t, f, "7d")
		f.reply(alice, "timezone Europe/Berlin")
		f.reply(alice, "digest 8")
		keep(t, "digest-set", f.last(alice))
		f.now = f.now.Add(3*timing.Day + 13*time.Hour)
		f.tick()
		keep(t, "reminder-half", lastWith(t, f, alice, "Erinnerung: die Hälfte"))
		f.now = f.now.Add(2*timing.Day + 12*time.Hour)
		f.tick()
		keep(t, "reminder-day", lastWith(t, f, alice, "Erinnerung: Ihr Zug ist innerhalb eines Tages"))
		keep(t, "digest", lastWith(t, f, alice, "Ihre Tagesübersicht: die Partien"))
		f.now = f.now.Add(timing.Day)
		f.tick()
		keep(t, "timeout-opponent", f.last(bob))
		keep(t, "timeout-late", f.last(alice))
		keep(t, "timeout-referee", f.last(ref))
		f.reply(bob, "claim")
		keep(t, "lost-on-time", f.last(alice))
		noMisses(t)
	})
	t.Run("draw", func(t *testing.T) {
		f := newFixture(t, Config{Language: lang.German})
		f.names = map[string]string{alice: "Alice Liddell", bob: "Bob Smith"}
		startTimed(t, f, "3d")
		f.reply(alice, "e4")
		f.reply(bob, "draw")
		keep(t, "draw-offered", f.last(bob))
		keep(t, "draw-offer", f.last(alice))
		f.reply(alice, "draw")
		keep(t, "draw-agreed", f.last(bob))
		noMisses(t)
	})
}

// lastWith is the last mail to addr whose text part has text.
func lastWith(t *testing.T, f *fixture, addr, text string) *sent {
	t.Helper()
	for i := len(f.inbox[addr]) - 1; i >= 0; i-- {
		if m := f.inbox[addr][i]; strings.Contains(flat(m.Text), flat(text)) {
			return m
		}
	}
	t.Fatalf("no mail to %s says %q", addr, text)
	return nil
}
