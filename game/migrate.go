package game

import (
	"encoding/json"
	"errors"
	"fmt"
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

// settingWelcomesFrom is the UTC day (2006-01-02) this program first ran on a database:
// from then on the store counts the welcomes (store.Tx.CountWelcome, store schema 5).
// Older versions marked each as a processed message id "welcome:ADDRESS:DAY:N", N from 0 a
// slot per welcome of the day; the store cannot tell those from the ids of processed mail,
// so they stay there (and are pruned with them), and on that day the limit counts both.
const settingWelcomesFrom = "game.welcomes-counted-from"

// welcomesCountedFrom reads the day from which the store counts the welcomes, recording
// today's on a database's first start.
func (s *Service) welcomesCountedFrom() (string, error) {
	var day []byte
	if err := s.st.View(func(tx *store.Tx) error {
		var err error
		day, err = tx.Setting(settingWelcomesFrom)
		return err
	}); err != nil || day != nil {
		return string(day), err
	}
	day = []byte(s.now().UTC().Format("2006-01-02"))
	return string(day), s.st.Update(func(tx *store.Tx) error { return tx.PutSetting(settingWelcomesFrom, day) })
}

// legacyWelcomes is how many welcomes an older version marked for addr on day as
// processed ids: none for a day after the one the store began counting them on (from).
func legacyWelcomes(tx *store.Tx, addr, day, from string) (int, error) {
	if day > from {
		return 0, nil
	}
	n := 0
	for ; n < WelcomesPerDay; n++ {
		marked, err := tx.Processed(fmt.Sprintf("welcome:%s:%s:%d", addr, day, n))
		if err != nil || !marked {
			return n, err
		}
	}
	return n, nil
}
