package game

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// TestSubjectsSayTheState: every mail of a game carries its tag and then,
// first, the game's state for its recipient (move numbers as players count
// them, a pending draw offer), then the game: the variant and the
// opponent's shown name; a refused move sent to the personal address comes
// back in the game's thread, board included, in one mail.
func TestSubjectsSayTheState(t *testing.T) {
	f := newFixture(t, Config{})
	f.names = map[string]string{alice: "Alice"}
	pa := f.personal(alice)
	f.send(alice, pa, "new", `new chess vs "Bob Smith" <`+bob+`> as white`)
	subject := func(who, want string) {
		t.Helper()
		if got := f.last(who).Subject; got != want {
			t.Errorf("subject to %s = %q, want %q", who, got, want)
		}
	}
	subject(alice, "[bp-1] challenge sent, waiting for an answer · Chess v Bob Smith")
	subject(bob, "[bp-1] invitation · Chess v Alice")
	f.reply(bob, "accept")
	subject(alice, "[bp-1] your move (1.) · Chess v Bob Smith")
	subject(bob, "[bp-1] waiting for Alice (1.) · Chess v Alice")
	po := f.personal(eve)
	f.send(eve, po, "observe", "observe 1")
	f.reply(alice, "e4")
	subject(alice, "[bp-1] waiting for Bob Smith (1...) · Chess v Bob Smith")
	subject(bob, "[bp-1] your move (1...) · Chess v Alice")
	subject(eve, "[bp-1] Black to move (1...) · Chess, observed")
	f.reply(alice, "draw")
	subject(alice, "[bp-1] waiting for Bob Smith (1...), draw offered · Chess v Bob Smith")
	subject(bob, "[bp-1] your move (1...), draw offered · Chess v Alice")

	// A refused move, sent to the personal address in reply to a game mail.
	pb := f.personal(bob)
	n := len(f.inbox[bob])
	f.send(bob, pb, "Re: "+f.inbox[bob][n-2].Subject, "Ke6")
	if got := len(f.inbox[bob]) - n; got != 1 {
		t.Fatalf("the refused move got %d mails, want one", got)
	}
	subject(bob, "[bp-1] refused: Ke6; your move (1...), draw offered · Chess v Alice")
	f.mustContain(f.last(bob), "Your move was not played", "Chess, as Black sees it")
	if !strings.Contains(f.last(bob).References, "game-1.") {
		t.Errorf("the refusal is not in the game's thread: References %q", f.last(bob).References)
	}

	f.reply(bob, "e5") // declines the draw offer: both are told, and the subjects no longer say it
	f.mustContain(f.last(alice), "Black declined your draw offer by moving.")
	f.mustContain(f.last(bob), "Your move declines White's draw offer.")
	subject(alice, "[bp-1] your move (2.) · Chess v Bob Smith")
	f.reply(alice, "resign")
	subject(alice, "[bp-1] game over: 0-1 (White resigned) · Chess v Bob Smith")
	subject(bob, "[bp-1] game over: 0-1 (White resigned) · Chess v Alice")
	subject(eve, "[bp-1] game over: 0-1 (White resigned) · Chess, observed")
	for _, who := range []string{alice, bob} {
		m := f.last(who)
		f.mustContain(m, "Game over: 0-1, Black wins: White resigned.", "The full record:", "1. e4 e5",
			"The game is over: replies to this mail play no more moves in it.")
		for _, stale := range []string{"to move.", "It is your move", "Waiting for", "Just reply to this mail to answer",
			"secret move" /* chess has none */} {
			if strings.Contains(m.Text, stale) {
				t.Errorf("the game-over mail to %s says %q:\n%s", who, stale, m.Text)
			}
		}
		if n := strings.Count(flat(m.Text), "Black wins"); n != 1 {
			t.Errorf("the game-over mail to %s says the result %d times, want once:\n%s", who, n, m.Text)
		}
	}

	// Checkmate says how.
	f2 := newFixture(t, Config{})
	startChess(t, f2)
	for i, m := range []string{"f3", "e5", "g4", "Qh4#"} {
		f2.reply([2]string{alice, bob}[i%2], m)
	}
	if got := f2.last(alice).Subject; got != "[bp-1] game over: 0-1 (checkmate) · Chess v player 2" {
		t.Errorf("checkmate subject %q", got)
	}
	for _, who := range []string{alice, bob} {
		// The move's own notice of the mate is not said again.
		if m := f2.last(who); strings.Count(flat(m.Text), "checkmate") != 1 || !strings.Contains(flat(m.Text), "Game over: 0-1, Black wins: checkmate (FIDE 5.1.1).") {
			t.Errorf("the checkmate mail to %s does not say the result once:\n%s", who, m.Text)
		}
	}
}

