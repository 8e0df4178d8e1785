package record

// How a game ended, as the end record's termination says it. The rules end a game by their
// own outcome (checkmate, stalemate, repetition, a move-count draw, victory points, a bare
// Admiral, …), which Verify recomputes from the moves; every other ending is the server's
// word: the constructors here are the only way the game service writes one, and
// serversWord the only way Verify reads one back.

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// ServerEnding is a kind of ending the rules cannot see in the moves: the server's word,
// bound by the end record but proved by nothing in it.
type ServerEnding uint8

// The endings that are the server's word.
const (
	Resignation  ServerEnding = iota + 1 // a side resigned (Resigned)
	Agreement                            // the players agreed a draw (DrawAgreed)
	Time                                 // the side to move let its deadline pass (LostOnTime)
	Adjudication                         // a referee decided (Adjudicated)
	Declined                             // the challenge was declined: no game (DeclinedTermination)
)

// String names the ending as verify prints it.
func (k ServerEnding) String() string {
	switch k {
	case Resignation:
		return "resignation"
	case Agreement:
		return "agreement"
	case Time:
		return "time"
	case Adjudication:
		return "adjudication"
	case Declined:
		return "a declined challenge"
	}
	return fmt.Sprintf("ending(%d)", uint8(k))
}

// DeclinedTermination is the termination of a game whose challenge was declined (status
// aborted, result *, no moves).
const DeclinedTermination = "challenge declined"

// adjudicatedPrefix begins the reason of a referee's decision; the referee's own words follow.
const adjudicatedPrefix = "adjudicated by the referee: "

// Resigned is the outcome of a resignation by loser.
func Resigned(sides [2]string, loser rules.Side) rules.Outcome {
	return rules.Outcome{Status: rules.Win, Winner: loser.Other(), Reason: sides[loser] + " resigned"}
}

// DrawAgreed is the outcome of a draw the players agreed.
func DrawAgreed() rules.Outcome { return rules.Outcome{Status: rules.Draw, Reason: "draw agreed"} }

// LostOnTime is the outcome of a game lost on time by loser, the side to move whose deadline
// passed; claimed says the opponent claimed the win (the notify policy) rather than the
// service deciding it at the deadline.
func LostOnTime(sides [2]string, loser rules.Side, claimed bool) rules.Outcome {
	reason := sides[loser] + " lost on time"
	if claimed {
		reason += " (claimed)"
	}
	return rules.Outcome{Status: rules.Win, Winner: loser.Other(), Reason: reason}
}

// Adjudicated is the outcome of a referee's decision: result 1-0, 0-1 or (anything else) a
// draw, for the reason the referee gave.
func Adjudicated(result, reason string) rules.Outcome {
	o := rules.Outcome{Status: rules.Draw, Reason: adjudicatedPrefix + reason}
	switch result {
	case "1-0":
		o.Status, o.Winner = rules.Win, rules.White
	case "0-1":
		o.Status, o.Winner = rules.Win, rules.Black
	}
	return o
}

// serversWord reads a termination that is not the rules' ending: the kind of the server's
// word it is, given the end record's result and the side to move after the last move (the
// one side that can lose on time). It refuses any other text, and a result that does not
// go with the text.
func serversWord(e End, sides [2]string, toMove rules.Side) (ServerEnding, error) {
	if e.Result == "*" {
		if e.Termination == DeclinedTermination {
			return Declined, nil
		}
		return 0, fmt.Errorf("an aborted game's termination is %q, but the only one is %q", e.Termination, DeclinedTermination)
	}
	say := func(o rules.Outcome) bool { return o.Result() == e.Result && o.Describe(sides) == e.Termination }
	for _, loser := range []rules.Side{rules.White, rules.Black} {
		if say(Resigned(sides, loser)) {
			return Resignation, nil
		}
		for _, claimed := range []bool{false, true} {
			if !say(LostOnTime(sides, loser, claimed)) {
				continue
			}
			if loser != toMove {
				return 0, fmt.Errorf("the end record says %q, but %s was not to move: only the side to move can lose on time", e.Termination, sides[loser])
			}
			return Time, nil
		}
	}
	if say(DrawAgreed()) {
		return Agreement, nil
	}
	if strings.HasPrefix(e.Termination, Adjudicated(e.Result, "").Describe(sides)) {
		return Adjudication, nil
	}
	return 0, fmt.Errorf("the end record says %q (%s), which is neither what the rules say at the last position nor a resignation, a draw agreed, a loss on time or a referee's decision with that result",
		e.Termination, e.Result)
}
