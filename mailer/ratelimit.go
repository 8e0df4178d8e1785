package mailer

import (
	"container/list"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
)

// RateLimit configures a RateLimiter.
type RateLimit struct {
	// Burst is how many replies a sender may get at once (at least 1).
	Burst int
	// Every is how often one more reply is allowed once the burst is
	// spent (positive).
	Every time.Duration
	// Senders bounds how many senders are remembered (at least 1); when
	// more are active, the least recently seen is forgotten.
	Senders int
}

// RateLimiter limits replies per sender with a token bucket per normalised
// address (case-insensitive): Burst replies at once, then one per Every.
// It is safe for concurrent use.
//
// Memory is bounded: a sender whose bucket has refilled is the same as a
// sender never seen, so it is dropped when found at the old end of the
// recency list, and at most Senders senders are kept, the least recently
// seen forgotten first (forgetting a sender only lets it be answered
// sooner).
//
// A clock set back (a clock that ran fast corrected) changes nothing: the
// limiter's own time never goes back (see clock), so every bucket stands
// where it stood, and the time of the step is neither charged nor given.
type RateLimiter struct {
	cfg RateLimit
	now func() time.Time

	mu      sync.Mutex
	senders map[string]*list.Element // of *senderState
	recency *list.List               // front: most recently seen
	last    time.Time                // the latest time of the limiter's own (clock)
	behind  time.Duration            // how far the clock was set back in all, added to it
}

// senderState is one sender's bucket in GCRA form: full is when the bucket
// will be full again; a reply is allowed while full is no later than
// now + (Burst-1)*Every. noticed is when a refusal last carried
// Verdict.Notice (zero: never).
type senderState struct {
	key     string
	full    time.Time
	noticed time.Time
}

// Verdict is a RateLimiter's answer for one reply (Take).
type Verdict struct {
	// OK: the reply may be sent now; it was counted.
	OK bool
	// Notice, when not OK: the first refusal in a window (Burst × Every,
	// an hour for replies_per_hour), so that the sender may be told once
	// that replies are paused, however often they write (that notice is
	// not counted).
	Notice bool
	// Resume, when not OK: when the next reply will be allowed.
	Resume time.Time
}

// NewRateLimiter returns a limiter for cfg reading the clock now (nil:
// time.Now).
func NewRateLimiter(cfg RateLimit, now func() time.Time) (*RateLimiter, error) {
	switch {
	case cfg.Burst < 1:
		return nil, fmt.Errorf("mailer: rate limit: burst %d, want at least 1", cfg.Burst)
	case cfg.Every <= 0:
		return nil, fmt.Errorf("mailer: rate limit: interval %v, want a positive one", cfg.Every)
	case cfg.Senders < 1:
		return nil, fmt.Errorf("mailer: rate limit: %d senders, want at least 1", cfg.Senders)
	case int64(cfg.Every) > math.MaxInt64/int64(cfg.Burst):
		return nil, fmt.Errorf("mailer: rate limit: burst %d × %v is too long", cfg.Burst, cfg.Every)
	}
	if now == nil {
		now = time.Now
	}
	return &RateLimiter{
		cfg:     cfg,
		now:     now,
		senders: make(map[string]*list.Element),
		recency: list.New(),
	}, nil
}

// Allow reports whether a reply to addr may be sent now, and if so counts
// it.
func (l *RateLimiter) Allow(addr string) bool { return l.Take(addr).OK }

// Take is Allow that also says, for a refusal, when replies resume and
// whether it is the first refusal of its window (Verdict.Notice).
func (l *RateLimiter) Take(addr string) Verdict {
	key := mailfmt.Key(addr)
	if key == "" {
		key = strings.ToLower(strings.TrimSpace(addr))
	}
	window := time.Duration(l.cfg.Burst) * l.cfg.Every

	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock()
	l.evictRefilled(now)

	var s *senderState
	if e, ok := l.senders[key]; ok {
		s = e.Value.(*senderState)
		l.recency.MoveToFront(e)
	} else {
		for l.recency.Len() >= l.cfg.Senders {
			l.remove(l.recency.Back())
		}
		s = &senderState{key: key, full: now}
		l.senders[key] = l.recency.PushFront(s)
	}

	full := s.full
	if full.Before(now) {
		full = now
	}
	if full.Sub(now) > window-l.cfg.Every {
		s.full = full
		v := Verdict{Resume: full.Add(l.cfg.Every - window)}
		// Once a window; a notice dated after now (the clock went back) is
		// no reason for silence.
		if s.noticed.IsZero() || now.Sub(s.noticed) >= window || s.noticed.After(now) {
			v.Notice, s.noticed = true, now
		}
		return v
	}
	s.full = full.Add(l.cfg.Every)
	return Verdict{OK: true}
}

// clock is the limiter's time: the clock's, plus however far it was set
// back in all, so that it never goes back. A clock set back by a day
// (whose reading has no monotonic part, as an injected one) would
// otherwise leave every bucket a day from full, and refuse the next reply
// to every sender answered lately. Called with mu held.
func (l *RateLimiter) clock() time.Time {
	now := l.now().Add(l.behind)
	if now.Before(l.last) {
		l.behind += l.last.Sub(now)
		now = l.last
	}
	l.last = now
	return now
}

// evictRefilled drops senders at the old end of the recency list whose
// buckets are full again.
func (l *RateLimiter) evictRefilled(now time.Time) {
	for e := l.recency.Back(); e != nil; e = l.recency.Back() {
		if e.Value.(*senderState).full.After(now) {
			return
		}
		l.remove(e)
	}
}

func (l *RateLimiter) remove(e *list.Element) {
	delete(l.senders, e.Value.(*senderState).key)
	l.recency.Remove(e)
}
