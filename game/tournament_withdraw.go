package game

import (
	"errors"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// Withdrawal from a tournament (docs/tournaments.md): a player's withdraw N,
// confirmed by withdraw N confirm, or a referee's tournament N withdraw
// ADDRESS. Each of the player's games still being played is lost by
// forfeit (gameMeta.Forfeit): it ends as any game ends (finish), so its
// final mail tells the opponent, its result counts in the crosstable (+
// and −), and the ratings do not take it (whyForfeit).

// VerbWithdraw withdraws the sender from a tournament (withdraw N
// [confirm]).
const VerbWithdraw Verb = "withdraw"

func init() { verbParsers[VerbWithdraw] = parseWithdraw }

// whyForfeit is why a game lost by forfeit is not rated.
const whyForfeit = "the game was lost by forfeit, a player having withdrawn from the tournament"

// parseWithdraw reads "withdraw N [confirm]".
func parseWithdraw(c *Command, args []string) lang.Text {
	if len(args) == 0 || len(args) > 2 {
		return lang.Msg("write withdraw N, with the tournament's number")
	}
	n, ok := parseGame(args[0])
	if !ok {
		return lang.Msg("%q is not a tournament number", args[0])
	}
	c.Game = n
	if len(args) == 2 {
		if !strings.EqualFold(args[1], "confirm") {
			return lang.Msg("write withdraw N, then withdraw N confirm to confirm it")
		}
		c.Arg = "confirm"
	}
	return lang.Text{}
}

// withdraw is a player's withdraw N: the first asks for confirmation, the
// second (withdraw N confirm) withdraws them.
func (h *handling) withdraw(c Command) error {
	t, err := loadTournament(h.tx, c.Game)
	if err != nil {
		return err
	}
	i := t.index(h.player.ID)
	switch {
	case i < 0:
		return userf("you do not play in tournament %d", t.ID)
	case t.Phase != tourPlaying:
		return userf("tournament %d is not being played (it is %s)", t.ID, phaseText(t.Phase))
	case t.Players[i].Withdrawn:
		return userf("you have already withdrawn from tournament %d", t.ID)
	}
	d := h.draft(h.from, nil, "notice")
	d.subject = d.tr("Tournament %d: withdrawal · %s", t.ID, t.Name)
	if c.Arg != "confirm" {
		d.notice("To withdraw from tournament %d, %s, reply: withdraw %[1]d confirm", t.ID, t.Name)
		d.notice("Each of your games still being played (%d) is then lost by forfeit, and your opponents are told. This cannot be undone.", t.unfinished(i))
		return nil
	}
	n, err := h.withdrawPlayer(t, i, forfeitWithdrew)
	if err != nil {
		return err
	}
	d.notice("You have withdrawn from tournament %d, %s: %s lost by forfeit.", t.ID, t.Name, gamesIn(d.lang, n))
	return nil
}

// refereeWithdraw is a referee's tournament N withdraw ADDRESS.
func (h *handling) refereeWithdraw(c Command) error {
	t, err := loadTournament(h.tx, c.Game)
	if err != nil {
		return err
	}
	if !h.refereeOf(t) {
		return userf("only a referee may withdraw another player")
	}
	if t.Phase != tourPlaying {
		return userf("tournament %d is not being played (it is %s)", t.ID, phaseText(t.Phase))
	}
	i := -1 // the player of the address, wherever they were invited
	if p, err := h.tx.PlayerByAddress(c.Opponent); err == nil {
		i = t.index(p.ID)
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	switch {
	case i < 0:
		return userf("%s does not play in tournament %d", c.Opponent, t.ID)
	case t.Players[i].Withdrawn:
		return userf("%s has already withdrawn from tournament %d", c.Opponent, t.ID)
	}
	n, err := h.withdrawPlayer(t, i, forfeitWithdrawn)
	if err != nil {
		return err
	}
	d := h.draft(h.from, nil, "notice")
	d.subject = d.tr("Tournament %d: withdrawal · %s", t.ID, t.Name)
	d.notice("%s is withdrawn from tournament %d: %s lost by forfeit; the opponents have been told.", c.Opponent, t.ID, gamesIn(d.lang, n))
	return nil
}

// unfinished counts a player's games without a result.
func (t *tournament) unfinished(i int) int {
	n := 0
	for _, g := range t.Games {
		if g.Result == "" && (g.White == i || g.Black == i) {
			n++
		}
	}
	return n
}

// withdrawPlayer marks player i withdrawn and ends each of their unfinished
// games as a loss by forfeit; it returns how many.
func (h *handling) withdrawPlayer(t *tournament, i int, how string) (int, error) {
	t.Players[i].Withdrawn = true
	if err := saveTournament(h.tx, t); err != nil {
		return 0, err
	}
	var ids []uint64
	for _, g := range t.Games {
		if g.Result == "" && (g.White == i || g.Black == i) {
			ids = append(ids, g.Game)
		}
	}
	n := 0 // games lost by forfeit: those still in play
	for _, id := range ids {
		l, err := h.game(id)
		if err != nil {
			return 0, err
		}
		if l.meta.Phase != phasePlay {
			continue
		}
		side := l.side(t.Players[i].Player)
		l.meta.Forfeit = true
		o := rules.Outcome{Status: rules.Win, Winner: rules.Side(1 - side),
			Reason: forfeitPrefix + displayName(l.seats[side]) + " " + how}
		if err := h.finish(l, o); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// How a forfeit's reason is stored (in English, as every game's Reason):
// "forfeit: Bob Smith withdrew from the tournament".
const (
	forfeitPrefix    = "forfeit: "
	forfeitWithdrew  = "withdrew from the tournament"
	forfeitWithdrawn = "was withdrawn by the referee"
)

// forfeitIn is a forfeit's stored reason in language lg, for the final
// mail and its subject; false when reason is no forfeit's.
func forfeitIn(reason string, lg lang.Lang) (string, bool) {
	name, ok := strings.CutPrefix(reason, forfeitPrefix)
	if !ok {
		return "", false
	}
	if who, ok := strings.CutSuffix(name, " "+forfeitWithdrew); ok {
		return lg.Tr("forfeit: %s withdrew from the tournament", who), true
	}
	if who, ok := strings.CutSuffix(name, " "+forfeitWithdrawn); ok {
		return lg.Tr("forfeit: %s was withdrawn by the referee", who), true
	}
	return "", false
}
