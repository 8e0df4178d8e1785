package daemon

import (
	"errors"
	"time"

	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/store"
)

// storeQueue is the store's outbox as mailer.Outbox sees it (mailer does not
// import store).
type storeQueue struct{ st *store.Store }

// Due lists the mails due at now, oldest first.
func (q storeQueue) Due(now time.Time, max int) ([]mailer.Queued, error) {
	var ms []store.Mail
	if err := q.st.View(func(tx *store.Tx) error {
		var err error
		ms, err = tx.PendingMail(now, max)
		return err
	}); err != nil {
		return nil, err
	}
	out := make([]mailer.Queued, len(ms))
	for i, m := range ms {
		out[i] = mailer.Queued{ID: m.ID, From: m.From, To: m.To, Data: m.Data, Attempts: int(m.Attempts)}
	}
	return out, nil
}

// MarkSent removes accepted mails in one transaction, committed together
// with the other sessions' (store.Batch); an id no longer queued is skipped
// (see mailer.Queue).
func (q storeQueue) MarkSent(ids []uint64) error {
	return q.st.Batch(func(tx *store.Tx) error {
		for _, id := range ids {
			if err := tx.MarkSent(id); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err // a mail no longer queued has left: no error
			}
		}
		return nil
	})
}

// MarkFailed records a failed attempt and the next try.
func (q storeQueue) MarkFailed(id uint64, reason string, next time.Time) error {
	return q.st.Update(func(tx *store.Tx) error { return tx.MarkFailed(id, reason, next) })
}
