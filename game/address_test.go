package game

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const newAlice = "alice@new.example.org"

// askMove has alice ask, from her personal address, to move to newAlice,
// and returns the confirmation.
func askMove(t *testing.T, f *fixture) *sent {
	t.Helper()
	f.send(alice, f.personalOf(alice), "move", "address "+newAlice)
	f.mustContain(f.last(alice), "A confirmation went to "+newAlice)
	m := f.last(newAlice)
	if m.Subject != "bottlepost: confirm your new address" {
		t.Fatalf("the confirmation's subject is %q", m.Subject)
	}
	f.mustContain(m, "The bottlepost player writing from "+alice+" asked to move their account")
	return m
}

// TestAddressChange: a confirmed change moves the account: the games go
// on from the new address, under the same seats; the old address is told,
// and its mail refused with a clear answer.
func TestAddressChange(t *testing.T) {
	f := namedChess(t)
	seat := f.last(alice).ReplyTo
	conf := askMove(t, f)
	// Until the reply, nothing changes.
	f.send(alice, seat, "Re: game", "board")
	f.mustContain(f.last(alice), "Chess, as White sees it")
	f.answer(newAlice, conf.ReplyTo, conf, "yes, it's me")
	f.mustContain(f.last(newAlice), "Your bottlepost account moved here from "+alice, "your games (1 in play)")
	f.mustContain(f.last(alice), "Your bottlepost account moved to "+newAlice)
	f.send(newAlice, seat, "Re: game", "e4")
	f.mustContain(f.last(newAlice), "Your move e4 was accepted.")
	f.mustContain(f.last(bob), "White played 1. e4.", "Alice <"+newAlice+"> (as White)")
	n := len(f.inbox[bob])
	f.send(alice, seat, "Re: game", "resign")
	f.mustContain(f.last(alice), "Nothing was done: the bottlepost account of this address moved to another address")
	f.send(alice, f.svc.cfg.Address, "hello", "games")
	f.mustContain(f.last(alice), "Nothing was done")
	if len(f.inbox[bob]) != n {
		t.Errorf("mail from the old address reached bob")
	}
	f.send(newAlice, f.personalOf(newAlice), "games", "games")
	f.mustContain(f.last(newAlice), "bp-1")
	assertMoves(t, f, 1, 1)
	// A second change within 7 days is refused; after them it goes.
	f.send(newAlice, f.personalOf(newAlice), "again", "address alice@third.example.org")
	f.mustContain(f.last(newAlice), "it may change once in 7 days")
	f.now = f.now.Add(7 * 24 * time.Hour)
	f.send(newAlice, f.personalOf(newAlice), "again", "address alice@third.example.org")
	f.mustContain(f.last(newAlice), "A confirmation went to alice@third.example.org")
}

func TestAddressChangeRefused(t *testing.T) {
	tests := []struct {
		name string
		do   func(f *fixture)
		to   string
		want string
	}{
		{"an address in use", func(f *fixture) { f.send(alice, f.personalOf(alice), "m", "address "+bob) }, alice, "is the address of another bottlepost account"},
		{"one's own", func(f *fixture) { f.send(alice, f.personalOf(alice), "m", "address "+strings.ToUpper(alice)) }, alice, "is your address already"},
		{"not an address", func(f *fixture) { f.send(alice, f.personalOf(alice), "m", "address nowhere") }, alice, "write address NEW"},
		{"expired", func(f *fixture) {
			conf := askMove(t, f)
			f.now = f.now.Add(confirmDays*24*time.Hour + time.Minute)
			f.answer(newAlice, conf.ReplyTo, conf, "yes")
		}, newAlice, "This confirmation expired"},
		{"taken meanwhile", func(f *fixture) {
			conf := askMove(t, f)
			f.send(newAlice, f.personal(newAlice), "games", "games") // the address becomes an account of its own
			f.answer(newAlice, conf.ReplyTo, conf, "yes")
		}, newAlice, "This confirmation no longer applies"},
		{"confirmed from another address", func(f *fixture) {
			conf := askMove(t, f)
			f.answer(eve, conf.ReplyTo, conf, "yes")
		}, eve, "Welcome to bottlepost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := namedChess(t)
			tt.do(f)
			m := f.last(tt.to)
			if !strings.Contains(m.Subject, tt.want) {
				f.mustContain(m, tt.want)
			}
			f.send(alice, f.last(bob).ReplyTo, "x", "x") // bob's seat: alice is not its player
			f.send(alice, f.personalOf(alice), "board", "board 1")
			f.mustContain(f.last(alice), "Chess, as White sees it") // alice still plays from her address
		})
	}
}

