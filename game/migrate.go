package game

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"

	"github.com/bottlepost/bottlepost/store"
)

// settingDigests is the setting in which older versions kept every digest
// schedule; moveDigests moves them to the players.
const settingDigests = "digests"

// moveDigests moves the digest schedules an older version kept in one
// setting to the players' service data and deadlines, and deletes the
// setting: once, after an upgrade.
func (h *handling) moveDigests() error {
	b, err := h.tx.Setting(settingDigests)
	if err != nil || b == nil {
		return err
	}
	m := map[string]*digestEntry{}
	if err := json.Unmarshal(b, &m); err != nil {
		// Unreadable, they would stop every tick before its heartbeat: the players
		// set their digests again.
		h.s.log.Error("digest schedules of an older version dropped: unreadable", "err", err)
		return h.tx.PutSetting(settingDigests, nil)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := m[k]
		id, err := strconv.ParseUint(k, 10, 64)
		if err != nil || e == nil {
			continue
		}
		p, err := h.tx.Player(id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		pm := decodePlayerMeta(p)
		pm.Digest = &digestSchedule{Spec: e.Spec, LastDay: e.LastDay}
		p.Due = e.Next.UTC()
		if y := p.Due.Year(); y < 1970 || y > 9999 {
			p.Due = h.now // due at once: the tick computes the next one from the schedule
		}
		p.Meta = pm.encode()
		if err := h.tx.PutPlayer(p); err != nil {
			return err
		}
		if h.player != nil && h.player.ID == id {
			h.player, h.pmeta = p, pm // the sender's copy must not undo it
		}
	}
	h.s.log.Info("digest schedules moved to the players", "players", len(keys))
	return h.tx.PutSetting(settingDigests, nil)
}
