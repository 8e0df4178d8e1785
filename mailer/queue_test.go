package mailer

import (
	"errors"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// boltQueue backs the Outbox tests' Queue with a real store, the way the
// daemon does (daemon.storeQueue; a test here cannot import the daemon).
type boltQueue struct{ st *store.Store }

func (q boltQueue) Due(now time.Time, max int) ([]Queued, error) {
	var ms []store.Mail
	if err := q.st.View(func(tx *store.Tx) error {
		var err error
		ms, err = tx.PendingMail(now, max)
		return err
	}); err != nil {
		return nil, err
	}
	out := make([]Queued, len(ms))
	for i, m := range ms {
		out[i] = Queued{ID: m.ID, From: m.From, To: m.To, Data: m.Data, Attempts: int(m.Attempts), NextTry: m.NextTry}
	}
	return out, nil
}

func (q boltQueue) MarkSent(ids []uint64) error {
	return q.st.Batch(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.MarkSent(id); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err // a mail no longer queued has left: no error
			}
		}
		return nil
	})
}

// Record writes the outbox's account of attempts in one transaction,
// committed together with the other sessions' (store.Batch); an id no
// longer queued is skipped (see mailer.Queue).
func (q boltQueue) Record(as []Attempt) error {
	return q.st.Batch(func(tx *store.Tx) error {
		for _, a := range as {
			if err := tx.RecordAttempt(a.ID, uint32(a.Attempts), a.Reason, a.Next); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err // a mail no longer queued has left: no error
			}
		}
		return nil
	})
}
