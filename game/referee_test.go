package game

import (
	"testing"
)

func TestRefereeAuditAndAdjudicate(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}})
	startChess(t, f)
	f.reply(alice, "e4")
	pr := f.personal(ref)
	n := len(f.inbox[alice]) + len(f.inbox[bob])
	f.send(ref, pr, "audit", "audit 1")
	a := f.last(ref)
	f.mustContain(a, "Referee's audit of game bp-1", "1. e4", "1 of 1 moves replay legally", "hash chain: intact")
	if len(f.inbox[alice])+len(f.inbox[bob]) != n {
		t.Errorf("the players were told of the audit")
	}
	// A referee who plays a game may not audit it while it is on.
	f.cfgReferee(alice)
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "audit", "audit 1")
	f.mustContain(f.last(alice), "you play in game 1: another referee must audit it")
	f.send(ref, pr, "adj", "adjudicate 1 1-0 Black abandoned the game")
	f.mustContain(f.last(ref), "Game 1 adjudicated 1-0")
	f.mustContain(f.last(bob), "White wins: adjudicated by the referee: Black abandoned the game")
}
