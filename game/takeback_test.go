package game

import (
	"strings"
	"testing"
)

// TestTakeback: a takeback asked and accepted returns the position to
// before the move, tells both players and the observer, and stands on the
// record as a takeback record that verify replays; the PGN shows the move
// taken back as a comment.
func TestTakeback(t *testing.T) {
	f := namedChess(t)
	f.reply(alice, "e4")
	nb := len(f.inbox[bob])
	f.reply(alice, "takeback")
	f.mustContain(f.last(alice), "You asked Black to let you take back 1. e4.")
	f.mustContain(f.last(bob), "White asks to take back 1. e4. Reply takeback accept")
	if len(f.inbox[bob]) != nb+1 {
		t.Errorf("bob got %d mails for the request, want 1", len(f.inbox[bob])-nb)
	}
	f.reply(bob, "takeback accept")
	f.mustContain(f.last(alice), "Black accepted your takeback: 1. e4 is taken back, and it is your move again (takebacks left to you in this game: 2).", "It is your move.")
	f.mustContain(f.last(bob), "You accepted White's takeback: 1. e4 is taken back, and White moves again.", "Waiting for White's move.")
	f.mustContain(f.last(eve), "White took back 1. e4, by consent.")
	assertMoves(t, f, 1, 0)
	f.reply(alice, "d4")
	f.mustContain(f.last(alice), "Your move d4 was accepted.")
	f.reply(bob, "d5")
	f.reply(alice, "c4")
	f.reply(alice, "takeback")
	f.reply(bob, "takeback accept")
	f.reply(alice, "Nf3")
	f.reply(bob, "Nf6")
	f.reply(bob, "takeback")
	f.reply(alice, "takeback decline")
	f.mustContain(f.last(bob), "White declined your takeback: your move stands.")
	f.cfgReferee(ref)
	f.send(ref, f.personal(ref), "audit", "audit 1")
	f.mustContain(f.last(ref), "takeback by consent: White's move 1. was taken back", "takeback by consent: White's move 2. was taken back", "4 of 4 moves replay legally")
	f.reply(alice, "resign")
	pgn, res := exportGame(t, f, 1)
	if res.Takebacks != 2 || res.Moves != 4 {
		t.Errorf("verified %d moves that stand and %d takebacks, want 4 and 2", res.Moves, res.Takebacks)
	}
	folded := strings.Join(strings.Fields(pgn), " ")
	// A move taken back leaves the move text, which is the line that
	// stands; a comment after the move before it says what was taken back.
	for _, want := range []string{`{White's 1. e4 taken back by consent} 1. d4 d5 {White's 2. c4 taken back by consent} 2. Nf3 Nf6 0-1`} {
		if !strings.Contains(folded, want) {
			t.Errorf("the PGN lacks %q:\n%s", want, pgn)
		}
	}
	if !strings.Contains(strings.Join(res.Checks, "\n"), "after 2 taken back by consent") {
		t.Errorf("verify's checks do not name the takebacks: %v", res.Checks)
	}
}

func TestTakebackRefused(t *testing.T) {
	tests := []struct {
		name  string
		do    func(f *fixture)
		to    string
		want  string
		moves int
	}{
		{"before any move", func(f *fixture) { f.reply(alice, "takeback") }, alice, "it is your move now", 0},
		{"on one's own turn", func(f *fixture) { f.reply(alice, "e4"); f.reply(bob, "e5"); f.reply(alice, "takeback") }, alice, "it is your move now", 2},
		{"asked twice", func(f *fixture) { f.reply(alice, "e4"); f.reply(alice, "takeback"); f.reply(alice, "takeback") }, alice, "you asked for a takeback already", 1},
		{"nothing to answer", func(f *fixture) { f.reply(alice, "e4"); f.reply(bob, "takeback accept") }, bob, "there is no takeback of White's to answer", 1},
		{"one's own request", func(f *fixture) { f.reply(alice, "e4"); f.reply(alice, "takeback"); f.reply(alice, "takeback accept") }, alice, "there is no takeback of Black's to answer", 1},
		{"a move declines it", func(f *fixture) { f.reply(alice, "e4"); f.reply(alice, "takeback"); f.reply(bob, "e5") }, alice, "Black declined your takeback by moving.", 2},
		{"a move declines it, and the answer comes late", func(f *fixture) {
			f.reply(alice, "e4")
			f.reply(alice, "takeback")
			f.reply(bob, "e5")
			f.reply(bob, "takeback accept")
		}, bob, "there is no takeback of White's to answer", 2},
		{"three a side", func(f *fixture) {
			for range 3 {
				f.reply(alice, "e4")
				f.reply(alice, "takeback")
				f.reply(bob, "takeback accept")
			}
			f.reply(alice, "e4")
			f.reply(alice, "takeback")
		}, alice, "you have taken back 3 moves in this game, the most a side may", 1},
		{"a bad answer", func(f *fixture) { f.reply(alice, "takeback maybe") }, alice, "write takeback (to ask to take back your last move), takeback accept or takeback decline", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := namedChess(t)
			tt.do(f)
			f.mustContain(f.last(tt.to), tt.want)
			assertMoves(t, f, 1, tt.moves)
		})
	}
}

// TestSeachessHasNoTakebacks: Seachess's rulings have no takebacks.
func TestSeachessHasNoTakebacks(t *testing.T) {
	f := newFixture(t, Config{})
	f.send(alice, f.personal(alice), "new", "new seachess vs "+bob+" as white")
	f.reply(bob, "accept")
	f.reply(alice, "Bj2-j3")
	f.reply(alice, "takeback")
	f.mustContain(f.last(alice), "Seachess has no takebacks")
	assertMoves(t, f, 1, 1)
}

// TestTakebackDropsConditionalLines: the lines pending when a takeback is
// accepted were made for the position it undoes: they are dropped, and
// their owner told; none is played afterwards.
func TestTakebackDropsConditionalLines(t *testing.T) {
	f := namedChess(t)
	f.reply(alice, "e4", "if e5 then Nf3")
	f.mustContain(f.last(alice), "if e5 then Nf3")
	f.reply(alice, "takeback")
	f.reply(bob, "takeback accept")
	f.mustContain(f.last(alice), "Your conditional moves were for the position the takeback undid, and were dropped (1 lines).")
	if lines := condLines(t, f, 1, 0); len(lines) != 0 {
		t.Errorf("alice's lines %v stay pending", lines)
	}
	f.reply(alice, "e4")
	f.reply(bob, "e5")
	assertMoves(t, f, 1, 2) // no conditional Nf3
}
