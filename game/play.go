package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

func (h *handling) newGame(c Command) error {
	v, err := variants.Lookup(c.Variant)
	if err != nil {
		return userf("%s", strings.TrimPrefix(err.Error(), "variants: "))
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
			return userf("%s has no ruleset %q (it has: %s)", v.Name(), c.Rules, strings.Join(v.Rulesets(), ", "))
		}
	}
	tcText := c.Time
	if tcText == "" {
		tcText = h.s.cfg.DefaultTime
	}
	tc, err := ParseTimeControl(tcText)
	if err != nil {
		return userf("%s", strings.TrimPrefix(err.Error(), "game: "))
	}
	if c.Opponent != "" && normalize(c.Opponent) == h.from {
		return userf("you cannot challenge yourself")
	}
	if c.Opponent != "" && h.s.ours(c.Opponent) {
		return userf("bottlepost referees games; it does not play them: challenge a person")
	}
	if c.Opponent == "" {
		if l, err := h.matchOpen(v.ID(), ruleset, tc.String()); err != nil || l != nil {
			return err
		}
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
		return userf("%s", err.Error())
	}
	data, err := state.MarshalBinary()
	if err != nil {
		return err
	}
	var opp *store.Player
	newcomer := false
	if c.Opponent != "" {
		opp, err = h.tx.PlayerByAddress(normalize(c.Opponent))
		if errors.Is(err, store.ErrNotFound) {
			newcomer = true
			opp = &store.Player{Address: normalize(c.Opponent), Created: h.now}
			if err := h.tx.PutPlayer(opp); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
	}
	g := &store.Game{Variant: v.ID(), Ruleset: ruleset, TimeControl: tc.String(), Status: store.StatusActive,
		Hidden: v.Hidden(), State: data, Created: h.now, Updated: h.now}
	meta := &gameMeta{Phase: phaseChallenge, Challenger: mySide, Time: tc.String(), DrawOffer: -1, TimedOut: -1, Seed: seed}
	meta.Clocks = [2]Clock{tc.NewClock(), tc.NewClock()}
	seats := [2]*store.Player{}
	seats[mySide] = h.player
	if opp != nil {
		seats[1-mySide] = opp
	} else {
		meta.Phase = phaseOpen
		seats[1-mySide] = h.player // the open seat is held by the challenger until someone matches
		g.Match = openMatch(v.ID(), ruleset, tc.String())
	}
	for i, p := range seats {
		g.Seats[i] = store.Seat{Player: p.ID, Address: p.Address}
	}
	g.Meta = meta.encode()
	if err := h.tx.CreateGame(g); err != nil {
		return err
	}
	// The setup goes on the chain first, so that an exported game can be replayed.
	if _, err := h.tx.Append(g, store.Entry{Kind: store.KindEvent, Side: store.Side(mySide),
		Text: startText(ruleset, seed), Public: startText(ruleset, seed), At: h.now}); err != nil {
		return err
	}
	root, err := h.messageID("game-" + fmt.Sprint(g.ID))
	if err != nil {
		return err
	}
	meta.Root = root
	for i := range meta.Tokens {
		if opp == nil && i != mySide {
			continue // the open seat gets its token when someone takes it
		}
		if meta.Tokens[i], err = store.NewToken(h.s.rand); err != nil {
			return err
		}
		if err := h.tx.PutToken(meta.Tokens[i], store.TokenRef{Game: g.ID, Player: seats[i].ID, Side: store.Side(i)}); err != nil {
			return err
		}
	}
	l := &loaded{g: g, meta: meta, v: v, state: state, seats: seats}
	if h.games == nil {
		h.games = map[uint64]*loaded{}
	}
	h.games[g.ID] = l
	if err := h.save(l); err != nil {
		return err
	}
	h.pmeta.addGame(g.ID)
	if err := h.savePlayer(); err != nil {
		return err
	}
	sides := v.Sides()
	d := h.draft(h.from, l, "challenge")
	d.yourSide = sides[mySide]
	if opp == nil {
		d.notices = append(d.notices, fmt.Sprintf("Your open challenge [bp-%d] for %s (%s) is waiting: the next player who sends the same new command is matched with you.", g.ID, v.Name(), tc.Describe()))
		return nil
	}
	d.notices = append(d.notices, fmt.Sprintf("Your challenge to %s for a game of %s has been sent. You will hear as soon as it is answered.", opp.Address, v.Name()))
	inv := h.draft(opp.Address, l, "invitation")
	inv.yourSide = sides[1-mySide]
	inv.newcomer = newcomer
	inv.fromAddr = h.from
	inv.inReplyTo = ""
	return h.addOpponentGame(opp, g.ID)
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
// (store.Game.Match) while it waits for an opponent: its terms.
func openMatch(variant, ruleset, tc string) string {
	return "open " + variant + " " + ruleset + " " + tc
}

// matchOpen looks for an open challenge with the same terms by someone else
// and, if there is one, seats the sender in it and starts the game. It reads
// the store's match index, not every game: only the challenges with these
// terms are loaded, oldest first.
func (h *handling) matchOpen(variant, ruleset, tc string) (*loaded, error) {
	if err := h.listOpenChallenges(); err != nil {
		return nil, err
	}
	key := openMatch(variant, ruleset, tc)
	ids, err := h.tx.Matching(key, 0)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		l := h.listed(id)
		if l == nil {
			continue
		}
		if l.meta.Phase != phaseOpen || l.g.Variant != variant || l.g.Ruleset != ruleset || l.meta.Time != tc {
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
		tok, err := store.NewToken(h.s.rand)
		if err != nil {
			return nil, err
		}
		l.meta.Tokens[open] = tok
		if err := h.save(l); err != nil {
			return nil, err
		}
		if err := h.tx.PutToken(tok, store.TokenRef{Game: id, Player: h.player.ID, Side: store.Side(open)}); err != nil {
			return nil, err
		}
		h.pmeta.addGame(id)
		if err := h.savePlayer(); err != nil {
			return nil, err
		}
		return l, h.start(l)
	}
	return nil, nil
}

// answer handles accept and decline of a challenge.
func (h *handling) answer(l *loaded, side int, accept bool, d *draft) error {
	if l.meta.Phase != phaseChallenge {
		if l.meta.Phase == phasePlay {
			return userf("game %d has already started", l.g.ID)
		}
		return h.notPlaying(l)
	}
	if side == l.meta.Challenger {
		return userf("you sent this challenge; the other player answers it")
	}
	if accept {
		return h.start(l)
	}
	l.meta.Phase = phaseOver
	l.meta.Reason = "challenge declined"
	l.g.Status = store.StatusAborted
	d.notices = append(d.notices, fmt.Sprintf("You declined the challenge from %s.", l.seats[l.meta.Challenger].Address))
	cd := h.draft(l.seats[l.meta.Challenger].Address, l, "update")
	cd.notices = append(cd.notices, fmt.Sprintf("%s declined your challenge to a game of %s.", l.seats[side].Address, l.v.Name()))
	return h.close(l)
}

// start begins play: clocks run from now, both players get the board.
func (h *handling) start(l *loaded) error {
	l.meta.Phase = phasePlay
	l.meta.TurnStart = h.now
	if err := h.save(l); err != nil {
		return err
	}
	for side := range 2 {
		d := h.draft(l.seats[side].Address, l, "update")
		d.notices = append(d.notices, fmt.Sprintf("The game has begun: %s, %s v %s. You play %s.",
			l.v.Name(), l.seats[0].Address, l.seats[1].Address, l.sides()[side]))
		d.board = true
	}
	return nil
}

func (h *handling) move(l *loaded, side int, text string, d *draft) error {
	if l.meta.Phase != phasePlay {
		return h.notPlaying(l)
	}
	if int(l.state.ToMove()) != side {
		d.board = true
		return userf("it is not your turn: %s is to move", l.sides()[l.state.ToMove()])
	}
	m, err := l.state.Parse(text)
	var next rules.State
	var rep *rules.Report
	if err == nil {
		next, rep, err = l.state.Apply(m)
	}
	if err != nil {
		d.board = true
		var me *rules.MoveError
		if errors.As(err, &me) {
			msg := fmt.Sprintf("Your move was not played: %s.", me.Player())
			if len(me.Options) > 0 && me.Kind != rules.Ambiguous {
				msg += " Legal moves that come close: " + strings.Join(me.Options, ", ") + "."
			}
			return &userError{msg}
		}
		return err
	}
	ply := l.state.Ply()
	rec, err := h.tx.Append(l.g, store.Entry{Kind: store.KindMove, Ply: uint32(ply), Side: store.Side(side),
		Text: rep.Text, Secret: rep.Secret, Public: rep.Record[rules.ViewPublic],
		Lines: [2]string{rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack]}, At: h.now})
	if err != nil {
		return err
	}
	h.spend(l, side)
	l.state = next
	if l.meta.DrawOffer == 1-side {
		l.meta.DrawOffer = -1 // a move declines the offer it answers
	}
	opp := 1 - side
	commit := ""
	if rep.Secret {
		commit = fmt.Sprintf("%s's hidden move %d: %s", l.sides()[side], ply+1, rec.Commitment)
	}
	over := next.Outcome().Over()
	kind := "update"
	if over {
		kind = "final" // the final mail carries the move's news too: one mail, not two
	}
	d = h.draft(h.from, l, kind)
	d.notices = append(d.notices, fmt.Sprintf("Your move %s was accepted.", rep.Text))
	d.notices = append(d.notices, rep.Notices[side]...)
	d.board, d.lastMoves = true, true
	od := h.draft(l.seats[opp].Address, l, kind)
	od.notices = append(od.notices, rep.Notices[opp]...)
	if len(rep.Notices[opp]) == 0 {
		od.notices = append(od.notices, fmt.Sprintf("%s played %s.", l.sides()[side], rep.Record[opp]))
	}
	od.board, od.lastMoves = true, true
	drafts := []*draft{d, od}
	for _, o := range l.meta.Observers {
		obs := h.draft(o, l, kind)
		obs.notices = append(obs.notices, rep.Notices[rules.ViewPublic]...)
		if len(rep.Notices[rules.ViewPublic]) == 0 {
			obs.notices = append(obs.notices, fmt.Sprintf("%s played %s.", l.sides()[side], rep.Record[rules.ViewPublic]))
		}
		obs.board, obs.lastMoves = true, true
		drafts = append(drafts, obs)
	}
	if commit != "" {
		for _, dr := range drafts {
			dr.commitments = append(dr.commitments, commit)
		}
	}
	if over {
		return h.finish(l, next.Outcome())
	}
	return h.save(l)
}

