package mailer

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable clock for RateLimiter tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTestLimiter(t *testing.T, cfg RateLimit) (*RateLimiter, *fakeClock) {
	t.Helper()
	clock := &fakeClock{t: time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC)}
	l, err := NewRateLimiter(cfg, clock.now)
	if err != nil {
		t.Fatal(err)
	}
	return l, clock
}

func TestRateLimiterBucket(t *testing.T) {
	l, clock := newTestLimiter(t, RateLimit{Burst: 3, Every: time.Minute, Senders: 100})
	const alice = "alice@example.org"
	steps := []struct {
		advance time.Duration
		addr    string
		want    bool
	}{
		{0, alice, true},
		{0, alice, true},
		{0, "Alice@EXAMPLE.org", true}, // the same sender
		{0, alice, false},              // burst spent
		{0, "bob@example.org", true},   // others are not affected
		{59 * time.Second, alice, false},
		{time.Second, alice, true}, // one token back after a minute
		{0, alice, false},
		{10 * time.Minute, alice, true}, // full again: three at once
		{0, alice, true},
		{0, alice, true},
		{0, alice, false},
	}
	for i, s := range steps {
		clock.advance(s.advance)
		if got := l.Allow(s.addr); got != s.want {
			t.Fatalf("step %d (%s after %v): Allow = %v, want %v", i, s.addr, s.advance, got, s.want)
		}
	}
}

func TestRateLimiterDeniedCallsDoNotCount(t *testing.T) {
	l, clock := newTestLimiter(t, RateLimit{Burst: 1, Every: time.Minute, Senders: 10})
	l.Allow("a@example.org")
	for i := 0; i < 10; i++ {
		clock.advance(5 * time.Second)
		if l.Allow("a@example.org") {
			t.Fatalf("allowed after %d denied calls", i)
		}
	}
	clock.advance(10 * time.Second) // a minute after the first reply
	if !l.Allow("a@example.org") {
		t.Error("denied calls pushed the next reply back")
	}
}

func TestRateLimiterEvictsRefilled(t *testing.T) {
	l, clock := newTestLimiter(t, RateLimit{Burst: 2, Every: time.Minute, Senders: 1000})
	for i := 0; i < 50; i++ {
		l.Allow(fmt.Sprintf("p%d@example.org", i))
	}
	if got := l.Len(); got != 50 {
		t.Fatalf("Len = %d, want 50", got)
	}
	clock.advance(time.Minute) // every bucket (one token spent) is full again
	l.Allow("new@example.org")
	if got := l.Len(); got != 1 {
		t.Errorf("Len after refill = %d, want 1", got)
	}
}

func TestRateLimiterSendersCap(t *testing.T) {
	l, _ := newTestLimiter(t, RateLimit{Burst: 1, Every: time.Hour, Senders: 2})
	l.Allow("a@example.org")
	l.Allow("b@example.org")
	l.Allow("c@example.org") // forgets a, the least recently seen
	if got := l.Len(); got != 2 {
		t.Fatalf("Len = %d, want 2", got)
	}
	if l.Allow("c@example.org") {
		t.Error("c, remembered, was allowed twice")
	}
	if !l.Allow("a@example.org") {
		t.Error("a, forgotten, was refused")
	}
}

func TestRateLimiterClockGoesBack(t *testing.T) {
	l, clock := newTestLimiter(t, RateLimit{Burst: 2, Every: time.Minute, Senders: 10})
	l.Allow("a@example.org")
	l.Allow("a@example.org")
	clock.advance(-24 * time.Hour)
	if l.Allow("a@example.org") {
		t.Error("allowed right after the clock went back")
	}
	clock.advance(time.Minute)
	if !l.Allow("a@example.org") {
		t.Error("still refused one interval after the clock went back")
	}
}

// TestRateLimiterClockSetBack: a clock set back (a day, as when a clock
// that ran a day fast is corrected; a minute) takes no reply from a sender
// with replies left, and gives none back to one without: the buckets go on
// from where they stood. Before, a sender answered within the last hour
// was refused the next reply after a day's step back, whatever was left.
func TestRateLimiterClockSetBack(t *testing.T) {
	tests := []struct {
		name    string
		back    time.Duration
		replies int // replies the sender got before the step (of a burst of 3)
		want    []bool
	}{
		{"a day back, one reply used", 24 * time.Hour, 1, []bool{true, true, false}},
		{"a day back, none left", 24 * time.Hour, 3, []bool{false}},
		{"a minute back, one reply used", time.Minute, 1, []bool{true, true, false}},
		{"an hour back, two used", time.Hour, 2, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, clock := newTestLimiter(t, RateLimit{Burst: 3, Every: 20 * time.Minute, Senders: 10})
			for range tt.replies {
				if !l.Allow("a@example.org") {
					t.Fatal("refused within the burst")
				}
			}
			clock.advance(-tt.back)
			for i, want := range tt.want {
				if got := l.Allow("a@example.org"); got != want {
					t.Errorf("reply %d after the clock went back %v: Allow = %v, want %v", i+1, tt.back, got, want)
				}
			}
			// The time lost to the step is not charged: one reply comes back
			// one interval later, as it would have.
			clock.advance(20 * time.Minute)
			if !l.Allow("a@example.org") {
				t.Error("refused one interval later")
			}
		})
	}
}

func TestRateLimiterNonAddress(t *testing.T) {
	l, _ := newTestLimiter(t, RateLimit{Burst: 1, Every: time.Hour, Senders: 10})
	if !l.Allow("not an address") || l.Allow("NOT AN ADDRESS") {
		t.Error("a non-address is not limited as one key")
	}
}

func TestNewRateLimiterErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  RateLimit
	}{
		{"zero burst", RateLimit{Burst: 0, Every: time.Minute, Senders: 1}},
		{"zero interval", RateLimit{Burst: 1, Every: 0, Senders: 1}},
		{"negative interval", RateLimit{Burst: 1, Every: -time.Second, Senders: 1}},
		{"zero senders", RateLimit{Burst: 1, Every: time.Minute, Senders: 0}},
		{"overflow", RateLimit{Burst: 1 << 40, Every: time.Hour, Senders: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewRateLimiter(tt.cfg, nil); err == nil {
				t.Error("no error")
			}
		})
	}
	if l, err := NewRateLimiter(RateLimit{Burst: 1, Every: time.Minute, Senders: 1}, nil); err != nil || !l.Allow("a@example.org") {
		t.Errorf("nil clock: %v", err)
	}
}

func TestRateLimiterConcurrent(t *testing.T) {
	l, _ := newTestLimiter(t, RateLimit{Burst: 5, Every: time.Hour, Senders: 10})
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if l.Allow("a@example.org") {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if allowed != 5 {
		t.Errorf("%d of 20 concurrent calls allowed, want 5", allowed)
	}
}
