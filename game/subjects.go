package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
)

// subject is a game mail's subject for its recipient: the game's tag (which
// keeps every mail of the game in one thread and tells the service which
// game a reply is about), the variant, the opponent, and the game's state as
// the recipient should read it in an inbox:
//
//	[bp-12] Chess v bob@example.org: your move (12...)
//	[bp-12] Chess v bob@example.org: waiting for bob@example.org
//	[bp-12] Chess v bob@example.org: refused: Ke6; your move (12.)
//	[bp-12] Chess v alice@example.org: game over: 1-0 (checkmate)
//	[bp-12] Chess v alice@example.org: invitation
//	[bp-12] Chess, observed: Black to move (12...)
func subject(l *loaded, d *draft) string {
	var b strings.Builder
	b.WriteString(mailfmt.FormatTag(l.g.ID) + " " + l.v.Name())
	side, player := d.viewer.Side()
	switch {
	case d.kind == "audit":
		b.WriteString(", audit")
	case player && l.meta.Phase == phaseOpen:
	case player:
		b.WriteString(" v " + l.seats[1-side].Address)
	default:
		b.WriteString(", observed")
	}
	b.WriteString(": ")
	if d.refused != "" {
		b.WriteString("refused: " + d.refused + "; ")
	}
	if d.kind == "history" {
		b.WriteString("record; ")
	}
	b.WriteString(gameState(l, d))
	return b.String()
}

// gameState is the state of the game for the draft's recipient, in a few
// words.
func gameState(l *loaded, d *draft) string {
	side, player := d.viewer.Side()
	switch l.meta.Phase {
	case phaseOpen:
		return "open challenge, waiting for an opponent"
	case phaseChallenge:
		if player && int(side) == l.meta.Challenger {
			return "challenge sent, waiting for an answer"
		}
		return "invitation"
	case phasePlay:
		next := rules.MoveLabel(l.state.Ply())
		toMove := l.state.ToMove()
		switch {
		case player && toMove == side:
			return "your move (" + next + ")"
		case player:
			return "waiting for " + l.seats[toMove].Address
		}
		return l.sides()[toMove] + " to move (" + next + ")"
	}
	if l.meta.Outcome == nil {
		return l.meta.Reason // a challenge declined
	}
	return "game over: " + l.g.Result + " (" + l.meta.Outcome.Reason + ")"
}
