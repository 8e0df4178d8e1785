package store

import "fmt"

// MaxPage is the most ids GameIDs returns at once.
const MaxPage = 1000

// GameIDs pages through the games' ids without reading the games: the
// active ones (archived false: the games bucket, games in play and
// challenges) or the archived ones. Ascending, it returns the ids after
// from; descending, the ids before from (from 0: from the newest). At most
// limit ids (at most MaxPage) are returned; fewer means the end was reached.
func (tx *Tx) GameIDs(archived bool, from uint64, descending bool, limit int) ([]uint64, error) {
	if limit <= 0 || limit > MaxPage {
		return nil, fmt.Errorf("store: page of %d games (want 1 to %d): %w", limit, MaxPage, ErrInvalid)
	}
	b := tx.bucket(bucketGames)
	if archived {
		b = tx.bucket(bucketArchive)
	}
	c := b.Cursor()
	var k []byte
	switch {
	case !descending:
		k, _ = c.Seek(be64(from + 1))
		if from == ^uint64(0) {
			k = nil
		}
	case from == 0:
		k, _ = c.Last()
	default:
		if k, _ = c.Seek(be64(from)); k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
	}
	var ids []uint64
	for ; k != nil && len(ids) < limit; k = step(c, descending) {
		if len(k) != 8 {
			return nil, fmt.Errorf("store: games bucket has a key %x that is not an id: %w", k, ErrCorrupt)
		}
		ids = append(ids, beUint64(k))
	}
	return ids, nil
}

// step moves a cursor one key on.
func step(c interface {
	Next() ([]byte, []byte)
	Prev() ([]byte, []byte)
}, back bool) []byte {
	if back {
		k, _ := c.Prev()
		return k
	}
	k, _ := c.Next()
	return k
}
