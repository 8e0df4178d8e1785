package game

import (
	"strings"
	"testing"
)

// speaksGerman has addr choose German.
func (f *fixture) speaksGerman(addr string) {
	f.t.Helper()
	f.send(addr, f.personal(addr), "Sprache", "language de")
	f.mustContain(f.last(addr), "Ihre Mails sind jetzt auf Deutsch")
}

// lastWith is the newest mail to addr whose subject begins with prefix.
func (f *fixture) lastWith(addr, prefix string) *sent {
	f.t.Helper()
	box := f.inbox[addr]
	for i := len(box) - 1; i >= 0; i-- {
		if strings.HasPrefix(box[i].Subject, prefix) {
			return box[i]
		}
	}
	f.t.Fatalf("no mail to %s with the subject %q", addr, prefix)
	return nil
}

// TestTournamentInTwoLanguages: a tournament with a German referee, a
// German player (alice) and English players (bob, carol): every mail of
// it — the invitations, the answers, the start and each player's list of
// games, the game's round and standings lines, the crosstable, the list of
// tournaments, a withdrawal, the forfeit's "not rated", the final
// standings — is written in its recipient's language, each line within 78
// columns; a German reply to a German invitation finds its tournament.
func TestTournamentInTwoLanguages(t *testing.T) {
	carol := "carol@example.com"
	f := newFixture(t, Config{Referees: []string{ref}})
	f.names = map[string]string{alice: "Alice", bob: "Bob Smith", carol: "Carol"}
	f.speaksGerman(ref)
	f.speaksGerman(alice)
	f.send(bob, f.personal(bob), "games", "games")
	pr := f.personal(ref)

	// Refusals, in the sender's language.
	f.send(ref, pr, "t", "tournament new")
	f.mustContain(f.last(ref), "schreiben Sie tournament new NAME variant VARIANTE")
	f.send(alice, f.personal(alice), "t", `tournament new "X" variant chess time 3d players bob@example.net, carol@example.com, ref@example.org`)
	f.mustContain(f.last(alice), "nur ein Schiedsrichter dieses Dienstes darf ein Turnier anlegen")

	f.send(ref, pr, "a tournament", `tournament new "Spring open" variant chess time 3d players alice@example.org, bob@example.net, carol@example.com`)
	f.mustContain(f.last(ref), "Turnier 1, Spring open, ist angelegt: ein gewertetes Rundenturnier, Variante Chess",
		"tournament 1 start")
	inv := f.last(alice)
	if !strings.HasPrefix(inv.Subject, "Turnier 1: Einladung · Spring open") {
		t.Errorf("alice's invitation: %q", inv.Subject)
	}
	f.mustContain(inv, "lädt Sie zu Turnier 1 ein, Spring open", "bei 3 Spielern spielen Sie 2 Partien gleichzeitig",
		"mit dem einen Wort: join", "um abzulehnen: decline")
	if !strings.HasPrefix(f.last(bob).Subject, "Tournament 1: invitation · Spring open") {
		t.Errorf("bob's invitation: %q", f.last(bob).Subject)
	}
	f.mustContain(f.last(bob), "invites you to play in tournament 1, Spring open: a rated round robin of Chess")
	f.mustContain(f.last(carol), "bottlepost is a server")

	f.reply(alice, "tournament 1 start")
	f.mustContain(f.last(alice), "nur ein Schiedsrichter darf Turnier 1 starten")
	f.send(alice, f.personal(alice), "Re: Turnier 1: Einladung · Spring open", "join") // found by the German subject
	f.mustContain(f.last(alice), "Sie haben Turnier 1, Spring open, zugesagt.", "Seine Partien beginnen")
	f.mustContain(f.last(ref), "hat Turnier 1 zugesagt: 1 zugesagt, 2 noch ohne Antwort.")
	f.send(ref, pr, "t", "tournament 1")
	f.mustContain(f.last(ref), "wartet auf die Antworten der Spieler (1 zugesagt, 2 noch ohne Antwort)")
	f.reply(bob, "join")
	f.mustContain(f.last(bob), "You joined tournament 1, Spring open.")
	f.mustContain(f.last(ref), "Bob Smith <bob@example.net> hat Turnier 1 zugesagt")
	f.reply(carol, "join")
	f.mustContain(f.last(ref), "Turnier 1, Spring open, hat begonnen: 3 Spieler, 3 Partien gestartet.")

	pairs := f.tournamentPairs(1)
	for _, p := range []string{alice, bob, carol} {
		var list *sent
		for _, m := range f.inbox[p] {
			if strings.Contains(m.Subject, "Ihre Partien") || strings.Contains(m.Subject, "your games") {
				list = m
			}
		}
		if list == nil {
			t.Fatalf("%s has no list of their games", p)
		}
		within78(t, "the list of "+p, list)
		if p == alice {
			f.mustContain(list, "Turnier 1, Spring open, hat begonnen: 3 Spieler, 3 Partien, alle heute gestartet.", "Runde ")
			if !strings.Contains(list.Text, "Weiß gegen") && !strings.Contains(list.Text, "Schwarz gegen") {
				t.Errorf("alice's list has no German colour:\n%s", list.Text)
			}
		} else {
			f.mustContain(list, "has begun: 3 players, 3 games, all started today", "Round ")
		}
	}
	var ab, ac, bc uint64 // the games alice v bob, alice v carol, bob v carol
	for _, g := range pairs {
		switch g.white + g.black {
		case 3:
			ab = g.game
		case 4:
			ac = g.game
		case 5:
			bc = g.game
		}
	}
	start := f.gameMails(alice, ab)[0]
	f.mustContain(start, "Turnier 1, Spring open: Runde ", "Spring open: 0/0, =1. von 3")
	within78(t, "alice's start mail", start)
	f.mustContain(f.gameMails(bob, ab)[0], "Tournament 1, Spring open: round ", "Spring open: 0/0, =1st of 3")

	f.send(alice, f.personal(alice), "t", "tournaments")
	f.mustContain(f.last(alice), "Ihre Turniere (schreiben Sie tournament N", "Turnier 1, Spring open (Chess): läuft; Sie: 0/0, =1. von 3")
	f.send(ref, pr, "t", "tournaments")
	f.mustContain(f.last(ref), "Turnier 1, Spring open (Chess): läuft; Sie sind Schiedsrichter")
	f.send(alice, f.personal(alice), "t", "tournament 1")
	f.mustContain(f.last(alice), "Turnier 1, Spring open: ein gewertetes Rundenturnier, Variante Chess, nach 0 von 3 Partien.",
		"Pl.  Nr. Name       Pkt  SB      Siege")
	f.send(bob, f.personal(bob), "t", "tournament 1")
	f.mustContain(f.last(bob), "Pl.  No. Name       Pts  S-B     Wins")

	// alice asks to withdraw (and does not confirm); bob withdraws.
	f.send(alice, f.personal(alice), "w", "withdraw 1")
	f.mustContain(f.last(alice), "Um sich aus Turnier 1, Spring open, zurückzuziehen, antworten Sie: withdraw 1 confirm",
		"Jede Ihrer noch laufenden Partien (2)")
	f.send(bob, f.personal(bob), "w", "withdraw 1")
	f.reply(bob, "withdraw 1 confirm")
	f.mustContain(f.last(bob), "You have withdrawn from tournament 1, Spring open: 2 games lost by forfeit.")
	ms := f.gameMails(alice, ab)
	f.mustContain(ms[len(ms)-1], "Nicht gewertet: die Partie ging kampflos verloren, weil sich ein Spieler aus dem Turnier zurückgezogen hat.")
	ms = f.gameMails(carol, bc)
	f.mustContain(ms[len(ms)-1], "Not rated: the game was lost by forfeit")
	f.send(ref, pr, "w", "tournament 1 withdraw bob@example.net")
	f.mustContain(f.last(ref), "bob@example.net hat sich bereits aus Turnier 1 zurückgezogen")

	// The last game ends: the final standings, each in their language.
	f.inGame(carol, ac, "resign")
	for _, p := range []string{alice, ref} {
		m := f.lastWith(p, "Turnier 1: Endstand · Spring open")
		f.mustContain(m, "Variante Chess, Endstand.", "Alle Partien sind beendet. Danke fürs Mitspielen.", "Pl.  Nr. Name")
		within78(t, "the final standings to "+p, m)
	}
	for _, p := range []string{bob, carol} {
		m := f.lastWith(p, "Tournament 1: final standings · Spring open")
		f.mustContain(m, "a rated round robin of Chess, final standings.", "Every game has ended. Thank you for playing.")
	}
	noMisses(t)
}

