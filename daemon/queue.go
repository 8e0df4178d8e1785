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
		out[i] = mailer.Queued{ID: m.ID, From: m.From, To: m.To, Data: m.Data, Attempts: int(m.Attempts), NextTry: m.NextTry}
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

// Record writes the outbox's account of attempts in one transaction,
// committed together with the other sessions' (store.Batch); an id no
// longer queued is skipped (see mailer.Queue).
func (q storeQueue) Record(as []mailer.Attempt) error {
	return q.st.Batch(func(tx *store.Tx) error {
		for _, a := range as {
			if err := tx.RecordAttempt(a.ID, uint32(a.Attempts), a.Reason, a.Next); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err // a mail no longer queued has left: no error
			}
		}
		return nil
	})
}
