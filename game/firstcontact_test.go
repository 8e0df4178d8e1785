package game

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

const bare = "games@bottlepost.test"

// answer sends a mail from addr to to that replies to the mail m (its
// In-Reply-To and References), as a mail client's reply does.
func (f *fixture) answer(addr, to string, m *sent, lines ...string) Result {
	f.t.Helper()
	f.seq++
	refs := strings.Fields(m.References)
	for i, r := range refs {
		refs[i] = strings.Trim(r, "<>")
	}
	res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("in%d@client.test", f.seq), From: addr, Recipients: []string{to},
		Subject: "Re: " + m.Subject, InReplyTo: strings.Trim(m.MessageID, "<>"), References: append(refs, strings.Trim(m.MessageID, "<>")), Lines: lines})
	if err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
	f.drain()
	return res
}

func countGames(t *testing.T, f *fixture) int {
	t.Helper()
	n := 0
	if err := f.st.View(func(tx *store.Tx) error {
		ids, err := tx.Games()
		n = len(ids)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFirstContactCarriesOutTheHeldCommands: a first mail to the bare
// address is answered with the welcome quoting its commands; nothing happens
// until the sender replies to it (to the Reply-To or to the bare address)
// and confirms them — a line "yes", or the commands written again — and
// then they are carried out, once. Any other reply, or an empty one,
// discards them and says so (issue 35.1: "I did NOT send this. Do not do
// it." carried out a forged resign).
func TestFirstContactCarriesOutTheHeldCommands(t *testing.T) {
	tests := []struct {
		name    string
		to      func(w *sent) string
		lines   []string
		carried bool
	}{
		{"yes, to the Reply-To", func(w *sent) string { return w.ReplyTo }, []string{"yes"}, true},
		{"Yes., to the bare address", func(w *sent) string { return bare }, []string{"Yes."}, true},
		{"yes among other lines", func(w *sent) string { return w.ReplyTo }, []string{"Thanks!", "YES", "-- Alice"}, true},
		{"the command written again", func(w *sent) string { return w.ReplyTo }, []string{"new chess vs " + bob}, true},
		{"an empty reply", func(w *sent) string { return w.ReplyTo }, nil, false},
		{"a refusal", func(w *sent) string { return bare }, []string{"I did NOT send this. Do not do it."}, false},
		{"yes please is not a plain yes", func(w *sent) string { return w.ReplyTo }, []string{"yes please"}, false},
		{"no", func(w *sent) string { return w.ReplyTo }, []string{"no"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			res := f.send(alice, bare, "hi", "new chess vs "+bob)
			if res.Refused == "" || res.Mails != 1 {
				t.Fatalf("first mail: %+v", res)
			}
			w := f.last(alice)
			f.mustContain(w, "Your mail held these commands:", "    new chess vs "+bob, "reply to this mail with the one word yes", "any other reply discards them")
			if !strings.HasPrefix(w.ReplyTo, "games+"+accountPrefix) || !strings.Contains(w.Text, w.ReplyTo) {
				t.Errorf("welcome Reply-To %q is not the personal address it quotes", w.ReplyTo)
			}
			if countGames(t, f) != 0 || len(f.inbox[bob]) != 0 {
				t.Fatalf("the first mail was acted on before the reply")
			}
			f.answer(alice, tt.to(w), w, tt.lines...)
			if got := countGames(t, f) == 1; got != tt.carried {
				t.Fatalf("after the reply %q: %d games, want the held command carried out: %v", tt.lines, countGames(t, f), tt.carried)
			}
			if !tt.carried {
				f.mustContain(f.last(alice), "did not confirm the commands it held", "were discarded and not carried out:", "    new chess vs "+bob)
				if len(f.inbox[bob]) != 0 {
					t.Errorf("bob was told of a discarded challenge")
				}
				// The discarded commands are gone: a yes afterwards does nothing.
				f.answer(alice, w.ReplyTo, w, "yes")
				if countGames(t, f) != 0 {
					t.Errorf("a yes after the discarding reply carried the commands out")
				}
				return
			}
			f.mustContain(f.last(bob), "challenges you to a game of Chess")
			if tt.lines[0] != "new chess vs "+bob {
				f.mustContain(f.last(alice), "the commands of your earlier mail were carried out", "Your challenge to player 2 <"+bob+">")
			}
			// Once: a second reply to the same welcome starts nothing.
			f.answer(alice, w.ReplyTo, w, "yes")
			if countGames(t, f) != 1 {
				t.Errorf("a second reply to the welcome carried the commands out again")
			}
		})
	}
}

// TestFirstContactNeverHoldsGameCommands: moves, resign, draw, claim,
// conditional moves and the referees' commands are never held by a
// welcome, however the reply confirms: the welcome names them (by their
// command word, not the mail's text) and asks for them again from the
// personal address (issue 35.1: a forged resign, and a forged adjudicate
// confirmed by a referee's out-of-office reply, ended games). A held
// accept or board finds its game by the first mail's tag.
func TestFirstContactNeverHoldsGameCommands(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{carol}})
	startChess(t, f)
	game := f.last(alice)
	f.send(alice, bare, "Re: "+game.Subject, "e4", "resign", "draw", "claim", "if e4 e5 then Nf3", "board")
	w := f.last(alice)
	f.mustContain(w, "Your mail held these commands:", "    board",
		"Your mail also asked for moves, resign, draw, claim, conditional moves (if …): commands that act on a game, or a referee's, are never carried out from a first mail",
		"send them again to your personal address")
	for _, absent := range []string{"    e4", "    resign", "    draw", "if e4 e5"} {
		if strings.Contains(w.Text, absent) {
			t.Errorf("the welcome quotes %q, a command it must not hold:\n%s", absent, w.Text)
		}
	}
	f.answer(alice, w.ReplyTo, w, "yes")
	assertMoves(t, f, 1, 0)
	if m := f.last(alice); !strings.Contains(m.Subject, "[bp-1]") {
		t.Errorf("the held board did not find game 1: %s\n%s", m.Subject, m.Text)
	}
	for _, reply := range []string{"I am out of the office until Monday.", "yes"} {
		f.send(carol, bare, "hi", "adjudicate 1 1-0 forged", "audit 1", "games")
		r := f.last(carol)
		f.mustContain(r, "Your mail also asked for adjudicate, audit", "    games")
		f.answer(carol, bare, r, reply)
	}
	assertMoves(t, f, 1, 0)
	if !strings.Contains(f.last(bob).Subject, "[bp-1]") || strings.Contains(f.last(bob).Text, "adjudicated") {
		t.Errorf("a forged adjudicate was carried out:\n%s", f.last(bob).Text)
	}
}

// TestWelcomeQuotesOnlyWhatItRecognised: the welcome repeats none of the
// forged mail's own words (issue 35.7: a forged From made the welcome relay
// attacker-written text, links, to any address): commands are spelled as
// the service reads them, lines not understood and commands whose
// arguments do not stand are counted, not quoted, and the subject is not
// repeated.
func TestWelcomeQuotesOnlyWhatItRecognised(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(eve, bare, "URGENT: visit https://evil.example/win",
		"Claim your prize at https://evil.example/win",
		"NEW   Chess  VS  "+strings.ToUpper(bob)+"  time 7D",
		"digest https://evil.example/x",
		"timezone https://evil.example",
		"help https://evil.example",
		"new https://evil.example",
		"resign https://evil.example",
		"games")
	w := f.last(eve)
	f.mustContain(w, "    new chess vs "+bob+" time 7d", "    games", "(6) are not repeated here")
	for _, part := range [][]byte{w.Raw, []byte(w.Text), []byte(w.HTML)} {
		if bytes.Contains(bytes.ToLower(part), []byte("evil.example")) || bytes.Contains(part, []byte("prize")) {
			t.Fatalf("the welcome carries the forger's text:\n%s", w.Raw)
		}
	}
}

// TestFirstContactSpoofed: a first mail forged in alice's name does nothing:
// alice gets the welcome (the forger sees nothing), a reply forged with a
// guessed or another welcome's Message-ID is not a reply to hers, and only
// alice's own reply carries the commands out.
func TestFirstContactSpoofed(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, bare, "hi", "new chess vs "+bob) // forged: alice never sent it
	w := f.last(alice)
	if len(f.inbox[eve]) != 0 || countGames(t, f) != 0 || len(f.inbox[bob]) != 0 {
		t.Fatal("the forged mail was acted on or answered to someone else")
	}
	// The forger's own welcome (eve) and guessed ids do not carry out alice's commands.
	f.send(eve, bare, "hi", "games")
	ew := f.last(eve)
	for _, id := range []string{strings.Trim(ew.MessageID, "<>"), "welcome." + f.now.Format("20060102") + ".00000000000000000000@bottlepost.test"} {
		f.seq++
		if _, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("forged%d@x", f.seq), From: alice, Recipients: []string{bare},
			Subject: "Re: welcome", InReplyTo: id, Lines: []string{"resign"}}); err != nil {
			t.Fatal(err)
		}
		f.drain()
	}
	if countGames(t, f) != 0 || len(f.inbox[bob]) != 0 {
		t.Fatal("a reply with another welcome's or a guessed id carried out alice's commands")
	}
	// A reply from another address to alice's welcome is not hers either.
	f.answer(eve, bare, w)
	if countGames(t, f) != 0 {
		t.Fatal("eve's reply to alice's welcome carried out its commands")
	}
	// Alice, reading the welcome, replies yes: now it happens.
	f.answer(alice, w.ReplyTo, w, "yes")
	if countGames(t, f) != 1 {
		t.Fatal("alice's reply did not carry out the commands")
	}
}

