package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// newGame answers "new": it checks the terms, matches an open challenge of
// the same terms when no opponent is named, or creates the game and mails
// the challenge (and the invitation).
func (h *handling) newGame(c Command) error {
	v, ruleset, tc, err := h.challengeTerms(c)
	if err != nil {
		return err
	}
	if c.Opponent == "" {
		if l, err := h.matchOpen(v.ID(), ruleset, tc.String(), c.Casual); err != nil || l != nil {
			return err
		}
	}
	stranger := false
	if c.Opponent != "" {
		p, err := h.tx.PlayerByAddress(mailfmt.Key(c.Opponent))
		switch {
		case errors.Is(err, store.ErrNotFound):
			stranger = true
		case err != nil:
			return err
		default:
			stranger = !decodePlayerMeta(p).Wrote
		}
	}
	if err := h.challengeLimits(stranger); err != nil {
		return err
	}
	var rnd [9]byte
	if _, err := h.s.rand.Read(rnd[:]); err != nil {
		return err
	}
	seed := binary.BigEndian.Uint64(rnd[:8])
	mySide := int(rnd[8] & 1)
	switch c.Color {
	case "white":
		mySide = 0
	case "black", "red":
		mySide = 1
	}
	state, err := v.New(rules.Options{Ruleset: ruleset, Seed: seed})
	if err != nil {
		if e := playerError(err); e != err {
			return e
		}
		return &userError{msg: lang.Raw(err.Error())} // the variant's own refusal of the terms
	}
	if stranger {
		// The invitation is a mail to a stranger: one of the service's
		// StrangersPerDay (strangers.go), taken once nothing else refuses it.
		if ok, err := h.strangerMail(); err != nil || !ok {
			if err != nil {
				return err
			}
			return strangersRefused(mailfmt.Key(c.Opponent))
		}
	}
	opp, newcomer, err := h.opponent(c)
	if err != nil {
		return err
	}
	h.countChallenge(stranger) // saved with the challenger by createGame
	l, err := h.createGame(v, ruleset, tc, state, seed, mySide, opp, c.Casual)
	if err != nil {
		return err
	}
	return h.announceChallenge(l, tc, mySide, opp, newcomer)
}

// challengeTerms resolves a "new" command's variant, ruleset and time
// control, and refuses challenges to oneself or to the service.
func (h *handling) challengeTerms(c Command) (rules.Variant, string, timing.TimeControl, error) {
	v, err := variants.Lookup(c.Variant)
	if err != nil {
		return nil, "", timing.TimeControl{}, playerError(err)
	}
	ruleset := v.Rulesets()[0]
	if c.Rules != "" {
		ruleset = ""
		for _, r := range v.Rulesets() {
			if strings.EqualFold(r, c.Rules) {
				ruleset = r
			}
		}
		if ruleset == "" {
			return nil, "", timing.TimeControl{}, userf("%s has no ruleset %q (it has: %s)", v.Name(), c.Rules, strings.Join(v.Rulesets(), ", "))
		}
	}
	tcText := c.Time
	if tcText == "" {
		tcText = h.s.cfg.DefaultTime
	}
	tc, err := timing.ParseTimeControl(tcText)
	if err != nil {
		return nil, "", timing.TimeControl{}, playerError(err)
	}
	if c.Opponent != "" && mailfmt.Key(c.Opponent) == h.from {
		return nil, "", timing.TimeControl{}, userf("you cannot challenge yourself")
	}
	if c.Opponent != "" && h.s.ours(c.Opponent) {
		return nil, "", timing.TimeControl{}, userf("bottlepost referees games; it does not play them: challenge a person")
	}
	return v, ruleset, tc, nil
}

// opponent finds or registers the named opponent of a challenge; newcomer
// says the service had never heard of them. An open challenge has none.
func (h *handling) opponent(c Command) (opp *store.Player, newcomer bool, err error) {
	if c.Opponent == "" {
		return nil, false, nil
	}
	opp, err = h.tx.PlayerByAddress(mailfmt.Key(c.Opponent))
	if errors.Is(err, store.ErrNotFound) {
		// The name the challenge wrote is the stranger's until they choose one
		// (displayName).
		opp = &store.Player{Name: c.OpponentName, Address: mailfmt.Key(c.Opponent), Created: h.now}
		if err := h.tx.PutPlayer(opp); err != nil {
			return nil, false, err
		}
		return opp, true, nil
	} else if err != nil {
		return nil, false, err
	}
	if opp.Name == "" && c.OpponentName != "" && !decodePlayerMeta(opp).Wrote {
		// Invited before without a name, and silent since: this one is kept.
		opp.Name = c.OpponentName
		if err := h.tx.PutPlayer(opp); err != nil {
			return nil, false, err
		}
	}
	return opp, false, nil
}

