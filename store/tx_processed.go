package store

// The ids of incoming mail already processed, so that none is applied twice.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// processedKey is the first 16 bytes of SHA-256 of the Message-ID without its angle
// brackets: fixed size, whatever the sender chose.
func processedKey(msgID string) ([]byte, error) {
	id := strings.TrimSpace(msgID)
	id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">")
	if id == "" {
		return nil, fmt.Errorf("store: empty message id: %w", ErrInvalid)
	}
	sum := sha256.Sum256([]byte(id))
	return sum[:16], nil
}

// MarkProcessed records that the incoming message msgID was processed at at. If it was
// processed before it returns ErrDuplicate: return that from the transaction, so nothing
// of the mail is applied twice.
func (tx *Tx) MarkProcessed(msgID string, at time.Time) error {
	k, err := processedKey(msgID)
	if err != nil {
		return err
	}
	b := tx.bucket(bucketProcessed)
	if b.Get(k) != nil {
		return fmt.Errorf("store: message %s: %w", msgID, ErrDuplicate)
	}
	return tx.put(b, k, encodeProcessed(at))
}

// Processed reports whether the incoming message msgID was processed.
func (tx *Tx) Processed(msgID string) (bool, error) {
	k, err := processedKey(msgID)
	if err != nil {
		return false, err
	}
	return tx.bucket(bucketProcessed).Get(k) != nil, nil
}

// PruneProcessed forgets the message ids processed before before, and returns how many.
// Keep them longer than any mail can be delayed or redelivered.
func (tx *Tx) PruneProcessed(before time.Time) (int, error) {
	b := tx.bucket(bucketProcessed)
	var old [][]byte
	err := b.ForEach(func(k, v []byte) error {
		at, err := decodeProcessed(v)
		if err != nil {
			return err
		}
		if at.Before(before) {
			old = append(old, bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range old {
		if err := tx.del(b, k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}

// welcomeDayLayout is the day part of a welcomes key: the UTC day, so that keys sort by day.
const welcomeDayLayout = "20060102"

// welcomeKey is the welcomes bucket's key of addr on the UTC day of day: the day, then the
// address's keyed hash (vault.welcomeHash). The day is clear, so that old days are pruned
// in key order; who was welcomed is not.
func (tx *Tx) welcomeKey(addr string, day time.Time) []byte {
	return append(day.UTC().AppendFormat(nil, welcomeDayLayout), tx.s.vault.welcomeHash(mailfmt.Key(addr))...)
}

// Welcomes is how many welcomes (the game service's answer to mail it cannot act on) were
// counted for addr on the UTC day of day (CountWelcome).
func (tx *Tx) Welcomes(addr string, day time.Time) (int, error) {
	v := tx.bucket(bucketWelcomes).Get(tx.welcomeKey(addr, day))
	if v == nil {
		return 0, nil
	}
	n, err := decodeWelcomes(v)
	return int(n), err
}

// CountWelcome counts one more welcome for addr on the UTC day of day.
func (tx *Tx) CountWelcome(addr string, day time.Time) error {
	n, err := tx.Welcomes(addr, day)
	if err != nil {
		return err
	}
	return tx.put(tx.bucket(bucketWelcomes), tx.welcomeKey(addr, day), encodeWelcomes(uint64(n)+1))
}

// PruneWelcomes forgets the welcomes counted on the UTC days before that of before, and
// returns how many counts (an address on a day) it dropped.
func (tx *Tx) PruneWelcomes(before time.Time) (int, error) {
	b := tx.bucket(bucketWelcomes)
	end := before.UTC().AppendFormat(nil, welcomeDayLayout)
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k, end) < 0; k, _ = c.Next() {
		old = append(old, bytes.Clone(k))
	}
	for _, k := range old {
		if err := tx.del(b, k); err != nil {
			return 0, err
		}
	}
	return len(old), nil
}