// spend charges the mover's clock and starts the opponent's turn.
func (h *handling) spend(l *loaded, side int) {
	tc, _ := ParseTimeControl(l.meta.Time)
	// Time the clock stood still (outages, the mover's vacation) is not charged.
	used := h.now.Sub(l.meta.TurnStart) - overlap(h.stopped(l, side), l.meta.TurnStart, h.now)
	l.meta.Clocks[side] = tc.Spend(l.meta.Clocks[side], max(used, 0))
	l.meta.TurnStart = h.now
	l.meta.RemindedHalf, l.meta.RemindedDay, l.meta.TimedOut = false, false, -1
}

func (h *handling) deadlineText(l *loaded, pm *playerMeta) string {
	t := h.turn(l).deadline.In(pm.location())
	name, off := t.Zone()
	return fmt.Sprintf("%s %s (UTC%s)", t.Format("Mon 2 Jan 2006 15:04"), name, offset(off))
}

func (h *handling) draw(l *loaded, side int, d *draft) error {
	if l.meta.Phase != phasePlay {
		return h.notPlaying(l)
	}
	opp := 1 - side
	switch l.meta.DrawOffer {
	case opp:
		return h.finish(l, rules.Outcome{Status: rules.Draw, Reason: "draw agreed"})
	case side:
		return userf("you have offered a draw already; %s has not answered yet", l.sides()[opp])
	}
	l.meta.DrawOffer = side
	d.notices = append(d.notices, fmt.Sprintf("You offered a draw. If %s answers draw, the game is drawn; a move declines it.", l.sides()[opp]))
	od := h.draft(l.seats[opp].Address, l, "update")
	od.notices = append(od.notices, fmt.Sprintf("%s offers a draw. Reply draw to accept, or simply move to decline.", l.sides()[side]))
	od.board = true
	return h.save(l)
}

