package game

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/store"
)

// moveAccount moves the account of from to to (address NEW, confirmed by
// a reply from to) and checks that it moved.
func moveAccount(t *testing.T, f *fixture, from, to string) {
	t.Helper()
	f.send(from, f.personalOf(from), "move", "address "+to)
	f.mustContain(f.last(from), "A confirmation went to "+to)
	conf := f.last(to)
	f.answer(to, conf.ReplyTo, conf, "yes")
	f.mustContain(f.last(to), "Your bottlepost account moved here from "+from)
	f.mustContain(f.last(from), "Your bottlepost account moved to "+to)
}

// TestTournamentAddressChange: a player and the referee move their accounts
// (address NEW) while the tournament waits for its answers, and another
// player while it is played; the moved player joins from the new address,
// the referee's answers, commands and mails go to and come from theirs,
// the games are played from the new addresses (replying to the threads
// the player kept), and everyone, at the new addresses, receives the final
// standings; nothing more goes to the old addresses.
func TestTournamentAddressChange(t *testing.T) {
	const newRef = "referee@elsewhere.test"
	f := createTournament(t, "")
	moveAccount(t, f, alice, newAlice)
	moveAccount(t, f, ref, newRef)
	oldAlice, oldRef := len(f.inbox[alice]), len(f.inbox[ref])

	// The old address is refused; the new one joins (no invitation in its
	// inbox: it names the tournament).
	f.send(alice, f.svc.cfg.Address, "Re: Tournament 1: invitation", "join")
	f.mustContain(f.last(alice), "Nothing was done")
	oldAlice++
	f.send(newAlice, f.personalOf(newAlice), "joining", "join 1")
	f.mustContain(f.last(newAlice), "You joined tournament 1, Spring open.")
	f.mustContain(f.last(newRef), "Alice <"+newAlice+"> joined tournament 1: 1 joined, 4 not yet answered")
	f.send(newRef, f.personalOf(newRef), "mine", "tournaments")
	f.mustContain(f.last(newRef), "Tournament 1, Spring open (Chess): invited; you referee it")
	// The moved referee's command acts (it is refused only on its merits).
	f.send(newRef, f.personalOf(newRef), "early", "tournament 1 start")
	f.mustContain(f.last(newRef), "tournament 1 cannot start: 1 players have joined")
	players := append([]string{newAlice}, tournamentPlayers[1:]...)
	for _, p := range players[1:] {
		f.reply(p, "join")
	}
	f.mustContain(f.last(newRef), "Tournament 1, Spring open, has begun: 5 players, 10 games started.")
	for _, m := range f.inbox[newAlice] {
		if strings.HasPrefix(m.Subject, "Tournament 1: your games") {
			f.mustContain(m, "Round  2: game")
		}
	}
	// The referee's withdraw finds the moved player by the new address
	// only; this one is refused on its merits (she has not withdrawn, and
	// the referee does not withdraw her: an unknown address is named).
	f.send(newRef, f.personalOf(newRef), "w", "tournament 1 withdraw "+alice)
	f.mustContain(f.last(newRef), alice+" does not play in tournament 1")

	pairs := f.tournamentPairs(1)
	playResultsAs(t, f, pairs[:7], players)
	// Bob moves with three games still on; his mail client keeps the
	// threads, and he answers them from the new address.
	const newBob = "bob@new.example.net"
	moveAccount(t, f, bob, newBob)
	oldBob := len(f.inbox[bob])
	f.inbox[newBob] = append(slices.Clone(f.inbox[bob]), f.inbox[newBob]...)
	players[1] = newBob
	playResultsAs(t, f, pairs[7:], players)
	checkFinalAs(t, f, pairs, players, newRef)
	if n := len(f.inbox[bob]); n != oldBob {
		t.Errorf("%d mails went to bob's old address after the move: %q", n-oldBob, f.inbox[bob][oldBob].Subject)
	}
	f.send(newAlice, f.personalOf(newAlice), "mine", "tournaments")
	f.mustContain(f.last(newAlice), "Tournament 1, Spring open (Chess): over; you: 4/4, 1st of 5")
	if n := len(f.inbox[alice]); n != oldAlice {
		t.Errorf("%d mails went to alice's old address after the move: %q", n-oldAlice, f.inbox[alice][oldAlice].Subject)
	}
	if n := len(f.inbox[ref]); n != oldRef {
		t.Errorf("%d mails went to the referee's old address after the move: %q", n-oldRef, f.inbox[ref][oldRef].Subject)
	}
}

