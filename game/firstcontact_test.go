package game

import (
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
// until the sender replies to it (any text, or none; to the Reply-To or to
// the bare address), and then the commands are carried out, once.
func TestFirstContactCarriesOutTheHeldCommands(t *testing.T) {
	tests := []struct {
		name  string
		to    func(w *sent) string
		lines []string
	}{
		{"reply to the Reply-To, empty", func(w *sent) string { return w.ReplyTo }, nil},
		{"reply to the bare address, with text", func(w *sent) string { return bare }, []string{"yes please"}},
		{"reply repeating the command", func(w *sent) string { return w.ReplyTo }, []string{"new chess vs " + bob}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			res := f.send(alice, bare, "hi", "new chess vs "+bob)
			if res.Refused == "" || res.Mails != 1 {
				t.Fatalf("first mail: %+v", res)
			}
			w := f.last(alice)
			f.mustContain(w, "Your mail held these commands:", "    new chess vs "+bob, "Reply to this mail to carry them out")
			if !strings.HasPrefix(w.ReplyTo, "games+"+accountPrefix) || !strings.Contains(w.Text, w.ReplyTo) {
				t.Errorf("welcome Reply-To %q is not the personal address it quotes", w.ReplyTo)
			}
			if countGames(t, f) != 0 || len(f.inbox[bob]) != 0 {
				t.Fatalf("the first mail was acted on before the reply")
			}
			f.answer(alice, tt.to(w), w, tt.lines...)
			if countGames(t, f) != 1 {
				t.Fatalf("the reply did not carry out the held command: %d games", countGames(t, f))
			}
			f.mustContain(f.last(alice), "the commands of your earlier mail were carried out", "Your challenge to player 2 <"+bob+">")
			f.mustContain(f.last(bob), "challenges you to a game of Chess")
			if tt.lines != nil && strings.HasPrefix(tt.lines[0], "yes") {
				f.mustContain(f.last(alice), "yes please") // listed as not understood
			}
			// Once: a second reply to the same welcome starts nothing.
			f.answer(alice, w.ReplyTo, w)
			if countGames(t, f) != 1 {
				t.Errorf("a second reply to the welcome carried the commands out again")
			}
		})
	}
}

// TestFirstContactHeldMoveFindsItsGame: a move sent to the bare address
// (a reply to From instead of Reply-To) is held with the game's tag and
// played in that game when the player replies to the welcome.
func TestFirstContactHeldMoveFindsItsGame(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	game := f.last(alice)
	f.send(alice, bare, "Re: "+game.Subject, "e4")
	assertMoves(t, f, 1, 0)
	w := f.last(alice)
	f.mustContain(w, "    e4")
	f.answer(alice, w.ReplyTo, w)
	assertMoves(t, f, 1, 1)
	f.mustContain(f.last(bob), "White played 1. e4.")
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
	// Alice, reading the welcome, replies: now it happens.
	f.answer(alice, w.ReplyTo, w)
	if countGames(t, f) != 1 {
		t.Fatal("alice's reply did not carry out the commands")
	}
}

// TestWelcomeAFewTimesADaySameForEveryone: mail to the bare address is
// answered with the same offer whether or not the sender plays, up to
// WelcomesPerDay times a UTC day, and again the next day.
func TestWelcomeAFewTimesADaySameForEveryone(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	f.now = f.now.Add(25 * time.Hour)
	for i := range WelcomesPerDay + 2 {
		for _, who := range []string{alice, eve} {
			res := f.send(who, bare, "hi", "games")
			if want := i < WelcomesPerDay; (res.Mails == 1) != want {
				t.Errorf("%s's mail %d to the bare address: %d mails; want an answer: %v", who, i+1, res.Mails, want)
			}
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
	if res := f.send(alice, bare, "hi", "games"); res.Mails != 1 {
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
	f.answer(alice, w.ReplyTo, w)
	if countGames(t, f) != 0 {
		t.Errorf("expired commands were carried out")
	}
	f.mustContain(f.last(alice), "Your mail had no command in it")
}
