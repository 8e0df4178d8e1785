package store

import (
	"bytes"
	"fmt"
)

// Conditional moves ("if my opponent plays X, play Y for me") are a side's private intent:
// the game service keeps each side's pending lines of a game as one opaque value, sealed
// in the vault like a secret move (purpose "conditional", bound to the game and the side),
// in the bucket conditionals under game id ‖ side. Archive deletes a game's values with the
// game's end; Verify checks that each belongs to a game in play and opens.

// maxConditional bounds one side's conditional value: a bounded number of short lines.
const maxConditional = 64 << 10

// conditionalFormat is the first byte of a stored conditional value.
const conditionalFormat = 1

func conditionalKey(game uint64, side Side) []byte { return append(be64(game), byte(side)) }

func conditionalContext(game uint64, side Side) sealContext {
	return sealContext{purpose: "conditional", game: game, side: uint8(side)}
}

// Conditionals returns side's pending conditional moves in game as the game service stored
// them (opened from the vault), or nil when there are none.
func (tx *Tx) Conditionals(game uint64, side Side) ([]byte, error) {
	tx.game = game
	if !side.valid() {
		return nil, fmt.Errorf("store: conditional moves of side %d: %w", side, ErrInvalid)
	}
	v := tx.bucket(bucketConditionals).Get(conditionalKey(game, side))
	if v == nil {
		return nil, nil
	}
	return tx.openConditional(game, side, v)
}

func (tx *Tx) openConditional(game uint64, side Side, v []byte) ([]byte, error) {
	if len(v) < 1 || v[0] != conditionalFormat {
		return nil, fmt.Errorf("store: game %d: conditional moves of %s have an unknown format: %w", game, side, ErrCorrupt)
	}
	return tx.s.vault.open(conditionalContext(game, side), v[1:])
}

// PutConditionals stores side's pending conditional moves in game, sealed; an empty value
// deletes them. The game must be in play (not archived, status active).
func (tx *Tx) PutConditionals(game uint64, side Side, value []byte) error {
	tx.game = game
	if !side.valid() {
		return fmt.Errorf("store: conditional moves of side %d: %w", side, ErrInvalid)
	}
	b := tx.bucket(bucketConditionals)
	key := conditionalKey(game, side)
	if len(value) == 0 {
		if b.Get(key) == nil {
			return nil
		}
		return tx.del(b, key)
	}
	if len(value) > maxConditional {
		return fmt.Errorf("store: game %d: conditional moves of %s are %d bytes, more than %d: %w", game, side, len(value), maxConditional, ErrInvalid)
	}
	g, err := tx.rawGame(game)
	if err != nil {
		return err
	}
	if g.Archived || g.Status != StatusActive {
		return fmt.Errorf("store: game %d is %s: it takes no conditional moves: %w", game, g.Status, ErrInvalid)
	}
	sealed, err := tx.s.vault.seal(conditionalContext(game, side), value)
	if err != nil {
		return err
	}
	return tx.put(b, key, append([]byte{conditionalFormat}, sealed...))
}

// dropConditionals deletes both sides' conditional moves of a game.
func (tx *Tx) dropConditionals(game uint64) error {
	for side := White; side <= Black; side++ {
		if err := tx.PutConditionals(game, side, nil); err != nil {
			return err
		}
	}
	return nil
}

// verifyConditionals checks every stored conditional value: its key names a side of a
// game in play, and it opens.
func (tx *Tx) verifyConditionals() []error {
	var errs []error
	err := tx.bucket(bucketConditionals).ForEach(func(k, v []byte) error {
		if len(k) != 9 || !Side(k[8]).valid() {
			errs = append(errs, fmt.Errorf("store: the conditionals bucket has a key %x that is not game ‖ side: %w", k, ErrCorrupt))
			return nil
		}
		game, side := beUint64(k[:8]), Side(k[8])
		g, err := tx.rawGame(game)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("store: conditional moves of %s for game %d: %w", side, game, err))
			return nil
		case g.Archived || g.Status != StatusActive:
			errs = append(errs, fmt.Errorf("store: game %d is %s but still holds conditional moves of %s: %w", game, g.Status, side, ErrCorrupt))
			return nil
		}
		if _, err := tx.openConditional(game, side, bytes.Clone(v)); err != nil {
			errs = append(errs, err)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("store: conditionals: %w", err))
	}
	return errs
}
