package store

// The games in play and in the archive: create, read, write, list, archive.

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

func stateContext(game uint64) sealContext {
	return sealContext{purpose: "state", game: game, side: sideNone}
}

// CreateGame stores a new game and sets g.ID, g.Records (0) and g.Head (the chain's start).
// Both seats must name stored players.
func (tx *Tx) CreateGame(g *Game) error {
	if err := tx.checkGame(g); err != nil {
		return err
	}
	games := tx.bucket(bucketGames)
	id, err := tx.nextID(games)
	if err != nil {
		return err
	}
	g.ID, g.Records, g.Head, g.Archived = id, 0, ChainStart(id), false
	if err := tx.writeGame(g, games); err != nil {
		return err
	}
	if err := tx.indexMatch(id, "", g.Match); err != nil {
		return err
	}
	return tx.indexDeadlines(id, nil, g.Deadlines)
}

func (tx *Tx) checkGame(g *Game) error {
	for side, seat := range g.Seats {
		if _, err := tx.Player(seat.Player); err != nil {
			return fmt.Errorf("store: game seat %s: %w", Side(side), err)
		}
	}
	for _, dl := range g.Deadlines {
		if err := validDeadline(dl); err != nil {
			return err
		}
	}
	return validMatch(g)
}

// writeGame seals the state of a hidden game and writes the game record.
func (tx *Tx) writeGame(g *Game, b *bolt.Bucket) error {
	state := g.State
	if g.Hidden {
		var err error
		if state, err = tx.s.vault.seal(stateContext(g.ID), g.State); err != nil {
			return err
		}
	}
	return tx.put(b, be64(g.ID), encodeGame(g, state))
}

// rawGame reads a game record as stored (state still sealed).
func (tx *Tx) rawGame(id uint64) (*Game, error) {
	tx.game = id
	tx.s.counts.gamesRead.Add(1)
	v := tx.bucket(bucketGames).Get(be64(id))
	archived := false
	if v == nil {
		if v = tx.bucket(bucketArchive).Get(be64(id)); v == nil {
			return nil, fmt.Errorf("store: game %d: %w", id, ErrNotFound)
		}
		archived = true
	}
	g, err := decodeGame(v)
	if err != nil {
		return nil, fmt.Errorf("store: game %d: %w", id, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("store: game %d holds the record of game %d: %w", id, g.ID, ErrTampered)
	}
	g.Archived = archived
	return g, nil
}

// Game loads a game, active or archived, with its state opened from the vault.
func (tx *Tx) Game(id uint64) (*Game, error) {
	g, err := tx.rawGame(id)
	if err != nil {
		return nil, err
	}
	if g.Hidden {
		if g.State, err = tx.s.vault.open(stateContext(id), g.State); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// liveGame reads the stored game for a change: it must not be archived, and g must be
// up to date with the log.
func (tx *Tx) liveGame(g *Game) (*Game, error) {
	old, err := tx.rawGame(g.ID)
	if err != nil {
		return nil, err
	}
	if old.Archived {
		return nil, fmt.Errorf("store: game %d: %w", g.ID, ErrArchived)
	}
	if old.Records != g.Records || old.Head != g.Head {
		return nil, fmt.Errorf("store: game %d changed since it was loaded (log has %d records, the value %d); load it again: %w",
			g.ID, old.Records, g.Records, ErrConflict)
	}
	return old, nil
}

// PutGame replaces a game's stored record with g (state, status, deadlines, match key, …)
// and keeps the deadline and match indexes in step. g must have been loaded in, or updated by Append in, this
// transaction's view of the log (else ErrConflict); Hidden cannot change.
func (tx *Tx) PutGame(g *Game) error {
	old, err := tx.liveGame(g)
	if err != nil {
		return err
	}
	if old.Hidden != g.Hidden {
		return fmt.Errorf("store: game %d: the hidden-information flag cannot change: %w", g.ID, ErrInvalid)
	}
	if err := tx.checkGame(g); err != nil {
		return err
	}
	if err := tx.writeGame(g, tx.bucket(bucketGames)); err != nil {
		return err
	}
	if err := tx.indexMatch(g.ID, old.Match, g.Match); err != nil {
		return err
	}
	return tx.indexDeadlines(g.ID, old.Deadlines, g.Deadlines)
}

func (tx *Tx) indexDeadlines(game uint64, old, new []Deadline) error {
	b := tx.bucket(bucketDeadlines)
	for _, dl := range old {
		if err := tx.del(b, deadlineKey(game, dl)); err != nil {
			return err
		}
	}
	for _, dl := range new {
		if err := tx.put(b, deadlineKey(game, dl), nil); err != nil {
			return err
		}
	}
	return nil
}

// Games returns the ids of the games that are not archived, in creation order. It reads
// the keys of every such game: for maintenance and tests, not for each request (Matching
// and DueDeadlines find games without reading the others).
func (tx *Tx) Games() ([]uint64, error) {
	var ids []uint64
	err := tx.bucket(bucketGames).ForEach(func(k, _ []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: games bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k))
		return nil
	})
	return ids, err
}

// ArchivedGames returns the ids of the archived games, in creation order. It reads the key
// of every archived game: for maintenance, such as a one-time rewrite of the service's data.
func (tx *Tx) ArchivedGames() ([]uint64, error) {
	var ids []uint64
	err := tx.bucket(bucketArchive).ForEach(func(k, _ []byte) error {
		if len(k) != 8 {
			return fmt.Errorf("store: archive bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k))
		return nil
	})
	return ids, err
}

// PutMeta replaces the service data (Game.Meta) of a game, active or archived, and nothing
// else. It is how the service rewrites its own data of games that PutGame no longer takes
// (archived ones), e.g. to drop a value it must no longer keep.
func (tx *Tx) PutMeta(id uint64, meta []byte) error {
	g, err := tx.rawGame(id)
	if err != nil {
		return err
	}
	g.Meta = meta
	b := tx.bucket(bucketGames)
	if g.Archived {
		b = tx.bucket(bucketArchive)
	}
	return tx.put(b, be64(id), encodeGame(g, g.State))
}

// Archive moves a game that is no longer active to the archive and drops its deadlines, its
// match key and both sides' conditional moves. Its log, tokens and players stay; Game still loads it (with Archived set).
func (tx *Tx) Archive(id uint64) error {
	g, err := tx.rawGame(id)
	if err != nil {
		return err
	}
	if g.Archived {
		return fmt.Errorf("store: game %d: %w", id, ErrArchived)
	}
	if g.Status == StatusActive {
		return fmt.Errorf("store: game %d is still active; finish or abort it before archiving: %w", id, ErrInvalid)
	}
	if err := tx.indexDeadlines(id, g.Deadlines, nil); err != nil {
		return err
	}
	if err := tx.indexMatch(id, g.Match, ""); err != nil {
		return err
	}
	if err := tx.dropConditionals(id); err != nil {
		return err
	}
	g.Deadlines, g.Match = nil, ""
	if err := tx.del(tx.bucket(bucketGames), be64(id)); err != nil {
		return err
	}
	// The state stays sealed as it was: encode the raw record.
	archive := tx.bucket(bucketArchive)
	archive.FillPercent = 0.95 // ids only grow
	return tx.put(archive, be64(id), encodeGame(g, g.State))
}