// finish ends a game: the result goes on the record, both players and the
// observers get the full record with every secret move revealed, and the
// game moves to the archive.
func (h *handling) finish(l *loaded, o rules.Outcome) error {
	l.meta.Phase = phaseOver
	l.meta.Reason = o.Describe(l.sides())
	l.meta.Finished = h.now
	l.g.Status = store.StatusFinished
	l.g.Result = o.Result()
	if _, err := h.tx.Append(l.g, store.Entry{Kind: store.KindEvent, Ply: uint32(l.state.Ply()), Side: store.Side(l.state.ToMove()),
		Text: o.Result() + " " + l.meta.Reason, Public: o.Result() + " " + l.meta.Reason, At: h.now}); err != nil {
		return err
	}
	recipients := []string{l.seats[0].Address, l.seats[1].Address}
	recipients = append(recipients, l.meta.Observers...)
	for _, to := range recipients {
		d := h.draft(to, l, "final")
		d.notices = append(d.notices, "Game over: "+l.meta.Reason+".")
		d.final = true
	}
	return h.close(l)
}

// close writes a game that has ended and moves it to the archive.
func (h *handling) close(l *loaded) error {
	if err := h.save(l); err != nil {
		return err
	}
	if err := h.tx.Archive(l.g.ID); err != nil {
		return err
	}
	l.g.Archived = true
	done := map[uint64]bool{}
	for _, p := range l.seats {
		if done[p.ID] {
			continue
		}
		done[p.ID] = true
		if h.player != nil && p.ID == h.player.ID {
			h.pmeta.dropGame(l.g.ID)
			if err := h.savePlayer(); err != nil {
				return err
			}
			continue
		}
		// Read the player afresh: an earlier command of this mail may have
		// changed them since the game was loaded.
		fresh, err := h.tx.Player(p.ID)
		if err != nil {
			return err
		}
		m := decodePlayerMeta(fresh)
		m.dropGame(l.g.ID)
		fresh.Meta = m.encode()
		if err := h.tx.PutPlayer(fresh); err != nil {
			return err
		}
	}
	return nil
}