// TestWelcomeAFewTimesADaySameForEveryone: mail to the bare address is
// answered with the same offer whether or not the sender plays; from an
// address the service does not know, up to WelcomesPerDay times a UTC day,
// the last saying it is the last, and again the next day; from a player it
// knows, every time (within the reply allowance: issue 35.4, the README's
// one address went silent for players after three mails a day).
func TestWelcomeAFewTimesADaySameForEveryone(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	f.now = f.now.Add(25 * time.Hour)
	const last = "This is the last answer to this address today"
	for i := range WelcomesPerDay + 2 {
		for _, who := range []string{alice, eve} {
			res := f.send(who, bare, "hi", "games")
			if want := who == alice || i < WelcomesPerDay; (res.Mails == 1) != want {
				t.Errorf("%s's mail %d to the bare address: %d mails; want an answer: %v", who, i+1, res.Mails, want)
			}
		}
		if i == WelcomesPerDay-1 {
			f.mustContain(f.last(eve), last, "Mail to your personal address")
		} else if i < WelcomesPerDay && strings.Contains(flat(f.last(eve).Text), last) {
			t.Errorf("welcome %d to eve says it is the last", i+1)
		}
		if strings.Contains(flat(f.last(alice).Text), last) {
			t.Errorf("welcome %d to alice, a player, says it is the last", i+1)
		}
		if i == 0 {
			a, e := f.last(alice), f.last(eve)
			norm := func(s, who string) string {
				return strings.NewReplacer(who, "X").Replace(regexpToken.ReplaceAllString(s, "TOKEN"))
			}
			if norm(a.Text, alice) != norm(e.Text, eve) || a.Subject != e.Subject {
				t.Errorf("the welcome tells a player from a stranger:\n%s\n---\n%s", a.Text, e.Text)
			}
			f.mustContain(a, "Your mail held these commands:", "    games")
		}
	}
	f.now = f.now.Add(24 * time.Hour)
	if res := f.send(eve, bare, "hi", "games"); res.Mails != 1 {
		t.Errorf("no welcome the next day: %+v", res)
	}
}