// TestTournamentCountsStrangers: each invitation of tournament new to an
// address that never wrote takes one of the day's mails to strangers
// (limits.strangers_per_day); when they would not all fit, the tournament
// is refused with an answer naming the limit, and nothing is created: no
// tournament, no player, no invitation, no mail to strangers counted.
func TestTournamentCountsStrangers(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}, Limits: Limits{StrangersPerDay: 5}})
	f.send(alice, f.personal(alice), "games", "games") // three welcomes: three of the five
	f.send(bob, f.personal(bob), "games", "games")
	pr := f.personal(ref)
	day := func() string {
		var v []byte
		err := f.st.View(func(tx *store.Tx) (err error) {
			v, err = tx.Setting(strangersPrefix + f.now.Format("20060102"))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(v)
	}
	if got := day(); got != "3" {
		t.Fatalf("the day's mails to strangers are %q before the tournament, want 3", got)
	}
	newTour := func() {
		f.send(ref, pr, "a tournament",
			`tournament new "Spring open" variant chess time 3d players alice@example.org, bob@example.net,`,
			`carol@example.com, dave@example.com, erin@example.com`)
	}
	before := len(f.all)
	newTour()
	f.mustContain(f.last(ref), "no tournament was created: its invitations would go to 3 addresses that never wrote to bottlepost",
		"limits.strangers_per_day")
	if n := len(f.all) - before; n != 1 {
		t.Errorf("the refused tournament sent %d mails, want the answer only", n)
	}
	if got := day(); got != "3" {
		t.Errorf("the refused tournament counted mails to strangers: %q, want 3", got)
	}
	err := f.st.View(func(tx *store.Tx) error {
		if n, err := tournamentCount(tx); err != nil || n != 0 {
			t.Errorf("the refused tournament was created: %d tournaments (%v)", n, err)
		}
		for _, a := range tournamentPlayers[2:] {
			if _, err := tx.PlayerByAddress(a); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the refused tournament made a player of %s (%v)", a, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The next UTC day the three fit: created, and counted.
	f.now = f.now.Add(24 * time.Hour)
	newTour()
	f.mustContain(f.last(ref), "Tournament 1, Spring open, is created")
	if got := day(); got != "3" {
		t.Errorf("the day's mails to strangers are %q after the tournament, want 3", got)
	}
	for _, a := range tournamentPlayers {
		if !strings.HasPrefix(f.last(a).Subject, "Tournament 1: invitation") {
			t.Errorf("%s was not invited: %q", a, f.last(a).Subject)
		}
	}
	// The tournament took three of the day's five: two challenges to
	// strangers go, the third is refused.
	f.send(alice, f.personalOf(alice), "c", "new chess vs frank@example.com")
	f.send(bob, f.personalOf(bob), "c", "new chess vs gina@example.com")
	f.send(alice, f.personalOf(alice), "c", "new chess vs hal@example.com")
	f.mustContain(f.last(alice), "limits.strangers_per_day")
	for _, m := range f.all {
		for _, line := range strings.Split(m.Text, "\n") {
			if utf8.RuneCountInString(strings.TrimRight(line, "\r")) > 78 {
				t.Errorf("mail %q to %s has a line of more than 78 columns: %q", m.Subject, m.To, line)
			}
		}
	}
}

// TestTournamentWithdrawAfterAddressChange: the referee, moved, withdraws a
// player who moved too, named by the new address (the old one plays in no
// tournament now); the forfeits' final mails go to the new address.
func TestTournamentWithdrawAfterAddressChange(t *testing.T) {
	const newRef, newDave = "referee@elsewhere.test", "dave@new.example.com"
	dave := tournamentPlayers[3]
	f := createTournament(t, "")
	for _, p := range tournamentPlayers {
		f.reply(p, "join")
	}
	moveAccount(t, f, ref, newRef)
	moveAccount(t, f, dave, newDave)
	oldDave := len(f.inbox[dave])
	f.send(newRef, f.personalOf(newRef), "w", "tournament 1 withdraw "+dave)
	f.mustContain(f.last(newRef), dave+" does not play in tournament 1")
	f.send(newRef, f.personalOf(newRef), "w", "tournament 1 withdraw "+newDave)
	f.mustContain(f.last(newRef), newDave+" is withdrawn from tournament 1: 4 games lost by forfeit")
	forfeits := 0
	for _, m := range f.inbox[newDave] {
		if strings.Contains(m.Text, "forfeit: Dave was withdrawn by the referee") {
			forfeits++
		}
	}
	if forfeits != 4 {
		t.Errorf("%s received %d final mails of forfeits, want 4", newDave, forfeits)
	}
	if n := len(f.inbox[dave]); n != oldDave {
		t.Errorf("%d mails went to dave's old address after the move", n-oldDave)
	}
}
