package mailer

import (
	"math/rand/v2"
	"time"
)

// backoff is the wait before trying again after failures in a row: first
// after the first failure, doubling with each further one up to ceiling,
// each wait shortened at random by up to a tenth (jitter), so that what
// failed together (the mails of one outage, the sources of one restarted
// server) does not come back all at once. The IMAP source's reconnections,
// probes and message retries, and the outbox's retries and server probes,
// all wait by it.
type backoff struct{ first, ceiling time.Duration }

// wait is the wait after the n-th failure in a row (n ≥ 1; below 1 counts
// as 1): first × 2^(n-1), at most ceiling, less its jitter. The full wait
// is the upper bound, so ceiling is never exceeded.
func (b backoff) wait(n int) time.Duration {
	d := min(b.first, b.ceiling)
	for i := 1; i < n && d < b.ceiling; i++ {
		d *= 2
	}
	d = min(d, b.ceiling)
	if d <= 0 {
		return 0
	}
	return d - rand.N(d/10+1)
}