// vacation stops the sender's clocks for N days, within the yearly allowance.
func (h *handling) vacation(c Command, reply *draft) error {
	year := h.now.Year()
	if h.pmeta.Vacation.Year != year {
		h.pmeta.Vacation.Year, h.pmeta.Vacation.Used = year, 0
	}
	left := h.s.cfg.VacationDays - h.pmeta.Vacation.Used
	if c.Days > left {
		return userf("you have %d vacation days left this year (of %d); you asked for %d", left, h.s.cfg.VacationDays, c.Days)
	}
	start := h.now
	if h.pmeta.Vacation.Until.After(start) {
		start = h.pmeta.Vacation.Until
	}
	until := start.Add(time.Duration(c.Days) * Day)
	h.pmeta.Vacation.Used += c.Days
	h.pmeta.Vacation.Until = until
	for _, id := range h.pmeta.Games {
		l := h.listed(id)
		if l == nil {
			continue
		}
		side := l.side(h.player.ID)
		if l.meta.Phase != phasePlay || side < 0 {
			continue
		}
		if l.meta.Vacation[side].Before(start) {
			l.meta.VacationFrom[side] = start // a new vacation; one that continues keeps its start
		}
		l.meta.Vacation[side] = until
		if err := h.save(l); err != nil {
			return err
		}
		od := h.draft(l.seats[1-side].Address, l, "update")
		oppZone := decodePlayerMeta(l.seats[1-side]).location()
		od.notices = append(od.notices, fmt.Sprintf("%s is on vacation until %s; their clock stands still until then.", l.sides()[side], until.In(oppZone).Format("Mon 2 Jan 2006 15:04 MST")))
	}
	if err := h.savePlayer(); err != nil {
		return err
	}
	reply.notices = append(reply.notices, fmt.Sprintf("Your clocks stand still until %s. You have %d vacation days left this year.",
		until.In(h.pmeta.location()).Format("Mon 2 Jan 2006 15:04 MST"), h.s.cfg.VacationDays-h.pmeta.Vacation.Used))
	return nil
}

// settingOpenListed records that every open challenge is listed in the
// store's match index. Databases from before the index (store schema 1) hold
// open challenges without a match key; the first match after the upgrade
// lists them, once.
const settingOpenListed = "open-challenges-listed"

// listOpenChallenges lists the open challenges of an older database under
// their match keys, once per database: it reads every active game, so it
// runs only while the setting says it has not run yet.
func (h *handling) listOpenChallenges() error {
	done, err := h.tx.Setting(settingOpenListed)
	if err != nil || done != nil {
		return err
	}
	ids, err := h.tx.Games()
	if err != nil {
		return err
	}
	listed := 0
	for _, id := range ids {
		g, err := h.tx.Game(id)
		if err != nil {
			h.s.log.Error("open challenges: game skipped: it cannot be read", "game", id, "err", err)
			continue
		}
		m, err := decodeGameMeta(g)
		if err != nil || m.Phase != phaseOpen || g.Match != "" {
			continue
		}
		g.Match = openMatch(g.Variant, g.Ruleset, m.Time)
		if err := h.tx.PutGame(g); err != nil {
			return err
		}
		if l, ok := h.games[id]; ok {
			l.g.Match = g.Match // a copy loaded earlier in this transaction must not undo it
		}
		listed++
	}
	if len(ids) > 0 {
		h.s.log.Info("open challenges listed in the match index", "games read", len(ids), "listed", listed)
	}
	return h.tx.PutSetting(settingOpenListed, []byte("1"))
}