// TestAddressChangeCountsAsStrangerMail: the confirmation goes to an
// address that never wrote: it takes one of the day's mails to strangers.
func TestAddressChangeCountsAsStrangerMail(t *testing.T) {
	f := newFixture(t, Config{Limits: Limits{StrangersPerDay: 3}})
	startChess(t, f)                                                      // alice's welcome, bob's invitation: two
	askMove(t, f)                                                         // the third
	f.send(bob, f.personalOf(bob), "m", "address bob@fourth.example.org") // another player: alice asked today
	f.mustContain(f.last(bob), "no confirmation went to bob@fourth.example.org", "limits.strangers_per_day")
}

// TestAddressChangeOnceADay: address NEW sends one confirmation a day,
// however often it is written: repeating it (to the same address or to
// others) cannot spend the service's mails to strangers. Before, each
// repetition sent a confirmation and took one of strangers_per_day.
func TestAddressChangeOnceADay(t *testing.T) {
	f := newFixture(t, Config{Limits: Limits{StrangersPerDay: 10}})
	startChess(t, f) // alice's welcome, bob's invitation: two of the ten
	askMove(t, f)
	for i, to := range []string{newAlice, "alice@other.example.org", "alice@third.example.org"} {
		f.now = f.now.Add(time.Hour)
		f.send(alice, f.personalOf(alice), "m", "address "+to)
		f.mustContain(f.last(alice), "a confirmation of a new address went out on", "one goes out a day")
		if got := len(f.inbox[to]); to != newAlice && got != 0 {
			t.Errorf("try %d: %d mails went to %s", i, got, to)
		}
	}
	if got := len(f.inbox[newAlice]); got != 1 {
		t.Errorf("%d confirmations went to %s, want 1", got, newAlice)
	}
	// The day's budget was spent three times, not six: a stranger invited
	// now is still invited.
	f.send(carol, f.personal(carol), "new", "new chess vs dave@example.org")
	if len(f.inbox["dave@example.org"]) != 1 {
		t.Errorf("the invitation did not go to dave")
	}
	// A day later the player may ask again.
	f.now = f.now.Add(24 * time.Hour)
	f.send(alice, f.personalOf(alice), "m", "address alice@other.example.org")
	f.mustContain(f.last(alice), "A confirmation went to alice@other.example.org")
}

// TestAddressChangeRacesAMove: a move from the old address and the
// confirmation from the new one, handled at once: the move is played
// exactly when it came first, and refused with the clear answer when the
// account had moved; never lost silently, never played twice.
func TestAddressChangeRacesAMove(t *testing.T) {
	for i := range 6 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			f := namedChess(t)
			seat := f.last(alice).ReplyTo
			conf := askMove(t, f)
			move := &Incoming{MessageID: "race-move@client.test", From: alice, Recipients: []string{seat}, Subject: "Re: game", Lines: []string{"e4"}}
			confirm := &Incoming{MessageID: "race-confirm@client.test", From: newAlice, Recipients: []string{conf.ReplyTo},
				Subject: "Re: " + conf.Subject, InReplyTo: strings.Trim(conf.MessageID, "<>"), Lines: []string{"yes"}}
			ins := []*Incoming{move, confirm}
			if i%2 == 1 {
				ins[0], ins[1] = ins[1], ins[0]
			}
			var wg sync.WaitGroup
			for _, in := range ins {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := f.svc.Handle(in); err != nil {
						t.Errorf("Handle: %v", err)
					}
				}()
			}
			wg.Wait()
			f.drain()
			f.mustContain(f.last(newAlice), "Your bottlepost account moved here")
			var played, refused int
			for _, m := range f.inbox[alice] {
				if strings.Contains(m.Text, "Your move e4 was accepted.") {
					played++
				}
				if strings.Contains(m.Text, "Nothing was done: the bottlepost account of this address moved") {
					refused++
				}
			}
			if played+refused != 1 {
				t.Fatalf("the move was played %d times and refused %d times; want exactly one outcome", played, refused)
			}
			assertMoves(t, f, 1, played)
			// Either way the game goes on from the new address.
			f.send(newAlice, seat, "Re: game", "board")
			f.mustContain(f.last(newAlice), "Chess, as White sees it")
		})
	}
}