// TestWelcomesOfTheOldVersionStillCount: on the day the program first runs on a database,
// the welcomes an older version marked as processed ids (welcome:ADDRESS:DAY:N) count
// towards the day's WelcomesPerDay; the next day only the store's count does, and the
// sweep forgets the counts of the days before.
func TestWelcomesOfTheOldVersionStillCount(t *testing.T) {
	tests := []struct {
		name   string
		marked int // the older version's marks of the day
		want   int // welcomes still sent that day
	}{
		{"none marked", 0, WelcomesPerDay},
		{"two marked", 2, WelcomesPerDay - 2},
		{"all marked", WelcomesPerDay, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			day := f.now.Format("2006-01-02")
			err := f.st.Update(func(tx *store.Tx) error {
				for n := range tt.marked {
					if err := tx.MarkProcessed(fmt.Sprintf("welcome:%s:%s:%d", eve, day, n), f.now.Add(-time.Hour)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			welcomed := func() int {
				n := 0
				for range WelcomesPerDay + 1 {
					n += f.send(eve, bare, "hi", "games").Mails
				}
				return n
			}
			if n := welcomed(); n != tt.want {
				t.Errorf("%d welcomes on the day of the upgrade, want %d", n, tt.want)
			}
			f.now = f.now.Add(24 * time.Hour)
			if _, err := f.svc.Tick(f.now); err != nil {
				t.Fatal(err)
			}
			if n := welcomed(); n != WelcomesPerDay {
				t.Errorf("%d welcomes the next day, want %d", n, WelcomesPerDay)
			}
			err = f.st.View(func(tx *store.Tx) error {
				n, err := tx.Welcomes(eve, f.now.Add(-24*time.Hour))
				if n != 0 {
					t.Errorf("the day before still counts %d welcomes after the sweep", n)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestHeldCommandsExpire: a welcome's commands wait heldDays; after that
// the sweep forgets them and a reply carries nothing out.
func TestHeldCommandsExpire(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, bare, "hi", "new chess vs "+bob)
	w := f.last(alice)
	f.now = f.now.AddDate(0, 0, heldDays+1)
	if _, err := f.svc.Tick(f.now); err != nil {
		t.Fatal(err)
	}
	f.drain()
	f.answer(alice, w.ReplyTo, w, "yes")
	if countGames(t, f) != 0 {
		t.Errorf("expired commands were carried out")
	}
	f.mustContain(f.last(alice), "Your mail had no command in it")
}
