package game

// The game service's part of check-store: the values the store keeps for it unread.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// Check is the game service's part of a check of the whole database (bottlepost
// check-store, beside store.Store.Verify): it decodes what the store keeps for the service
// unread — every game's service data and rules state, as a move would load them, every
// player's service data, and every setting the service knows — and returns the problems
// found, joined, one a damaged value, naming the game, the player or the setting; each
// matches store.ErrCorrupt, and a game's is a *store.GameError. A record the store itself
// cannot read is passed over: Verify names it. It only reads: a store opened read-only
// will do.
func Check(ctx context.Context, st *store.Store) error {
	var errs []error
	err := st.View(func(tx *store.Tx) error {
		active, err := tx.Games()
		if err != nil {
			return err
		}
		archived, err := tx.ArchivedGames()
		if err != nil {
			return err
		}
		for _, id := range append(active, archived...) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := checkGame(tx, id); err != nil {
				errs = append(errs, err)
			}
		}
		if err := tx.EachDecodedPlayer(func(p *store.Player) error {
			if err := checkPlayer(p); err != nil {
				errs = append(errs, err)
			}
			return nil
		}); err != nil {
			return err
		}
		return tx.EachSetting(func(name string, v []byte) error {
			if err := checkSetting(name, v); err != nil {
				errs = append(errs, fmt.Errorf("game: setting %q: %w (%w)", name, err, store.ErrCorrupt))
			}
			return nil
		})
	})
	if err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// checkGame decodes game id's service data and state as load does. A game the store cannot
// read (a damaged record or page) is the store's to name: nil.
func checkGame(tx *store.Tx, id uint64) (err error) {
	defer func() {
		if recover() != nil {
			err = nil // a damaged page: Verify names it
		}
	}()
	g, err := tx.Game(id)
	if err != nil {
		return nil
	}
	damaged := func(what string, err error) error {
		return &store.GameError{Game: id, Err: fmt.Errorf("its %s does not decode: %w (%w)", what, err, store.ErrCorrupt)}
	}
	if _, err := decodeGameMeta(g); err != nil {
		return damaged("service data", err)
	}
	v, err := variants.Lookup(g.Variant)
	if err != nil {
		return damaged("variant", err)
	}
	if _, err := v.Unmarshal(g.State); err != nil {
		return damaged("state", err)
	}
	return nil
}

// checkPlayer decodes a player's service data, strictly (decodePlayerMeta starts afresh
// from damaged data, so that a move is never refused for it).
func checkPlayer(p *store.Player) error {
	if len(p.Meta) == 0 {
		return nil
	}
	m := &playerMeta{}
	err := json.Unmarshal(p.Meta, m)
	if err == nil && m.TZ != "" {
		_, err = time.LoadLocation(m.TZ)
	}
	if err != nil {
		return fmt.Errorf("game: player %d: its service data does not decode: %w (%w)", p.ID, err, store.ErrCorrupt)
	}
	return nil
}

// checkSetting decodes a setting the service knows as its reader does; a name it does not
// know (a later version's) passes.
func checkSetting(name string, v []byte) error {
	switch {
	case name == settingHeartbeat:
		var t time.Time
		return t.UnmarshalText(v)
	case name == settingOutages:
		var o []Outage
		return json.Unmarshal(v, &o)
	case name == settingClockBack:
		var b clockBack
		return json.Unmarshal(v, &b)
	case name == settingDigests:
		m := map[string]*digestEntry{}
		return json.Unmarshal(v, &m)
	case name == settingWelcomesFrom:
		_, err := time.Parse("2006-01-02", string(v))
		return err
	case name == settingRatingSeq:
		if len(v) != 8 {
			return fmt.Errorf("a rating sequence number of %d bytes, not 8", len(v))
		}
	case strings.HasPrefix(name, strangersPrefix):
		if _, err := time.Parse("20060102", name[len(strangersPrefix):]); err != nil {
			return err
		}
		_, err := strconv.Atoi(string(v))
		return err
	case strings.HasPrefix(name, heldPrefix), strings.HasPrefix(name, saidPrefix), strings.HasPrefix(name, movingPrefix):
		if len(v) < chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead {
			return fmt.Errorf("a sealed value of %d bytes is too short", len(v))
		}
	case strings.HasPrefix(name, movedPrefix):
		var m moved
		return json.Unmarshal(v, &m)
	}
	return nil
}