// createGame stores a new game in its challenge phase (open when opp is
// nil; rated unless casual): the game, its setup on the chain, its tokens
// and the challenger's list of games.
func (h *handling) createGame(v rules.Variant, ruleset string, tc timing.TimeControl, state rules.State, seed uint64, mySide int, opp *store.Player, casual bool) (*loaded, error) {
	meta := &gameMeta{Phase: phaseChallenge, Challenger: mySide, Time: tc.String(), DrawOffer: -1, TimedOut: -1, Seed: seed, Casual: casual}
	spec := gameSpec{v: v, ruleset: ruleset, tc: tc, state: state, meta: meta, starter: mySide,
		start: record.Start{Variant: v.ID(), Ruleset: ruleset, Seed: seed, Time: meta.Time}}
	spec.seats[mySide] = h.player
	spec.tokens[mySide] = true
	if opp != nil {
		spec.seats[1-mySide], spec.tokens[1-mySide] = opp, true
	} else {
		// The open seat is held by the challenger until someone matches,
		// and gets its token then.
		meta.Phase = phaseOpen
		spec.seats[1-mySide] = h.player
		spec.match = openMatch(v.ID(), ruleset, tc.String(), casual)
	}
	l, err := h.storeGame(spec)
	if err != nil {
		return nil, err
	}
	if err := h.save(l); err != nil {
		return nil, err
	}
	h.pmeta.addGame(l.g.ID)
	if err := h.savePlayer(); err != nil {
		return nil, err
	}
	return l, nil
}

// gameSpec is what storeGame writes: a game's variant, ruleset, time
// control, first position and service data, its seats (and which of them get their reply
// token now), an open challenge's match key, and its start record with the
// side it is written for.
type gameSpec struct {
	v       rules.Variant
	ruleset string
	tc      timing.TimeControl
	state   rules.State
	meta    *gameMeta
	seats   [2]*store.Player
	tokens  [2]bool
	match   string
	start   record.Start
	starter int
}

// storeGame creates a game in the store as spec says — its record, the
// start record first on its chain (so that an exported game can be
// replayed), its thread root and its seats' tokens — and loads it. The
// caller saves the service data once it has set the phase it starts in
// (createGame, createTournamentGame).
func (h *handling) storeGame(spec gameSpec) (*loaded, error) {
	data, err := spec.state.MarshalBinary()
	if err != nil {
		return nil, err
	}
	v, meta := spec.v, spec.meta
	meta.Clocks = [2]timing.Clock{spec.tc.NewClock(), spec.tc.NewClock()}
	g := &store.Game{Variant: v.ID(), Ruleset: spec.ruleset, TimeControl: spec.tc.String(), Status: store.StatusActive,
		Hidden: v.Hidden(), State: data, Created: h.now, Updated: h.now, Match: spec.match}
	for i, p := range spec.seats {
		g.Seats[i] = store.Seat{Player: p.ID, Address: p.Address}
	}
	g.Meta = meta.encode()
	if err := h.tx.CreateGame(g); err != nil {
		return nil, err
	}
	start := spec.start.Text()
	if _, err := h.tx.Append(g, store.Entry{Kind: store.KindEvent, Side: store.Side(spec.starter),
		Text: start, Public: start, At: h.now}); err != nil {
		return nil, err
	}
	root, err := h.s.messageID("game-" + fmt.Sprint(g.ID))
	if err != nil {
		return nil, err
	}
	meta.Root = root
	meta.Roots = [2]string{seatRoot(root, 0), seatRoot(root, 1)}
	for i, p := range spec.seats {
		if !spec.tokens[i] {
			continue
		}
		if err := h.tx.PutToken(h.s.seatToken(g.ID, i, p.ID), store.TokenRef{Game: g.ID, Player: p.ID, Side: store.Side(i)}); err != nil {
			return nil, err
		}
	}
	l := &loaded{g: g, meta: meta, v: v, state: spec.state, seats: spec.seats}
	if h.games == nil {
		h.games = map[uint64]*loaded{}
	}
	h.games[g.ID] = l
	return l, nil
}

// announceChallenge drafts the challenger's confirmation and, for a named
// opponent, the invitation, and adds the game to the opponent's list.
func (h *handling) announceChallenge(l *loaded, tc timing.TimeControl, mySide int, opp *store.Player, newcomer bool) error {
	sides := l.v.Sides()
	d := h.draft(h.from, l, "challenge")
	d.yourSide = sides[mySide]
	d.messageID = l.meta.Roots[mySide] // the challenger's thread starts here
	if opp == nil {
		d.notice("Your open challenge [bp-%d] for %s (%s) is waiting: the next player who sends the same new command is matched with you.", l.g.ID, l.v.Name(), tc.DescribeIn(d.lang))
		return nil
	}
	d.notice("Your challenge to %s for a game of %s has been sent. You will hear as soon as it is answered.", nameAndAddress(opp), l.v.Name())
	inv := h.draft(opp.Address, l, "invitation")
	inv.yourSide = sides[1-mySide]
	inv.newcomer = newcomer
	inv.fromName = nameAndAddress(h.player)
	inv.inReplyTo = ""
	inv.messageID = l.meta.Roots[1-mySide] // the invitee's thread starts here
	return h.addOpponentGame(opp, l.g.ID)
}

