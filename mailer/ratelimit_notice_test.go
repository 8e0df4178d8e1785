package mailer

import (
	"testing"
	"time"
)

// TestRateLimiterTakeNoticeAndResume: a refusal says when replies resume,
// and only the first refusal in a window (Burst × Every) carries Notice, so
// the sender is told once per window however often they write (issue
// 35.3).
func TestRateLimiterTakeNoticeAndResume(t *testing.T) {
	l, clock := newTestLimiter(t, RateLimit{Burst: 2, Every: 30 * time.Minute, Senders: 100})
	start := clock.now()
	const alice = "alice@example.org"
	steps := []struct {
		name    string
		advance time.Duration
		want    Verdict
	}{
		{"first", 0, Verdict{OK: true}},
		{"second", 0, Verdict{OK: true}},
		{"spent: the notice, resuming in half an hour", time.Minute, Verdict{Notice: true, Resume: start.Add(30 * time.Minute)}},
		{"spent again: no second notice", time.Minute, Verdict{Resume: start.Add(30 * time.Minute)}},
		{"still spent", 20 * time.Minute, Verdict{Resume: start.Add(30 * time.Minute)}},
		{"resumed", 8 * time.Minute, Verdict{OK: true}},
		{"spent again within the window: no notice", 0, Verdict{Resume: start.Add(60 * time.Minute)}},
		{"resumed again", 31 * time.Minute, Verdict{OK: true}},
		{"spent a window after the notice: a notice again", 0, Verdict{Notice: true, Resume: start.Add(90 * time.Minute)}},
	}
	for _, s := range steps {
		clock.advance(s.advance)
		got := l.Take(alice)
		if got.OK != s.want.OK || got.Notice != s.want.Notice || !got.Resume.Equal(s.want.Resume) {
			t.Errorf("%s: Take = %+v, want %+v", s.name, got, s.want)
		}
	}
	if v := l.Take("bob@example.org"); !v.OK {
		t.Errorf("another sender: %+v", v)
	}
}
