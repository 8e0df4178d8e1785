package game

import (
	"github.com/bottlepost/bottlepost/rules"
)

// listGames answers the games command: a line for each of the player's games not yet
// archived; a game that cannot be read because its stored record is damaged is named so.
func (h *handling) listGames() error {
	d := h.draft(h.from, nil, "games")
	d.subject = d.tr("bottlepost: your games")
	for _, id := range h.pmeta.Games {
		l := h.listed(id)
		if l == nil {
			if h.s.isDamaged(id) {
				d.games = append(d.games, d.tr("[bp-%d] cannot be shown: its stored record is damaged; the operator has been told", id))
			}
			continue
		}
		side := l.side(h.player.ID)
		if l.meta.Phase == phaseOpen {
			side = l.meta.Challenger // both seats are the challenger's until matched
		}
		if side < 0 {
			continue
		}
		name := displayName(l.seats[1-side])
		opp := name
		if l.meta.Phase == phaseOpen {
			opp = d.tr("anyone")
		} else if pr, err := h.standing(l.g.Seats[1-side].Player, poolOf(l.g.Variant, l.g.Ruleset)); err != nil {
			return err
		} else {
			opp += " (" + pr.value().String() + ")" // their rating in the game's pool
		}
		var status string
		switch l.meta.Phase {
		case phaseChallenge:
			status = d.tr("challenge, waiting for an answer")
		case phaseOpen:
			status = d.tr("open challenge, waiting for an opponent")
		case phasePlay:
			if int(l.state.ToMove()) == side {
				status = d.tr("YOUR MOVE (%s), deadline %s", rules.MoveLabel(l.state.Ply()), h.clocks.deadlineIn(l, h.pmeta, d.lang))
			} else {
				status = d.tr("waiting for %s", name)
			}
		default:
			status = endedIn(l, d.lang)
		}
		d.games = append(d.games, d.tr("[bp-%d] %s v %s as %s: %s", id, l.v.Name(), opp, l.sidesIn(d.lang)[side], status))
	}
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
		g.Match = openMatch(g.Variant, g.Ruleset, m.Time, m.Casual)
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
