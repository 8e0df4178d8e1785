package store

import "fmt"

// EachPlayer calls fn with every player, in id order, and stops at fn's first error, which
// it returns. It reads every player record: for lists of all players (the game service's
// rating pools, read once per request or per rebuild) and maintenance, not for finding one
// player (Player, PlayerByAddress). fn must not write players.
func (tx *Tx) EachPlayer(fn func(*Player) error) error {
	return tx.bucket(bucketPlayers).ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: players bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		p, err := decodePlayer(v)
		if err != nil {
			return fmt.Errorf("store: player %d: %w", beUint64(k), err)
		}
		return fn(p)
	})
}

// EachDecodedPlayer is EachPlayer for what must go on past one damaged player: the check
// of every player's service data (game.Check) and the rating lists a page or a mail shows.
// A player whose record does not decode is passed over (Verify names it, and check-store
// reports it), not the end of the walk.
func (tx *Tx) EachDecodedPlayer(fn func(*Player) error) error {
	return tx.bucket(bucketPlayers).ForEach(func(_, v []byte) error {
		if v == nil {
			return nil
		}
		p, err := decodePlayer(v)
		if err != nil {
			return nil
		}
		return fn(p)
	})
}
