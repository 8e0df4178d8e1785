package game

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/lang"
)

// TestCommandsGerman runs a command of every family in German, in one
// service, step by step: alice and bob, then carol, an observer, write
// language de; each answer is German (a word the step expects), within 78
// columns, and no message of the commands is missing from the catalog.
func TestCommandsGerman(t *testing.T) {
	const carol = "carol@example.com"
	f := newFixture(t, Config{VacationDays: 14})
	f.names = map[string]string{alice: "Alice Liddell", bob: "Bob Smith", carol: "Carol"}
	for _, p := range []string{alice, bob, carol} {
		f.send(p, f.personal(p), "Sprache", "language de")
		f.mustContain(f.last(p), "Ihre Mails sind jetzt auf Deutsch")
	}
	personal := func(addr string, line string) func() {
		return func() { f.send(addr, f.personalOf(addr), "Befehl", line) }
	}
	reply := func(addr string, line string) func() {
		return func() { f.reply(addr, line) }
	}
	steps := []struct {
		name  string
		do    func()
		to    string
		wants []string
	}{
		{"new", personal(alice, "new chess vs "+bob+" as white"), alice, []string{"Ihre Herausforderung an Bob Smith", "wurde gesendet"}},
		{"accept", reply(bob, "accept"), bob, []string{"Die Partie hat begonnen", "Sie spielen"}},
		{"accept again", reply(bob, "accept"), bob, []string{"Partie 1 hat bereits begonnen"}},
		{"move", reply(alice, "e4"), alice, []string{"Ihr Zug e4 wurde angenommen."}},
		{"the opponent hears of the move", func() {}, bob, []string{"spielte 1. e4."}},
		{"not your turn", reply(alice, "d4"), alice, []string{"Sie sind nicht am Zug"}},
		{"refused move", reply(bob, "e4"), bob, []string{"Ihr Zug wurde nicht gespielt", "FIDE 3.7"}},
		{"conditional", reply(alice, "if e5 then Nf3"), alice, []string{"Bedingte Zugfolge eingetragen: if e5 then Nf3.", "Bedingte Zugfolgen werden sofort gespielt"}},
		{"conditional, German letters", reply(alice, "if e6 then Sf3"), alice, []string{"Bedingte Zugfolge eingetragen: if e6 then Nf3."}},
		{"conditional not parsed", reply(alice, "if e5"), alice, []string{"fehlen then und Ihr Zug"}},
		{"conditionals", reply(alice, "conditionals"), alice, []string{"Ihre eingetragenen bedingten Züge in Partie 1 (2 von höchstens 20 Zugfolgen):"}},
		{"conditional played", reply(bob, "e5"), alice, []string{"Ihr bedingter Zug 2. Nf3 wurde sofort als Antwort auf 1... e5 gespielt."}},
		{"the conditional's news", func() {}, bob, []string{"hat sofort mit einem bedingten Zug geantwortet."}},
		{"claim", reply(alice, "claim"), alice, []string{"es gibt nichts zu reklamieren"}},
		{"draw offered", reply(alice, "draw"), alice, []string{"Sie haben Remis angeboten"}},
		{"the opponent hears of the offer", func() {}, bob, []string{"bietet Remis an"}},
		{"draw offered again", reply(alice, "draw"), alice, []string{"Sie haben bereits Remis angeboten"}},
		{"draw not parsed", reply(alice, "draw now"), alice, []string{"schreiben Sie nur draw"}},
		{"observe", personal(carol, "observe 1"), carol, []string{"Sie sind jetzt Zuschauer der Partie 1."}},
		{"observe off", personal(carol, "observe 1 off"), carol, []string{"Sie sind nicht mehr Zuschauer der Partie 1."}},
		{"pgn too early", personal(alice, "pgn 1"), alice, []string{"Partie 1 ist nicht beendet"}},
		{"vacation", personal(alice, "vacation 3 days"), alice, []string{"Ihre Uhren stehen bis", "Urlaubstage"}},
		{"the opponent hears of the vacation", func() {}, bob, []string{"im Urlaub"}},
		{"vacation not parsed", personal(alice, "vacation x"), alice, []string{"vacation braucht eine Zahl von Tagen"}},
		{"timezone", personal(alice, "timezone Europe/Berlin"), alice, []string{"Fristen werden in Europe/Berlin angezeigt"}},
		{"timezone refused", personal(alice, "timezone Mars/Olympus"), alice, []string{"ist kein Zeitzonenname"}},
		{"board format", personal(alice, "board format list"), alice, []string{"Ihr Brettformat ist jetzt list", "die Figuren in Worten"}},
		{"notation", personal(alice, "notation iccf"), alice, []string{"Ziffernnotation"}},
		{"settings", personal(alice, "settings"), alice, []string{"Ihre Einstellungen", "Sprache: de (Deutsch)", "Urlaub: dieses Jahr noch", "im Urlaub bis"}},
		{"games", personal(alice, "games"), alice, []string{"[bp-1] Chess v Bob Smith", "als"}},
		{"address", personal(bob, "address bob@new.example.net"), bob, []string{"Eine Bestätigung ging an bob@new.example.net"}},
		{"address taken", personal(bob, "address "+alice), bob, []string{"ist die Adresse eines anderen bottlepost-Kontos"}},
		{"no command", personal(alice, "hallo"), alice, []string{"Diese Zeilen wurden nicht verstanden"}},
		{"a second game declined", func() {
			f.send(alice, f.personalOf(alice), "neu", "new chess vs "+carol)
			f.reply(carol, "decline")
		}, carol, []string{"Sie haben die Herausforderung von Alice Liddell"}},
		{"the challenger hears of it", func() {}, alice, []string{"hat Ihre Herausforderung zu einer Partie Chess abgelehnt"}},
		{"resign", reply(bob, "resign"), bob, []string{"Partie beendet"}},
		{"move after the end", func() { f.send(bob, f.inbox[bob][len(f.inbox[bob])-1].ReplyTo, "Re: [bp-1]", "Nc6") }, bob, []string{"Partie 1 ist beendet ("}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			m := f.last(s.to)
			f.mustContain(m, s.wants...)
			within78(t, s.name, m)
			if !strings.Contains(m.HTML, `lang="de"`) {
				t.Errorf("the answer's HTML part does not say it is German")
			}
		})
	}
	noMisses(t)
}