func (h *handling) addOpponentGame(p *store.Player, id uint64) error {
	fresh, err := h.tx.Player(p.ID)
	if err != nil {
		return err
	}
	m := decodePlayerMeta(fresh)
	m.addGame(id)
	fresh.Meta = m.encode()
	return h.tx.PutPlayer(fresh)
}

// openMatch is the match key an open challenge is listed under in the store
// (store.Game.Match) while it waits for an opponent: its terms, casual
// ones apart from rated ones.
func openMatch(variant, ruleset, tc string, casual bool) string {
	if casual {
		return "open " + variant + " " + ruleset + " " + tc + " casual"
	}
	return "open " + variant + " " + ruleset + " " + tc
}

// matchOpen looks for an open challenge with the same terms by someone else
// (variant, ruleset, time control, and rated or casual) and, if there is one, seats the sender in it and
// starts the game. It reads the store's match index, not every game: only
// the challenges with these terms are loaded, oldest first.
func (h *handling) matchOpen(variant, ruleset, tc string, casual bool) (*loaded, error) {
	if err := h.listOpenChallenges(); err != nil {
		return nil, err
	}
	key := openMatch(variant, ruleset, tc, casual)
	ids, err := h.tx.Matching(key, 0)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		l := h.listed(id)
		if l == nil {
			continue
		}
		if l.meta.Phase != phaseOpen || l.g.Variant != variant || l.g.Ruleset != ruleset || l.meta.Time != tc || l.meta.Casual != casual {
			continue
		}
		ch := l.meta.Challenger
		if l.g.Seats[ch].Player == h.player.ID {
			continue
		}
		open := 1 - ch
		l.g.Seats[open] = store.Seat{Player: h.player.ID, Address: h.player.Address}
		l.seats[open] = h.player
		l.g.Match = "" // no longer waiting: out of the index with the save below
		if err := h.save(l); err != nil {
			return nil, err
		}
		if err := h.tx.PutToken(h.s.seatToken(id, open, h.player.ID), store.TokenRef{Game: id, Player: h.player.ID, Side: store.Side(open)}); err != nil {
			return nil, err
		}
		h.pmeta.addGame(id)
		if err := h.savePlayer(); err != nil {
			return nil, err
		}
		if err := h.start(l); err != nil {
			return nil, err
		}
		// The taker's first mail of the game starts their thread.
		h.draft(h.from, l, "update").messageID = l.meta.Roots[open]
		return l, nil
	}
	return nil, nil
}

// answer handles accept and decline of a challenge.
func (h *handling) answer(l *loaded, side int, accept bool, d *draft) error {
	if l.meta.Phase != phaseChallenge {
		if l.meta.Phase == phasePlay {
			return userf("game %d has already started", l.g.ID)
		}
		return l.notPlaying()
	}
	if side == l.meta.Challenger {
		return userf("you sent this challenge; the other player answers it")
	}
	if accept {
		return h.start(l)
	}
	l.meta.Phase = phaseOver
	l.meta.Reason = record.DeclinedTermination
	l.meta.Finished = h.now
	l.g.Status = store.StatusAborted
	l.g.Result = ""
	if err := h.appendEnding(l, "*"); err != nil {
		return err
	}
	d.notice("You declined the challenge from %s.", nameAndAddress(l.seats[l.meta.Challenger]))
	cd := h.draft(l.seats[l.meta.Challenger].Address, l, "update")
	cd.notice("%s declined your challenge to a game of %s.", nameAndAddress(l.seats[side]), l.v.Name())
	return h.close(l)
}

// start begins play: clocks run from now, both players get the board.
func (h *handling) start(l *loaded) error {
	l.meta.Phase = phasePlay
	l.meta.TurnStart = h.now
	if err := h.save(l); err != nil {
		return err
	}
	var players [2]string // with their ratings
	for side := range players {
		var err error
		if players[side], err = h.ratedName(l, side); err != nil {
			return err
		}
	}
	for side := range 2 {
		d := h.draft(l.seats[side].Address, l, "update")
		d.notice("The game has begun: %s, %s v %s. You play %s.",
			l.v.Name(), players[0], players[1], l.sidesIn(d.lang)[side])
		if l.meta.Casual {
			d.notice(casualNotRated)
		}
		d.board = true
		d.needs = true
	}
	return nil
}
