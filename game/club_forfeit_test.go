package game

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestForfeitInTwoLanguages: a game lost by forfeit — its player withdrew,
// or the referee withdrew them — ends with the reason in the reader's
// language, in the final mail and its subject ("game over: 1-0 (forfeit:
// Bob Smith withdrew from the tournament)" in English as before).
func TestForfeitInTwoLanguages(t *testing.T) {
	for _, tt := range []struct {
		name, en, de string
		withdraw     func(f *fixture)
	}{
		{"withdrew", "forfeit: Bob Smith withdrew from the tournament", "kampflos: Bob Smith hat sich aus dem Turnier zurückgezogen",
			func(f *fixture) { f.send(bob, f.personal(bob), "w", "withdraw 1 confirm") }},
		{"withdrawn by the referee", "forfeit: Bob Smith was withdrawn by the referee", "kampflos: Bob Smith wurde vom Schiedsrichter zurückgezogen",
			func(f *fixture) { f.send(ref, f.personal(ref), "w", "tournament 1 withdraw bob@example.net") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			carol := "carol@example.com"
			f := newFixture(t, Config{Referees: []string{ref}})
			f.names = map[string]string{alice: "Alice", bob: "Bob Smith", carol: "Carol"}
			f.speaksGerman(alice)
			f.send(bob, f.personal(bob), "games", "games")
			f.send(ref, f.personal(ref), "t", `tournament new "Spring open" variant chess time 3d players alice@example.org, bob@example.net, carol@example.com`)
			for _, p := range []string{alice, bob, carol} {
				f.reply(p, "join")
			}
			tt.withdraw(f)
			for _, g := range f.tournamentPairs(1) {
				if g.white == 2 || g.black == 2 {
					p, want, subject := carol, tt.en, "game over: "
					if g.white == 1 || g.black == 1 {
						p, want, subject = alice, tt.de, "Partie beendet: "
					}
					ms := f.gameMails(p, g.game)
					m := ms[len(ms)-1]
					f.mustContain(m, want)
					if !strings.Contains(m.Subject, subject) || !strings.Contains(m.Subject, "("+want+")") {
						t.Errorf("the final mail of game %d to %s: %q", g.game, p, m.Subject)
					}
					within78(t, fmt.Sprintf("game %d to %s", g.game, p), m)
				}
			}
			noMisses(t)
		})
	}
}

// TestSayLimitInGerman: the refusal of words past the day's limit names
// the time they may go again as a German date.
func TestSayLimitInGerman(t *testing.T) {
	f, _, _ := germanGame(t, "chess", "")
	for i := 1; i <= SaysPerDay; i++ {
		f.now = f.now.Add(time.Minute)
		f.inGame(alice, 1, fmt.Sprintf("say Notiz %d", i))
	}
	f.inGame(alice, 1, "say eine zu viel")
	f.mustContain(f.last(alice), "Ihre Worte wurden nicht weitergegeben: höchstens 10 Mails mit Worten gehen pro Tag und Partie an Ihren Gegner; die nächste darf nach So 22. Nov. 09:01 UTC gehen")
	within78(t, "the refusal", f.last(alice))
}