// TestWelcomeGerman: a service whose language is German welcomes a
// stranger in German, holds their commands, and tells them in German which
// ones are never held.
func TestWelcomeGerman(t *testing.T) {
	f := newFixture(t, Config{Language: lang.German})
	f.send(alice, f.svc.cfg.Address, "hallo", "games", "e4", "was ist das?")
	m := f.last(alice)
	if m.Subject != "bottlepost: antworten Sie yes, um Ihre Befehle auszuführen" {
		t.Errorf("the welcome's subject is %q", m.Subject)
	}
	f.mustContain(m, "Ihre Mail verlangte auch Züge:", "nicht als Befehle verstanden wurden (1)")
	within78(t, "welcome", m)
	f.send(bob, f.svc.cfg.Address, "hallo", "hallo")
	if m := f.last(bob); m.Subject != "Willkommen bei bottlepost" {
		t.Errorf("the welcome's subject is %q", m.Subject)
	}
	noMisses(t)
}

// TestGermanPieceLetters: a player whose language is German may write
// chess's German piece letters (K D T L S), in a move and in a conditional
// line; a player writing English may not.
func TestGermanPieceLetters(t *testing.T) {
	tests := []struct {
		name, language, move string
		wants                []string
	}{
		{"German Sf3", "de", "Sf3", []string{"Ihr Zug Nf3 wurde angenommen."}},
		{"German Nf3 too", "de", "Nf3", []string{"Ihr Zug Nf3 wurde angenommen."}},
		{"English Sf3", "en", "Sf3", []string{"Your move was not played", `"Sf3"`}},
		{"English Nf3", "en", "Nf3", []string{"Your move Nf3 was accepted."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			f.send(alice, f.personal(alice), "language", "language "+tc.language)
			f.send(alice, f.personalOf(alice), "new", "new chess vs "+bob+" as white")
			f.reply(bob, "accept")
			f.reply(alice, tc.move)
			f.mustContain(f.last(alice), tc.wants...)
		})
	}
	t.Run("German conditional line", func(t *testing.T) {
		f := newFixture(t, Config{})
		f.send(bob, f.personal(bob), "language", "language de")
		f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
		f.reply(bob, "accept")
		f.reply(alice, "e4")
		f.reply(bob, "e5")
		f.reply(bob, "if Sf3 then Sc6 if Lb5 then a6")
		f.mustContain(f.last(bob), "Bedingte Zugfolge eingetragen: if Nf3 then Nc6 if Bb5 then a6.")
		f.reply(alice, "Nf3")
		f.mustContain(f.last(bob), "Ihr bedingter Zug 2... Nc6 wurde sofort als Antwort auf 2. Nf3 gespielt.")
	})
	t.Run("English conditional line", func(t *testing.T) {
		f := newFixture(t, Config{})
		f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
		f.reply(bob, "accept")
		f.reply(alice, "e4")
		f.reply(bob, "e5")
		f.reply(bob, "if Sf3 then Sc6")
		f.mustContain(f.last(bob), "The conditional line", "was not registered")
	})
}

// TestLanguageThenSettings: language de, then settings in the same mail:
// the settings answer in German and list the language.
func TestLanguageThenSettings(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "Einstellungen", "language de", "settings")
	m := f.last(alice)
	f.mustContain(m, "Ihre Mails sind jetzt auf Deutsch", "Ihre Einstellungen, jede mit dem Befehl, der sie ändert:",
		"Sprache: de (Deutsch). Ändern: language de oder language en.", "Brettformat: diagram")
	if !strings.Contains(m.Text, "language") {
		t.Errorf("the settings do not list the language:\n%s", m.Text)
	}
	within78(t, "settings", m)
	noMisses(t)
}
