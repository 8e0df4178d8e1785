package game

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/store"
)

const (
	alice = "alice@example.org"
	bob   = "bob@example.net"
	eve   = "eve@evil.test"
	ref   = "referee@club.test"
)

// startChess has alice challenge bob to chess as White and bob accept; it
// checks what the mails say to a recipient who reads English (the other
// languages' words are their tests').
func startChess(t *testing.T, f *fixture) {
	t.Helper()
	english := func(m *sent) bool { return strings.Contains(m.HTML, `<html lang="`+string(lang.English)+`">`) }
	check := func(m *sent, texts ...string) {
		t.Helper()
		if english(m) {
			f.mustContain(m, texts...)
		}
	}
	pa := f.personal(alice)
	f.send(alice, pa, "new game", "new chess vs "+bob+" as white time 3d")
	check(f.last(alice), "Your challenge to player 2 <"+bob+">")
	check(f.last(bob), "challenges you to a game of Chess", "bottlepost is a server", "accept")
	f.reply(bob, "accept")
	check(f.last(alice), "The game has begun", "It is your move.")
	check(f.last(bob), "The game has begun", "Waiting for White's move.")
}

// TestThreading: each player's thread of a game starts with their start
// mail (the challenger's confirmation, the invitation, the first board of
// an open challenge's taker); every later mail to them names it first in
// References, and In-Reply-To names the player's own mail it answers, or
// else the root. Observers' mails reference the game's own id.
func TestThreading(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f) // alice's challenge (her mail 2), bob's invitation, bob's accept
	aliceRoot, bobRoot := f.inbox[alice][1].MessageID, f.inbox[bob][0].MessageID
	if aliceRoot == bobRoot || !strings.HasPrefix(aliceRoot, "game-1.") || !strings.HasPrefix(bobRoot, "game-1.") {
		t.Fatalf("the start mails' ids %q and %q are not the game's thread roots", aliceRoot, bobRoot)
	}
	if inv := f.inbox[bob][0]; inv.References != "" || inv.InReplyTo != "" {
		t.Errorf("the invitation refers to %q, %q: it starts bob's thread", inv.References, inv.InReplyTo)
	}
	if c := f.inbox[alice][1]; c.InReplyTo != "<in2@client.test>" || c.References != "<in2@client.test>" {
		t.Errorf("the challenge's confirmation answers %q (References %q), want alice's new mail", c.InReplyTo, c.References)
	}
	f.send(eve, f.personal(eve), "observe", "observe 1")
	f.reply(alice, "e4")
	m := f.last(alice)
	if want := "<" + aliceRoot + "> <in" + strconv.Itoa(f.seq) + "@client.test>"; m.References != want {
		t.Errorf("receipt References = %q, want %q", m.References, want)
	}
	if m.InReplyTo != "<in"+strconv.Itoa(f.seq)+"@client.test>" {
		t.Errorf("receipt In-Reply-To = %q, want the player's message", m.InReplyTo)
	}
	if b := f.last(bob); b.InReplyTo != "<"+bobRoot+">" || b.References != "<"+bobRoot+">" {
		t.Errorf("opponent's mail In-Reply-To %q, References %q; want bob's root %s", b.InReplyTo, b.References, bobRoot)
	}
	if o := f.last(eve); !strings.HasPrefix(o.References, "<game-1.") || o.References == "<"+aliceRoot+">" || o.References == "<"+bobRoot+">" {
		t.Errorf("the observer's mail References %q, want the game's id", o.References)
	}
	if !strings.HasPrefix(m.Subject, "[bp-1] ") {
		t.Errorf("subject %q lacks the game tag", m.Subject)
	}

	// An open challenge: the taker's first board starts their thread.
	g := newFixture(t, Config{})
	g.send(alice, g.personal(alice), "open", "new chess as white")
	openRoot := g.last(alice).MessageID
	g.send(bob, g.personal(bob), "take", "new chess")
	taken := g.last(bob)
	if taken.MessageID == openRoot || !strings.HasPrefix(taken.MessageID, "game-1.") || strings.Contains(taken.References, "game-1.") {
		t.Errorf("the taker's first mail %q (References %q) does not start their thread", taken.MessageID, taken.References)
	}
	if m := g.last(alice); !strings.HasPrefix(m.References, "<"+openRoot+">") {
		t.Errorf("the challenger's news of the match References %q, want her root %s first", m.References, openRoot)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name  string
		do    func(f *fixture) Result
		to    string
		want  []string
		moves int // moves on the record afterwards
	}{
		{"unknown game", func(f *fixture) Result {
			return f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "b", "board 99")
		}, alice, []string{"there is no game 99"}, 0},
		{"a seat's address acts on its own game only", func(f *fixture) Result { return f.reply(alice, "resign 2") }, alice, []string{"this address belongs to game 1"}, 0},
		{"not your turn", func(f *fixture) Result { return f.reply(bob, "e5") }, bob, []string{"it is not your turn: White is to move"}, 0},
		{"illegal move", func(f *fixture) Result { return f.reply(alice, "e5") }, alice, []string{`Your move was not played: "e5"`, "Legal moves that come close: ", "e3", "e4"}, 0},
		{"ambiguous move", func(f *fixture) Result {
			f.reply(alice, "Nf3")
			f.reply(bob, "a6")
			f.reply(alice, "Nc3")
			f.reply(bob, "a5")
			f.reply(alice, "Ne4")
			f.reply(bob, "h6")
			return f.reply(alice, "Ng5")
		}, alice, []string{"it could be Neg5 or Nfg5; please write it in full."}, 6},
		{"unreadable chatter only", func(f *fixture) Result { return f.reply(alice, "Thanks for the game, see you soon!") }, alice, []string{"no command", "Thanks for the game"}, 0},
		{"bad command", func(f *fixture) Result { return f.reply(alice, "vacation lots") }, alice, []string{"vacation needs a number of days"}, 0},
		{"challenge to oneself", func(f *fixture) Result { return f.reply(alice, "new chess vs "+strings.ToUpper(alice)) }, alice, []string{"you cannot challenge yourself"}, 0},
		{"unknown variant", func(f *fixture) Result { return f.reply(alice, "new checkers vs "+eve) }, alice, []string{`unknown variant "checkers"`}, 0},
		{"bad time control", func(f *fixture) Result { return f.reply(alice, "new chess vs "+eve+" time 3h") }, alice, []string{`"3h" is not a time control`}, 0},
		{"referee command from a player", func(f *fixture) Result { return f.reply(alice, "audit 1") }, alice, []string{"you are not a referee"}, 0},
		{"accept own challenge", func(f *fixture) Result { return f.reply(alice, "accept") }, alice, []string{"already started"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			startChess(t, f)
			tt.do(f)
			f.mustContain(f.last(tt.to), tt.want...)
			assertMoves(t, f, 1, tt.moves)
		})
	}
}

