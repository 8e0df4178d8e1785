package game

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestStrangersPerDayIsServiceWide: the mails a UTC day to addresses that
// never wrote — invitations, and welcomes to addresses the service does not
// know — are bounded for the whole service, whatever number of identities
// ask for them (issue 35.7: 20 identities made 200 invitations to
// strangers). Beyond the bound a challenge to a stranger is refused and
// its challenger told which limit; a stranger's mail gets no answer; a
// player the service knows is answered, and challenged, as before; the
// moment the bound is reached is logged once; the next day it starts again.
func TestStrangersPerDayIsServiceWide(t *testing.T) {
	f := newFixture(t, Config{Limits: Limits{StrangersPerDay: 4}})
	log := f.withLog()
	personal := func(addr string) string { return f.svc.replyAddress(f.svc.accountToken(addr)) }
	// Three players made at their personal addresses (no welcome, no mail to
	// a stranger); each invites two strangers.
	invited := 0
	for i, p := range []string{alice, bob, dave} {
		for j := range 2 {
			res := f.send(p, personal(p), "new", fmt.Sprintf("new chess vs stranger%d.%d@example.com", i, j))
			m := f.last(p)
			if strings.Contains(flat(m.Text), "limits.strangers_per_day") {
				if res.Mails != 1 {
					t.Errorf("a refused challenge caused %d mails", res.Mails)
				}
				continue
			}
			invited++
		}
	}
	if invited != 4 {
		t.Errorf("%d strangers invited by three players, want the service's 4", invited)
	}
	f.mustContain(f.last(dave), "bottlepost has sent today all the mail it sends in a day to addresses that never wrote to it (limits.strangers_per_day)")
	if res := f.send("newcomer@example.org", bare, "hi", "games"); res.Mails != 0 || !strings.Contains(res.Refused, "limits.strangers_per_day") {
		t.Errorf("a stranger's mail after the day's mails to strangers: %+v", res)
	}
	if res := f.send(alice, bare, "hi", "games"); res.Mails != 1 {
		t.Errorf("a player at the bare address after the day's mails to strangers: %+v", res)
	}
	if res := f.send(alice, personal(alice), "new", "new chess vs "+bob); res.Mails != 2 {
		t.Errorf("a challenge to a player after the day's mails to strangers: %+v", res)
	}
	if n := len(log.lines("level=WARN", "limits.strangers_per_day")); n != 1 {
		t.Errorf("%d warnings of the day's mails to strangers, want 1:\n%s", n, strings.Join(log.lines("strangers_per_day"), "\n"))
	}
	f.now = f.now.Add(24 * time.Hour)
	if res := f.send("newcomer@example.org", bare, "hi", "games"); res.Mails != 1 {
		t.Errorf("a stranger's mail the next day: %+v", res)
	}
}
