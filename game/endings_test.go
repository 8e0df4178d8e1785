package game

import (
	"bytes"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/timing"
)

// TestEveryEndingVerifies: a game ended in each way the service ends one (the rules'
// checkmate; a resignation, an agreed draw, a loss on time decided at the deadline or
// claimed, a referee's decision, a declined challenge) exports a record that verifies
// against the receipts its players were sent, and verify tells the rules' ending (naming
// the ruling) from the endings that are the server's word.
func TestEveryEndingVerifies(t *testing.T) {
	tests := []struct {
		name   string
		cfg    Config
		play   func(f *fixture)
		ruling string              // the rules' ending, or
		word   record.ServerEnding // the server's word
		term   string
	}{
		{"checkmate", Config{}, func(f *fixture) {
			startChess(t, f)
			for i, m := range []string{"f3", "e5", "g4", "Qh4#"} {
				f.reply([]string{alice, bob}[i%2], m)
			}
		}, "Black wins: checkmate (FIDE 5.1.1)", 0, "Black wins: checkmate (FIDE 5.1.1)"},
		{"resignation", Config{}, func(f *fixture) {
			startChess(t, f)
			f.reply(alice, "e4")
			f.reply(alice, "resign") // not to move: either side may resign
		}, "", record.Resignation, "Black wins: White resigned"},
		{"agreement", Config{}, func(f *fixture) {
			startChess(t, f)
			f.reply(alice, "e4")
			f.reply(alice, "draw")
			f.reply(bob, "draw")
		}, "", record.Agreement, "drawn: draw agreed"},
		{"time", Config{}, func(f *fixture) {
			startTimed(t, f, "1d")
			f.reply(alice, "e4")
			f.now = f.now.Add(2 * timing.Day)
			f.tick()
		}, "", record.Time, "White wins: Black lost on time"},
		{"time claimed", Config{TimeoutPolicy: TimeoutNotify}, func(f *fixture) {
			startTimed(t, f, "1d")
			f.now = f.now.Add(timing.Day + time.Minute)
			f.tick()
			f.reply(bob, "claim")
		}, "", record.Time, "Black wins: White lost on time (claimed)"},
		{"adjudication", Config{Referees: []string{ref}}, func(f *fixture) {
			startChess(t, f)
			f.reply(alice, "e4")
			f.send(ref, f.personal(ref), "adj", "adjudicate 1 1/2-1/2 both players asked for it")
		}, "", record.Adjudication, "drawn: adjudicated by the referee: both players asked for it"},
		{"declined", Config{}, func(f *fixture) {
			f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white")
			f.reply(bob, "decline")
		}, "", record.Declined, "challenge declined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.cfg)
			tt.play(f)
			pgn := finalPGN(t, f, 1)
			res, err := record.Verify(bytes.NewReader(pgn), append(f.receiptsOf(alice, "bp-1"), f.receiptsOf(bob, "bp-1")...)...)
			if err != nil {
				t.Fatalf("verify: %v\n%s", err, pgn)
			}
			if res.Termination != tt.term || res.Ruling != tt.ruling || res.ServersWord != tt.word {
				t.Errorf("verified as %q (ruling %q, server's word %v), want %q (ruling %q, server's word %v)",
					res.Termination, res.Ruling, res.ServersWord, tt.term, tt.ruling, tt.word)
			}
			if tt.word != 0 && len(res.Notes) == 0 {
				t.Errorf("no note says the ending is the server's word: %+v", res)
			}
		})
	}
}
