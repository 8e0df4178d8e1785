package game

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
)

// noMisses fails the test when a message was looked up in a language
// whose catalog lacks it (lang.Missed): it was written in English.
func noMisses(t *testing.T) {
	t.Helper()
	if m := lang.Missed(); len(m) > 0 {
		t.Errorf("messages written in English in another language's mail (not in its catalog):\n%s", strings.Join(m, "\n"))
	}
}

// germanGame starts a game of the variant between alice (White) and bob,
// both writing language de, bob reading the board in format; the first
// mover plays its first move.
func germanGame(t *testing.T, variant, format string) (f *fixture, mover, other string) {
	t.Helper()
	f = newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice Liddell", bob: "Bob Smith"}
	for _, p := range []string{alice, bob} {
		f.send(p, f.personal(p), "Sprache", "language de")
		f.mustContain(f.last(p), "Ihre Mails sind jetzt auf Deutsch")
	}
	f.send(alice, f.personalOf(alice), "new", "new "+variant+" vs "+bob+" as white")
	f.reply(bob, "accept")
	mover, other = alice, bob
	if variant == "transporter" { // Black moves first (T1.2)
		mover, other = bob, alice
	}
	if format != "" {
		f.reply(other, "board format "+format)
	}
	f.reply(mover, firstVisibleMove(t, f))
	return f, mover, other
}

// TestGermanPerVariant: in every variant, the mails of players who chose
// German are German — the news of a move (with the board as a diagram and
// as the piece list), the receipt, a refused move with its ruling — every
// line within 78 columns, every message from the catalog (goldens
// game/testdata/mail/de-VARIANT-*.eml).
func TestGermanPerVariant(t *testing.T) {
	for _, variant := range variantsToCheck {
		t.Run(variant, func(t *testing.T) {
			f, mover, other := germanGame(t, variant, boardBoth)
			news, receipt := f.last(other), f.last(mover)
			golden(t, "de-"+variant+"-news", news)
			golden(t, "de-"+variant+"-receipt", receipt)
			f.mustContain(news, "Sie sind am Zug")
			f.mustContain(receipt, "angenommen")
			f.reply(other, "a1-h8")
			refusal := f.last(other)
			golden(t, "de-"+variant+"-refused", refusal)
			if !strings.Contains(refusal.Subject, "abgelehnt") {
				t.Errorf("the refusal's subject is %q", refusal.Subject)
			}
			for name, m := range map[string]*sent{"news": news, "receipt": receipt, "refusal": refusal} {
				within78(t, name, m)
				if !strings.Contains(m.HTML, `lang="de"`) {
					t.Errorf("the %s's HTML part does not say it is German", name)
				}
			}
			noMisses(t)
		})
	}
}

// TestLanguagesApart: in one game, each player reads their own language:
// alice German, bob English; bob's mails are what they were before
// languages came (the English goldens), alice's German.
func TestLanguagesApart(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "Sprache", "language de")
	startChess(t, f)
	f.reply(alice, "e4")
	f.mustContain(f.last(alice), "Ihr Zug e4 wurde angenommen.")
	f.mustContain(f.last(bob), "White played 1. e4.", "It is your move.")
	f.reply(bob, "e5")
	f.mustContain(f.last(alice), "Schwarz", "Sie sind am Zug")
	f.mustContain(f.last(bob), "Your move e5 was accepted.")
	// alice may write the German letters; bob may not.
	f.reply(alice, "Sf3")
	f.mustContain(f.last(alice), "Ihr Zug Nf3 wurde angenommen.")
	f.reply(bob, "Sc6")
	f.mustContain(f.last(bob), "Your move was not played")
	// And back to English.
	f.send(alice, f.personalOf(alice), "language", "language en")
	f.mustContain(f.last(alice), "Your mails are now written in English")
	noMisses(t)
}

// TestServiceLanguage: the service's language (service.language) is the
// language of players who chose none, and of strangers' first mails.
func TestServiceLanguage(t *testing.T) {
	f := newFixture(t, Config{Language: lang.German})
	startChess(t, f)
	if inv := f.inbox[bob][0]; !strings.Contains(inv.Subject, "Einladung") {
		t.Errorf("the invitation's subject is %q", inv.Subject)
	}
	f.reply(alice, "e4")
	f.mustContain(f.last(alice), "Ihr Zug e4 wurde angenommen.")
	// A player who chooses English reads English.
	f.send(alice, f.personalOf(alice), "language", "language en")
	f.mustContain(f.last(alice), "Your mails are now written in English")
	noMisses(t)
}

// TestOtherPackagesRefusalsInGerman: a refusal whose words come from
// another package — a time control (timing), a variant's name (variants),
// a ruleset (the variant), a digest's schedule — reaches a German player
// in German, and an English player as before.
func TestOtherPackagesRefusalsInGerman(t *testing.T) {
	tests := []struct {
		name, line, de, en string
	}{
		{"time control", "new chess vs " + bob + " time 3x", `"3x" ist keine Bedenkzeit`, `"3x" is not a time control`},
		{"no day", "new chess vs " + bob + " time 0d", "braucht mindestens einen Tag", "needs at least one day"},
		{"variant", "new chequers vs " + bob, `unbekannte Variante "chequers"`, `unknown variant "chequers"`},
		{"ruleset", "new chess vs " + bob + " rules blitz", `Chess hat kein Regelwerk "blitz"`, `Chess has no ruleset "blitz"`},
		{"schedule", "digest 61 * * * *", "ist kein Zeitplan", "is not a schedule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			f.send(alice, f.personal(alice), "Sprache", "language de")
			f.send(alice, f.personalOf(alice), "x", tt.line)
			f.mustContain(f.last(alice), tt.de)
			f.send(carol, f.personal(carol), "x", tt.line)
			f.mustContain(f.last(carol), tt.en)
			noMisses(t)
		})
	}
}