// TestInvitationsCarryNoReceipt: a stranger's first invitation quotes no
// receipt (it would mean nothing to them yet); the challenger's mail does,
// and so does an invitation to someone who has played.
func TestInvitationsCarryNoReceipt(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "new", "new chess vs "+bob)
	if inv := f.last(bob); strings.Contains(inv.Text, "Receipt") || strings.Contains(inv.HTML, "Receipt") {
		t.Errorf("the invitation quotes a receipt:\n%s", inv.Text)
	}
	f.mustContain(f.last(alice), "Receipt")
	f.reply(bob, "decline")
	f.send(alice, pa, "new", "new chess vs "+bob)
	f.mustContain(f.last(bob), "Receipt")
}

// TestFirstMoverIsSaid: where the first mover is not White (Transporter:
// Black, T1.2) the invitation, the challenge, the first board mails and
// the records say so; a chess game says nothing of it.
func TestFirstMoverIsSaid(t *testing.T) {
	const said = "In Transporter Chess, Black moves first"
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "new", "new transporter vs "+bob+" as white")
	f.mustContain(f.last(alice), said)
	f.mustContain(f.last(bob), said)
	f.reply(bob, "accept")
	f.mustContain(f.last(alice), said, "Waiting for Black's move.")
	f.mustContain(f.last(bob), said, "It is your move.")
	f.reply(bob, "history")
	f.mustContain(f.last(bob), said)

	c := newFixture(t, Config{})
	startChess(t, c)
	for _, m := range c.all {
		if strings.Contains(m.Text, "moves first:") {
			t.Errorf("a chess mail says who moves first:\n%s", m.Text)
		}
	}
}

// TestMailNumberingAgreesWithPGN plays each variant by mail, ends the game
// and checks that the final mail's record and the exported PGN give every
// move the same number: "N. first mover's move" and its answer, counted
// from the variant's first mover (over 41 plies; 15 with -short).
func TestMailNumberingAgreesWithPGN(t *testing.T) {
	plies := 41
	if testing.Short() {
		plies = 15
	}
	for _, v := range variants.All() {
		t.Run(v.ID(), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, Config{})
			pa := f.personal(alice)
			f.send(alice, pa, "new", "new "+v.ID()+" vs "+bob+" as white")
			f.reply(bob, "accept")
			playPlies(t, f, 1, [2]string{alice, bob}, plies, rand.New(rand.NewPCG(9, 9)))
			var l *loaded
			var log []store.Record
			if err := f.st.View(func(tx *store.Tx) error {
				var err error
				if l, err = load(tx, 1); err != nil {
					return err
				}
				log, err = tx.Log(1)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if l.meta.Phase == phasePlay {
				f.reply([2]string{alice, bob}[l.state.ToMove()], "resign")
			}
			texts := moveTexts(log)
			if len(texts) < 10 {
				t.Fatalf("only %d moves played", len(texts))
			}
			_, plies, _ := record.Replay(l.v, rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed}, texts)
			for i, p := range plies {
				if want := rules.Side(i%2) ^ l.firstMover(); p.Side != want {
					t.Fatalf("ply %d was %v's: the sides do not alternate from the first mover", i, p.Side)
				}
			}
			final := flat(f.last(alice).Text)
			pgn, _ := exportGame(t, f, 1)
			pgn = flat(pgn[strings.Index(pgn, "\n\n"):])
			mailAt, pgnAt := 0, 0
			for i, p := range plies {
				n, reply := rules.MoveNumber(i)
				mailText, pgnText := p.Report.Record[rules.ViewReferee], strings.Join(strings.Fields(p.Text), "")
				// The first mover's move carries its number in both; the
				// answer follows it, or (after a comment) "N...".
				mailWant, pgnWant := fmt.Sprintf("%d. %s", n, mailText), fmt.Sprintf("%d. %s", n, pgnText)
				if reply {
					mailWant, pgnWant = " "+mailText, " "+pgnText
				}
				k := strings.Index(final[mailAt:], mailWant)
				if k < 0 && reply {
					k = strings.Index(final[mailAt:], fmt.Sprintf("%d... %s", n, mailText))
				}
				if k < 0 {
					t.Fatalf("the final mail does not number move %d (%s) %q after position %d:\n%s", i, rules.MoveLabel(i), mailWant, mailAt, final)
				}
				mailAt += k + len(mailWant)
				k = strings.Index(pgn[pgnAt:], pgnWant)
				if k < 0 && reply {
					k = strings.Index(pgn[pgnAt:], fmt.Sprintf("%d... %s", n, pgnText))
				}
				if k < 0 {
					t.Fatalf("the PGN does not number move %d (%s) %q:\n%s", i, rules.MoveLabel(i), pgnWant, pgn)
				}
				pgnAt += k + len(pgnWant)
			}
		})
	}
}

