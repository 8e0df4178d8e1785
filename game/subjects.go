package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/rules"
)

// subject is a game mail's subject for its recipient: the game's tag
// (which keeps every mail of the game together and tells the service which
// game a reply is about), then the game's state as the recipient should
// read it, first, where an inbox's narrow column still shows it, then the
// game: the variant (its short name) and the opponent's shown name
// (displayName):
//
//	[bp-12] your move (12...) · Chess v Bob Smith
//	[bp-12] your move (12.), draw offered · Chess v Bob Smith
//	[bp-12] waiting for Bob Smith (12...) · Chess v Bob Smith
//	[bp-12] refused: Ke6; your move (12.) · Chess v Bob Smith
//	[bp-12] game over: 1-0 (checkmate) · Chess v Alice
//	[bp-12] invitation · Chess v Alice
//	[bp-12] Black to move (12...) · Chess, observed
//	[bp-12] audit: Black to move (12...) · Chess
func subject(l *loaded, d *draft) string {
	var b strings.Builder
	b.WriteString(mailfmt.FormatTag(l.g.ID) + " ")
	switch {
	case d.refused != "":
		b.WriteString("refused: " + d.refused + "; ")
	case d.kind == "history":
		b.WriteString("record; ")
	case d.kind == "audit":
		b.WriteString("audit: ")
	}
	b.WriteString(gameState(l, d))
	b.WriteString(" · " + shortName(l.v.Name()))
	side, player := d.viewer.Side()
	switch {
	case d.kind == "audit":
	case player && l.meta.Phase == phaseOpen:
	case player:
		b.WriteString(" v " + displayName(l.seats[1-side]))
	default:
		b.WriteString(", observed")
	}
	return b.String()
}

// shortName is a variant's name in a subject: without a trailing " Chess"
// ("Transporter", "Baltic Sea"), which the line has no room for.
func shortName(name string) string {
	if s := strings.TrimSuffix(name, " Chess"); s != "" {
		return s
	}
	return name
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
		next := " (" + rules.MoveLabel(l.state.Ply()) + ")"
		if l.meta.DrawOffer >= 0 {
			next += ", draw offered"
		}
		toMove := l.state.ToMove()
		switch {
		case player && toMove == side:
			return "your move" + next
		case player:
			return "waiting for " + displayName(l.seats[toMove]) + next
		}
		return l.sides()[toMove] + " to move" + next
	}
	if l.meta.Outcome == nil {
		return l.meta.Reason // a challenge declined
	}
	return "game over: " + l.g.Result + " (" + l.meta.Outcome.Reason + ")"
}