var regexpToken = regexp.MustCompile(`games\+[a-z0-9]+@`)

func assertMoves(t *testing.T, f *fixture, game uint64, want int) {
	t.Helper()
	err := f.st.View(func(tx *store.Tx) error {
		log, err := tx.Log(game)
		if err != nil {
			return err
		}
		if got := len(moveTexts(log)); got != want {
			t.Errorf("game %d has %d moves on record, want %d", game, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSpoofingAndDuplicates(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	tok := f.last(alice).ReplyTo
	// Eve writes to alice's token with her own From: no game action.
	res := f.send(eve, tok, "Re: [bp-1]", "e4")
	if res.Refused == "" {
		t.Errorf("mail from %s to alice's token was acted on", eve)
	}
	assertMoves(t, f, 1, 0)
	// A genuine move, then the same message delivered again: applied once.
	f.sendID("dup@client.test", alice, tok, "Re: [bp-1]", "e4")
	n := len(f.all)
	res = f.sendID("dup@client.test", alice, tok, "Re: [bp-1]", "e4")
	if !res.Duplicate || len(f.all) != n {
		t.Errorf("duplicate message id was processed again: %+v", res)
	}
	assertMoves(t, f, 1, 1)
	// Bob's token with alice's From: refused, even though alice plays this game.
	if res := f.send(alice, f.last(bob).ReplyTo, "Re: [bp-1]", "e5"); res.Refused == "" {
		t.Errorf("alice used bob's token: %+v", res)
	}
	assertMoves(t, f, 1, 1)
}

func TestAuthenticationResults(t *testing.T) {
	f := newFixture(t, Config{TrustedAuthServ: "mx.bottlepost.test"})
	pa := f.svc.replyAddress(f.svc.accountToken(alice))
	send := func(ar ...string) Result {
		f.seq++
		res, err := f.svc.Handle(&Incoming{MessageID: "ar" + strconv.Itoa(f.seq), From: alice, Recipients: []string{pa}, Lines: []string{"games"}, AuthResults: ar})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	tests := []struct {
		name    string
		ar      []string
		refused bool
	}{
		{"dkim pass", []string{"mx.bottlepost.test; dkim=pass header.d=example.org; spf=fail smtp.mailfrom=example.org"}, false},
		{"dkim pass by a parent domain", []string{"mx.bottlepost.test; dkim=pass header.d=org"}, true},
		{"dkim pass by another domain", []string{"mx.bottlepost.test; dkim=pass header.d=evil.test"}, true},
		{"spf pass for another envelope domain", []string{"mx.bottlepost.test; spf=pass smtp.mailfrom=eve@evil.test"}, true},
		{"dmarc pass", []string{"mx.bottlepost.test; dmarc=pass header.from=example.org"}, false},
		{"dkim fail", []string{"mx.bottlepost.test; dkim=fail header.d=example.org; spf=pass smtp.mailfrom=example.org"}, true},
		{"spf fail, no dkim", []string{"mx.bottlepost.test; spf=fail smtp.mailfrom=example.org"}, true},
		{"spf pass, no dkim", []string{"mx.bottlepost.test; spf=pass smtp.mailfrom=example.org"}, false},
		{"forged header from another server", []string{"evil.test; dkim=pass header.d=example.org"}, true},
		{"no header", nil, true},
		// The trusted server's own header cannot be read: the forged pass
		// below it must not be believed.
		{"trusted header unreadable, forged pass below", []string{"mx.bottlepost.test; dkim=pass header.d=example.org; spf", "mx.bottlepost.test; dkim=pass header.d=example.org"}, true},
		{"trusted header of an unknown version", []string{"mx.bottlepost.test 2; dkim=pass header.d=example.org", "mx.bottlepost.test; dkim=pass header.d=example.org"}, true},
		{"unreadable header of another server", []string{"evil.test; dkim", "mx.bottlepost.test; dkim=pass header.d=example.org"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := send(tt.ar...); (res.Refused != "") != tt.refused {
				t.Errorf("refused = %q, want refused %v", res.Refused, tt.refused)
			}
		})
	}
}

// TestSeatTokensNeverLookPersonal: whatever the seat tokens derived for
// games, sides and players are, a personal token is told apart by its first
// character (a seat token starting with "a" once made a seat unusable).
func TestSeatTokensNeverLookPersonal(t *testing.T) {
	f := newFixture(t, Config{})
	for i := range 200 {
		game, side, player := uint64(i/2+1), i%2, uint64(i*7+3)
		if tok := f.svc.seatToken(game, side, player); strings.HasPrefix(tok, accountPrefix) {
			t.Fatalf("seat token %q of game %d, side %d, player %d starts with the personal prefix", tok, game, side, player)
		}
	}
	if tok := f.svc.accountToken(alice); !strings.HasPrefix(tok, accountPrefix) {
		t.Errorf("personal token %q", tok)
	}
}

func TestMessageIDsArePerSenderAndSynthesized(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	tokA, tokB := f.last(alice).ReplyTo, f.last(bob).ReplyTo
	// The same Message-ID from two senders: both are handled.
	f.sendID("same@x", alice, tokA, "Re", "Nf3")
	if res := f.sendID("same@x", bob, tokB, "Re", "Nf6"); res.Duplicate {
		t.Errorf("bob's mail was taken for alice's")
	}
	assertMoves(t, f, 1, 2)
	// Without a Message-ID, the same move text later in the game is a new mail.
	handle := func(from, to, move string, date time.Time) Result {
		res, err := f.svc.Handle(&Incoming{From: from, Recipients: []string{to}, Subject: "Re", Date: date, Lines: []string{move}})
		if err != nil {
			t.Fatal(err)
		}
		f.drain()
		return res
	}
	d := f.now
	for i, m := range []string{"Ng1", "Ng8", "Nf3"} {
		who, tok := alice, tokA
		if i%2 == 1 {
			who, tok = bob, tokB
		}
		if res := handle(who, tok, m, d.Add(time.Duration(i)*time.Minute)); res.Duplicate {
			t.Fatalf("%s taken for a duplicate", m)
		}
	}
	assertMoves(t, f, 1, 5)
	// The very same mail delivered twice is still recognised.
	if res := handle(alice, tokA, "Nf3", d.Add(2*time.Minute)); !res.Duplicate {
		t.Errorf("a redelivered mail without Message-ID was handled again")
	}
}

// The sender's reply allowance (Incoming.Allow, the transport's rate limit)
// is asked only when an answer outside games is about to be queued: a flood
// of forged mail in alice's name (bob's token, a made-up token, the bare
// address) gets her no more welcomes than it allows, and alice's own moves
// never ask it: even with the allowance spent, the move is played, bob is
// told and alice gets her receipt (issue 35.3).
func TestForgeriesDoNotSpendThePlayersAllowance(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	tok := f.last(alice).ReplyTo
	asked := 0
	allowance := 1
	allow := func() Allowance {
		asked++
		allowance--
		return Allowance{OK: allowance >= 0}
	}
	send := func(to string, lines ...string) Result {
		f.seq++
		res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("q%d@x", f.seq), From: alice, Recipients: []string{to},
			Subject: "Re: [bp-1]", Lines: lines, Allow: allow})
		if err != nil {
			t.Fatal(err)
		}
		f.drain()
		return res
	}
	before := len(f.inbox[alice])
	for i := range 30 {
		to := []string{f.last(bob).ReplyTo, "games+AAAAAAAAAAAAAAAA@bottlepost.test", "games@bottlepost.test"}[i%3]
		if res := send(to, "resign"); res.Refused == "" {
			t.Fatalf("forgery %d to %s was acted on", i, to)
		}
	}
	welcomes := len(f.inbox[alice]) - before
	if welcomes != 1 {
		t.Errorf("30 forgeries got alice %d welcomes with an allowance of 1", welcomes)
	}
	allowance = 1
	asked = 0
	send(tok, "e4")
	if asked != 0 || count(f, alice, "Your move e4 was accepted") != 1 {
		t.Errorf("alice's move: allowance asked %d times, %d receipts", asked, count(f, alice, "Your move e4 was accepted"))
	}
	assertMoves(t, f, 1, 1)
	// Spent: the move is played, bob is told, alice gets her receipt all the same.
	allowance = 0
	n := len(f.inbox[alice])
	send(f.last(bob).ReplyTo, "e5") // bob's token from alice: refused, no welcome (already sent today)
	bobTok := f.last(bob).ReplyTo
	f.seq++
	if _, err := f.svc.Handle(&Incoming{MessageID: "b1@x", From: bob, Recipients: []string{bobTok}, Subject: "Re: [bp-1]", Lines: []string{"e5"}}); err != nil {
		t.Fatal(err)
	}
	f.drain()
	send(tok, "Nf3")
	assertMoves(t, f, 1, 3)
	if got := len(f.inbox[alice]) - n; got != 2 || count(f, alice, "Your move Nf3 was accepted") != 1 {
		t.Errorf("alice got %d mails with her allowance spent, want the news of bob's move and her receipt", got)
	}
	if count(f, bob, "White played 2. Nf3") != 1 {
		t.Errorf("bob was not told of Nf3")
	}
	t.Logf("welcomes to alice during the forgeries: %d", welcomes)
}
