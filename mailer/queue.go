package mailer

import "time"

// Queued is one mail waiting in the outbox.
type Queued struct {
	ID       uint64
	From     string    // envelope sender
	To       []string  // envelope recipients
	Data     []byte    // the whole RFC 5322 message, with a fixed Message-ID
	Attempts int       // delivery attempts counted so far
	NextTry  time.Time // when it became due (the zero time: at once)
}

// Attempt is what the outbox records of one mail's delivery attempts.
type Attempt struct {
	ID       uint64
	Attempts int       // attempts counted, the one under way included
	Reason   string    // why the last attempt failed; "" keeps the reason recorded
	Next     time.Time // not before; the zero time is at once
}

// Queue is the outbox's storage as the Outbox drainer sees it: the mails
// due, and what happened to them. The daemon backs it with the store
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
	// Record writes what the outbox says of mails' attempts, all in one
	// commit: before a session sends them, each mail's attempt counted and
	// its next try set as if the attempt failed, so that a crash in the
	// middle of the sending still counts it (as mox's queue does); after,
	// a failed attempt's reason and next try, and for the mails a broken
	// session never reached, the count and next try they had. An id no
	// longer queued is no error (the mail has left).
	Record(as []Attempt) error
}
