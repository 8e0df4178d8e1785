package mailer

import "time"

// Queued is one mail waiting in the outbox.
type Queued struct {
	ID       uint64
	From     string   // envelope sender
	To       []string // envelope recipients
	Data     []byte   // the whole RFC 5322 message, with a fixed Message-ID
	Attempts int      // failed delivery attempts so far
}

// Queue is the outbox's storage as the Outbox drainer sees it: the mails
// due, and the two verdicts on a mail. The daemon backs it with the store
// (package mailer knows nothing of the store); a mail leaves the queue only
// through MarkSent, after the server accepted it.
type Queue interface {
	// Due lists up to max mails due at now, oldest first.
	Due(now time.Time, max int) ([]Queued, error)
	// MarkSent removes accepted mails, all in one commit. Several sessions
	// call it at once. An id no longer queued is no error (the mail has
	// left): the Outbox retries the marks of a commit that reported failure
	// (see Outbox.unmarked), and must not be stuck on one that landed.
	MarkSent(ids []uint64) error
	// MarkFailed counts a failed attempt, keeps the reason and sets when to
	// try again.
	MarkFailed(id uint64, reason string, next time.Time) error
}
