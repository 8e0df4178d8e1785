package store

import (
	"fmt"
	"time"
)

// RecordAttempt sets what the outbox knows of a queued mail's delivery
// attempts: how many were made (the one under way included), the reason
// the last one failed ("" keeps the reason recorded) and when to try again
// (the zero time: at once). The outbox records an attempt before it sends
// the mail, so that a crash during the sending still counts it, and the
// verdict after.
func (tx *Tx) RecordAttempt(id uint64, attempts uint32, reason string, nextTry time.Time) error {
	b := tx.bucket(bucketOutbox)
	v := b.Get(be64(id))
	if v == nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, ErrNotFound)
	}
	m, err := decodeMail(v)
	if err != nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, err)
	}
	m.Attempts = attempts
	if reason != "" {
		m.LastError = reason
	}
	m.NextTry = time.Time{}
	if !nextTry.IsZero() {
		m.NextTry = nextTry.UTC()
	}
	return tx.put(b, be64(id), encodeMail(m))
}
