package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Tx is a transaction: the typed operations on the store. A Tx is valid only inside the
// function given to View, Update or Batch; values it returns are copies and stay valid.
// Write methods fail (with ErrReadOnly) in a View transaction. Its operations are in a file
// per part of the store: tx_games.go, tx_log.go, tx_players.go (players and reply tokens; tx_players_scan.go reads them all),
// tx_outbox.go, tx_processed.go (processed incoming mail, the welcomes counted),
// tx_deadlines.go, and the indexes, settings and conditional moves in files of their own.
type Tx struct {
	s  *Store
	tx *bolt.Tx
	// game is the game the transaction last read or wrote, so that a panic
	// of bbolt on a damaged page can be reported with the game it hit.
	game uint64
	// deferred are the jobs left to the commit (Defer); call is the running
	// function's place in its Batch group, finishing is set while the
	// finishes run.
	deferred  []*deferredJob
	call      int
	finishing bool
}

func (tx *Tx) bucket(name []byte) *bolt.Bucket { return tx.tx.Bucket(name) } // Open made them all

// put writes a value and classifies the failure.
func (tx *Tx) put(b *bolt.Bucket, k, v []byte) error {
	if err := b.Put(k, v); err != nil {
		return tx.writeError(err)
	}
	return nil
}

func (tx *Tx) del(b *bolt.Bucket, k []byte) error {
	if err := b.Delete(k); err != nil {
		return tx.writeError(err)
	}
	return nil
}

func (tx *Tx) nextID(b *bolt.Bucket) (uint64, error) {
	id, err := b.NextSequence()
	if err != nil {
		return 0, tx.writeError(err)
	}
	return id, nil
}

func (tx *Tx) writeError(err error) error {
	if !tx.tx.Writable() {
		return fmt.Errorf("store: write in a read-only transaction: %w", ErrReadOnly)
	}
	return fmt.Errorf("store: write: %w", err)
}
