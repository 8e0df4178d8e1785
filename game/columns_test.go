package game

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// playPlies has the players of game id reply random moves the referee
// accepts, n plies or until the game ends.
func playPlies(t *testing.T, f *fixture, id uint64, players [2]string, n int, r *rand.Rand) {
	t.Helper()
	for range n {
		var l *loaded
		if err := f.st.View(func(tx *store.Tx) error {
			var err error
			l, err = load(tx, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if l.meta.Phase != phasePlay {
			return
		}
		side := l.state.ToMove()
		moves := l.state.Moves()
		for _, k := range r.Perm(len(moves)) {
			if _, _, err := l.state.Apply(moves[k]); err == nil {
				f.reply(players[side], l.state.Format(moves[k]))
				break
			}
		}
	}
}

// TestEveryMailFitsIn78Columns renders every kind of mail for every
// variant, with long addresses, and checks that no line of any text part
// is longer than 78 characters: the welcome holding a command, help and a
// variant's help, the challenge and the invitation, the start, receipts,
// news and an observer's board (hidden moves and their commitments in
// Seachess), a refused move, the history, the games list and the digest,
// a draw offer, the referee's audit, and the game-over mail with the full
// record and the openings. The game has 24 plies (12 with -short).
func TestEveryMailFitsIn78Columns(t *testing.T) {
	const (
		white    = "alexandra.montgomery-smythe@mail.example-university.org"
		black    = "bartholomew.featherstonehaugh@correspondence-chess.example.net"
		watcher  = "an.observer.with.a.long.name@spectators.example.com"
		referee  = "the.chief.arbiter.of.the.club@federation.example.org"
		maxWidth = 78
	)
	markers := map[string]string{
		"welcome":    "Your mail held these commands:",
		"help":       "Commands (one per line",
		"challenge":  "You will play",
		"invitation": "challenges you to a game of",
		"update":     "It is your move.",
		"history":    "as you may read it:",
		"games":      "Your games:",
		"digest":     "Your daily digest",
		"audit":      "Referee's audit of game",
		"notice":     "adjudicated",
		"final":      "The full record",
	}
	// In another language, each kind is found by a message it writes
	// (the longest stretch of its words between the arguments); a help
	// mail is the answer to help.
	keys := map[string]string{
		"welcome":    "Your mail held these commands:",
		"challenge":  "You will play %s. Time control: %s.",
		"invitation": "%s challenges you to a game of %s by mail\n(%s; you would play %s).",
		"update":     "It is your move.",
		"history":    "Record of game %s (%s), as you may read it:",
		"games":      "Your games:",
		"digest":     "Your daily digest: the games where it is your move.",
		"audit":      "Referee's audit of game %s (%s).",
		"notice":     "Game %d adjudicated %s; both players have been told.",
		"final":      "Game over: %s, %s.",
	}
	moves := 24
	if testing.Short() {
		moves = 12
	}
	for _, lg := range lang.All {
		markers := markers
		if lg != lang.English {
			markers = map[string]string{}
			for kind, key := range keys {
				markers[kind] = longestWords(lg.Tr(key))
			}
		}
		for _, v := range variants.All() {
			t.Run(string(lg)+"/"+v.ID(), func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, Config{Referees: []string{referee}, Language: lg})
				r := rand.New(rand.NewPCG(3, 5))
				f.send(white, bare, "Let us play", "new "+v.ID()+" vs "+black+" as white time 10/50d+2d")
				w := f.last(white)
				f.answer(white, w.ReplyTo, w, "yes")
				pw := w.ReplyTo
				f.send(white, pw, "help", "help")
				help := f.last(white)
				f.send(white, pw, "help", "help "+v.ID())
				f.reply(black, "accept")
				po := f.personal(watcher)
				f.send(watcher, po, "observe", "observe 1")
				f.send(white, pw, "digest", "digest 8", "timezone America/St_Johns")
				playPlies(t, f, 1, [2]string{white, black}, moves/2, r)
				f.reply(white, "zz99", "this line is not a command and is rather long, as people write them")
				f.reply(black, "history", "board")
				f.send(black, f.personal(black), "games", "games", "digest 8")
				f.now = f.now.Add(24 * time.Hour)
				if _, err := f.svc.Tick(f.now); err != nil {
					t.Fatal(err)
				}
				f.drain()
				playPlies(t, f, 1, [2]string{white, black}, moves/2, r)
				f.reply(white, "draw")
				pr := f.personal(referee)
				f.send(referee, pr, "audit", "audit 1")
				f.send(referee, pr, "adjudicate", "adjudicate 1 1/2-1/2 the club closes for the season")

				seen := map[string]bool{"help": help != nil && help.Text != ""}
				for _, m := range f.all {
					for kind, marker := range markers {
						if strings.Contains(flat(m.Text), marker) {
							seen[kind] = true
						}
					}
					for i, line := range strings.Split(m.Text, "\n") {
						if n := utf8.RuneCountInString(strings.TrimRight(line, "\r")); n > maxWidth {
							t.Errorf("mail to %s (%s), line %d has %d characters:\n%s", m.To, m.Subject, i+1, n, line)
						}
					}
				}
				for kind := range markers {
					if !seen[kind] {
						t.Errorf("no %s mail was rendered", kind)
					}
				}
			})
		}
	}
}

// longestWords is the longest stretch of a message's words between its
// arguments (its verbs), spaces made single: what every mail writing the
// message has in its text, wrapped or not (flat).
func longestWords(format string) string {
	best := ""
	for _, part := range regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*[a-zA-Z]`).Split(format, -1) {
		if p := flat(part); len(p) > len(best) {
			best = p
		}
	}
	return best
}
