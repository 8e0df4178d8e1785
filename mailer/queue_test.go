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
		out[i] = Queued{ID: m.ID, From: m.From, To: m.To, Data: m.Data, Attempts: int(m.Attempts)}
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

func (q boltQueue) MarkFailed(id uint64, reason string, next time.Time) error {
	return q.st.Update(func(tx *store.Tx) error { return tx.MarkFailed(id, reason, next) })
}
