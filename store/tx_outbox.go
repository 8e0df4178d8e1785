package store

// The outbox: mail queued in the transaction that causes it, until the server accepts it.

import (
	"fmt"
	"time"
)

func mailContext(m *Mail) sealContext {
	return sealContext{purpose: "mail", game: m.Game, index: m.ID, side: sideNone}
}

// Enqueue puts a mail in the outbox and sets m.ID. Commit it in the transaction that
// causes the mail. Its content is stored sealed: a mail may repeat a secret move to the
// side that made it.
func (tx *Tx) Enqueue(m *Mail) error {
	if len(m.To) == 0 || len(m.Data) == 0 {
		return fmt.Errorf("store: mail without recipients or content: %w", ErrInvalid)
	}
	b := tx.bucket(bucketOutbox)
	id, err := tx.nextID(b)
	if err != nil {
		return err
	}
	m.ID = id
	sealed := *m
	if sealed.Data, err = tx.s.vault.seal(mailContext(m), m.Data); err != nil {
		return err
	}
	return tx.put(b, be64(id), encodeMail(&sealed))
}

// PendingMail lists the mails due at now (NextTry zero or not after now), oldest first, at
// most limit of them (all if limit <= 0).
func (tx *Tx) PendingMail(now time.Time, limit int) ([]Mail, error) {
	var out []Mail
	c := tx.bucket(bucketOutbox).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		m, err := decodeMail(v)
		if err != nil {
			return nil, fmt.Errorf("store: outbox mail %x: %w", k, err)
		}
		if !m.NextTry.IsZero() && m.NextTry.After(now) {
			continue
		}
		if m.Data, err = tx.s.vault.open(mailContext(m), m.Data); err != nil {
			return nil, err
		}
		out = append(out, *m)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out, nil
}

// MarkSent removes a mail from the outbox. Call it only after the mail server accepted the
// message; if the process dies in between, the mail is sent again (with the same
// Message-ID), never lost.
func (tx *Tx) MarkSent(id uint64) error {
	b := tx.bucket(bucketOutbox)
	if b.Get(be64(id)) == nil {
		return fmt.Errorf("store: outbox mail %d: %w", id, ErrNotFound)
	}
	return tx.del(b, be64(id))
}
