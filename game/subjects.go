package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/record"
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
//
// The words are the recipient's language's (d.lang); the tag, the move
// numbers, the variant and the names are the same in every language.
func subject(l *loaded, d *draft) string {
	state := gameState(l, d)
	switch {
	case d.refused != "":
		state = d.tr("refused: %s; %s", d.refused, state)
	case d.kind == "history":
		state = d.tr("record; %s", state)
	case d.kind == "audit":
		state = d.tr("audit: %s", state)
	}
	tag, variant := mailfmt.FormatTag(l.g.ID), shortName(l.v.Name())
	side, player := d.viewer.Side()
	switch {
	case d.kind == "audit":
	case player && l.meta.Phase == phaseOpen:
	case player:
		return d.tr("%s %s · %s v %s", tag, state, variant, displayName(l.seats[1-side]))
	default:
		return d.tr("%s %s · %s, observed", tag, state, variant)
	}
	return d.tr("%s %s · %s", tag, state, variant)
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
// words of the recipient's language.
func gameState(l *loaded, d *draft) string {
	side, player := d.viewer.Side()
	switch l.meta.Phase {
	case phaseOpen:
		return d.tr("open challenge, waiting for an opponent")
	case phaseChallenge:
		if player && int(side) == l.meta.Challenger {
			return d.tr("challenge sent, waiting for an answer")
		}
		return d.tr("invitation")
	case phasePlay:
		label := rules.MoveLabel(l.state.Ply())
		toMove := l.state.ToMove()
		var state string
		switch {
		case player && toMove == side:
			state = d.tr("your move (%s)", label)
		case player:
			state = d.tr("waiting for %s (%s)", displayName(l.seats[toMove]), label)
		default:
			state = d.tr("%s to move (%s)", l.sidesIn(d.lang)[toMove], label)
		}
		if l.meta.DrawOffer >= 0 {
			state = d.tr("%s, draw offered", state)
		}
		return state
	}
	if l.meta.Outcome == nil {
		if l.meta.Reason == record.DeclinedTermination {
			return d.tr("challenge declined")
		}
		return l.meta.Reason
	}
	return d.tr("game over: %s (%s)", l.g.Result, reasonIn(*l.meta.Outcome, l, d.lang))
}