// TestOneAnswerPerMail: however many things one mail asks for, its sender
// gets one mail back, in the thread of the game it is about, saying all of
// them; the opponent is told separately.
func TestOneAnswerPerMail(t *testing.T) {
	f := newFixture(t, Config{})
	startChess(t, f)
	na, nb := len(f.inbox[alice]), len(f.inbox[bob])
	res := f.reply(alice, "e4", "history", "board", "games", "help", "timezone Europe/Berlin", "hello there")
	if got := len(f.inbox[alice]) - na; got != 1 || len(f.inbox[bob])-nb != 1 || res.Mails != 2 {
		t.Fatalf("one mail got %d answers to its sender, %d mails to the opponent (result %d); want one each", got, len(f.inbox[bob])-nb, res.Mails)
	}
	m := f.last(alice)
	f.mustContain(m, "Your move e4 was accepted.", "Record of game bp-1", "Your games:", "Commands (one per line",
		"Deadlines will be shown in Europe/Berlin", "hello there", "Chess, as White sees it")
	if m.Subject != "[bp-1] waiting for player 2 (1...) · Chess v player 2" || !strings.Contains(m.References, "game-1.") {
		t.Errorf("the answer is not in the game's thread: %q, References %q", m.Subject, m.References)
	}
	n := 0
	for _, line := range strings.Split(m.Text, "\n") {
		if strings.TrimRight(line, "\r") == "--" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the answer has %d footers, want one:\n%s", n, m.Text)
	}
	if n := strings.Count(m.HTML, "<html"); n != 1 {
		t.Errorf("the HTML part has %d documents, want one", n)
	}
}

// TestNoticesAreSentences: the variants' notices of a move reach the mails
// as sentences, whatever their casing in the rules.
func TestNoticesAreSentences(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"a phrase", []string{"the queen promotes to a rook (T5)"}, []string{"The queen promotes to a rook (T5)."}},
		{"already a sentence", []string{"White is in check (FIDE 3.9.1)."}, []string{"White is in check (FIDE 3.9.1)."}},
		{"a question", []string{"draw?"}, []string{"Draw?"}},
		{"blank ones go", []string{"  ", "your hidden move is sealed: Sd1v-e3 (S10.1)"}, []string{"Your hidden move is sealed: Sd1v-e3 (S10.1)."}},
		{"a capital beyond ASCII", []string{"éclair"}, []string{"Éclair."}},
		{"none", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sentences(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("sentences(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
