package store

// The deadline index of the games in play, read earliest first.

import (
	"bytes"
	"time"
)

// DueDeadlines lists the deadlines at or before before, earliest first, at most limit (all
// if limit <= 0). A game's deadlines change with PutGame.
func (tx *Tx) DueDeadlines(before time.Time, limit int) ([]Due, error) {
	end := before.UTC().AppendFormat(nil, deadlineTimeLayout)
	var out []Due
	c := tx.bucket(bucketDeadlines).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) < len(end) || bytes.Compare(k[:len(end)], end) > 0 {
			break
		}
		d, err := decodeDeadlineKey(k)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}