// TestClubGerman: the club's other commands answer a German player in
// German: name, messages off|on, say, takebacks (asked, accepted, a refusal),
// the rating lines of a final mail and the ratings command.
func TestClubGerman(t *testing.T) {
	f, _, _ := germanGame(t, "chess", "") // alice (White) played 1. e4 (or what firstVisibleMove chose)
	steps := []struct {
		name  string
		from  string
		lines []string
		to    string // whose last mail is checked
		want  []string
	}{
		{"name", alice, []string{"name Alice Liddell"}, alice, []string{"Sie erscheinen jetzt als Alice Liddell bei Ihren Gegnern"}},
		{"name asked", alice, []string{"name"}, alice, []string{"nennen Sie Alice Liddell (der Name, den Sie gewählt haben)"}},
		{"name refused", alice, []string{"name player 7"}, alice, []string{"hat die Form der Namen, die bottlepost Spielern ohne Namen gibt"}},
		{"messages off", bob, []string{"messages off"}, bob, []string{"Die Worte Ihrer Gegner (say …) erreichen Sie nicht mehr"}},
		{"said while off", alice, []string{"say Viel Glück!"}, alice, []string{"Ihre Worte wurden nicht weitergegeben: Bob Smith hat Nachrichten abgeschaltet."}},
		{"messages on", bob, []string{"messages on"}, bob, []string{"Die Worte Ihrer Gegner (say …) erreichen Sie wieder"}},
		{"say", alice, []string{"say Viel Glück!"}, alice, []string{"Ihre Worte wurden an Bob Smith weitergegeben."}},
		{"takeback asked", alice, []string{"takeback"}, alice, []string{"gebeten, 1. ", "zurücknehmen zu dürfen."}},
		{"takeback to answer", bob, nil, bob, []string{"bittet darum, 1. ", "Antworten Sie takeback accept"}},
		{"takeback accepted", bob, []string{"takeback accept"}, bob, []string{"Sie haben die Zugrücknahme von", "angenommen: 1. "}},
		{"takeback told", alice, nil, alice, []string{"hat Ihre Zugrücknahme angenommen", "(Ihnen verbleibende Zugrücknahmen in dieser Partie: 2)"}},
		{"takeback refused", bob, []string{"takeback accept"}, bob, []string{"es gibt keine Zugrücknahme von"}},
		{"ratings, none yet", bob, []string{"ratings"}, bob, []string{"Sie haben noch keine gewertete Partie: Sie beginnen in jeder Wertungsliste bei 1500?."}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			switch {
			case s.lines == nil:
			case strings.HasPrefix(s.lines[0], "ratings") || strings.HasPrefix(s.lines[0], "name"):
				f.send(s.from, f.personal(s.from), s.name, s.lines...)
			default:
				f.inGame(s.from, 1, s.lines...)
			}
			m := f.last(s.to)
			f.mustContain(m, s.want...)
			within78(t, s.name, m)
		})
	}

	// A rated end: each player's final mail says how their rating changed.
	f.inGame(alice, 1, firstVisibleMove(t, f))
	f.inGame(bob, 1, f.anyMove(1))
	f.inGame(alice, 1, "resign")
	for _, p := range []string{alice, bob} {
		m := f.last(p)
		f.mustContain(m, "Ihre Wertungszahl: 1500? → ")
		within78(t, "the final mail to "+p, m)
	}
	f.send(bob, f.personal(bob), "r", "ratings chess")
	m := f.last(bob)
	if m.Subject != "bottlepost: Wertungszahlen chess" {
		t.Errorf("subject %q", m.Subject)
	}
	f.mustContain(m, "Chess: 2 gewertete Spieler.", "1. Bob Smith", "1 Partie", "Ihre Wertungszahl in Chess: ", "1. von 2; 1 Partie: 1 gewonnen, 0 Remis, 0 verloren.",
		"Eine Wertungszahl mit ? ist vorläufig")
	within78(t, "ratings", m)
	f.send(bob, f.personal(bob), "r", "ratings battle")
	f.mustContain(f.last(bob), "Sie haben keine gewertete Partie in Chess-Battle: Sie würden bei 1500? beginnen.")
	f.send(bob, f.personal(bob), "r", "ratings go")
	f.mustContain(f.last(bob), `es gibt keine Wertungsliste "go"; die Listen sind chess, seachess`)
	noMisses(t)
}
