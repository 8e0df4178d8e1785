package game

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/store"
)

// seatToken is the reply token of a player's seat in a game: the first 128 bits of
// HMAC-SHA256(seat key, game id ‖ side ‖ player id), in lowercase base 32 (26 letters and
// digits 2–7, never the digit 1 that starts a personal token). The seat key is derived
// from the store's master key, so the token is computed whenever a mail needs it and never
// stored: the store keeps only its keyed hash (store.Tx.PutToken), and a copy of the
// database without the key does not let anyone act for a player.
func (s *Service) seatToken(game uint64, side int, player uint64) string {
	m := hmac.New(sha256.New, s.seatKey)
	var b [17]byte
	binary.BigEndian.PutUint64(b[:8], game)
	b[8] = byte(side)
	binary.BigEndian.PutUint64(b[9:], player)
	m.Write(b[:])
	return strings.ToLower(tokenEncoding.EncodeToString(m.Sum(nil)[:16]))
}

// settingTokensForgotten marks a database whose games no longer hold their seat tokens.
const settingTokensForgotten = "game.seat-tokens-forgotten"

// forgetSeatTokens rewrites, once per database, the service data of games written before
// seat tokens were derived: it registers the derived token of each seat, so that mail
// from now on carries it, and drops the old token from the game's data, which the store
// keeps in the clear. The old token keeps working: the store's migration to schema 4 kept
// its keyed hash (store schema 4). Old tokens may stay in the file's free pages until they are reused;
// a compacted copy has none.
func (s *Service) forgetSeatTokens() error {
	var done []byte
	if err := s.st.View(func(tx *store.Tx) error {
		var err error
		done, err = tx.Setting(settingTokensForgotten)
		return err
	}); err != nil || done != nil {
		return err
	}
	return s.st.Update(func(tx *store.Tx) error {
		active, err := tx.Games()
		if err != nil {
			return err
		}
		archived, err := tx.ArchivedGames()
		if err != nil {
			return err
		}
		n := 0
		for _, id := range append(active, archived...) {
			g, err := tx.Game(id)
			if err != nil {
				s.log.Error("seat tokens: game skipped: it cannot be read", "game", id, "err", err)
				continue
			}
			m, err := decodeGameMeta(g)
			if err != nil || m.OldTokens == [2]string{} {
				continue
			}
			for side, tok := range m.OldTokens {
				if tok == "" {
					continue
				}
				seat := g.Seats[side]
				if err := tx.PutToken(s.seatToken(id, side, seat.Player), store.TokenRef{Game: id, Player: seat.Player, Side: store.Side(side)}); err != nil {
					return fmt.Errorf("game: seat token of game %d: %w", id, err)
				}
			}
			m.OldTokens = [2]string{}
			if err := tx.PutMeta(id, m.encode()); err != nil {
				return err
			}
			n++
		}
		if n > 0 {
			s.log.Info("seat tokens dropped from the games' data; only their keyed hashes are stored", "games", n)
		}
		return tx.PutSetting(settingTokensForgotten, []byte("1"))
	})
}
