package game

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// register makes addr a player who has written to the service.
func register(f *fixture, addr string) string {
	f.t.Helper()
	pa := f.personal(addr)
	f.send(addr, pa, "games", "games")
	return pa
}

// mailsTo counts the mails addr received.
func mailsTo(f *fixture, addr string) int { return len(f.inbox[addr]) }

// since is everything addr received from the from-th mail on, as one text.
func since(f *fixture, addr string, from int) string {
	var b strings.Builder
	for _, m := range f.inbox[addr][from:] {
		b.WriteString(m.Text)
	}
	return b.String()
}

// mustSay fails unless the mails addr received from the from-th on say each part.
func mustSay(t *testing.T, f *fixture, addr string, from int, parts ...string) {
	t.Helper()
	text := flat(since(f, addr, from))
	for _, p := range parts {
		if !strings.Contains(text, flat(p)) {
			t.Errorf("the mails to %s lack %q:\n%s", addr, p, text)
		}
	}
}

// TestAmplificationLimits: one mail, or a stream of them, can make the
// service write to strangers only within [limits]; beyond a limit the sender
// gets one line naming the limit and when it lets the next one through, and
// the strangers get nothing (not even a player record).
func TestAmplificationLimits(t *testing.T) {
	lim := Limits{CommandsPerMail: 6, ChallengesPerHour: 4, ChallengesPerDay: 5, InvitationsPerDay: 2, OpenChallenges: 10}
	victim := func(i int) string { return fmt.Sprintf("victim%d@example.com", i) }
	tests := []struct {
		name string
		open int // limits.open_challenges, when not lim's
		run  func(t *testing.T, f *fixture, pe string)
	}{
		{"a thousand invitations in one mail", 0, func(t *testing.T, f *fixture, pe string) {
			lines := make([]string, 1000)
			for i := range lines {
				lines[i] = "new chess vs " + victim(i)
			}
			before, mine := len(f.all), mailsTo(f, eve)
			res := f.send(eve, pe, "spam", lines...)
			invited := 0
			for i := range lines {
				invited += mailsTo(f, victim(i))
			}
			if invited != lim.InvitationsPerDay {
				t.Errorf("%d strangers invited, want %d", invited, lim.InvitationsPerDay)
			}
			// The invitations, and one answer to eve confirming every challenge.
			if n := len(f.all) - before; n != lim.InvitationsPerDay+1 || res.Mails != n {
				t.Errorf("one mail caused %d mails (result %d), want %d", n, res.Mails, lim.InvitationsPerDay+1)
			}
			mustSay(t, f, eve, mine, "Only the first 6 commands of a mail are acted on (limits.commands_per_mail); the other 994 were ignored",
				"(limits.invitations_per_day); you may invite another from Sun 22 Nov 09:00 UTC")
			if n := strings.Count(since(f, eve, mine), "limits.invitations_per_day"); n != 1 {
				t.Errorf("the limit is named %d times in the answers, want once", n)
			}
			err := f.st.View(func(tx *store.Tx) error {
				_, err := tx.PlayerByAddress(victim(lim.InvitationsPerDay))
				return err
			})
			if err == nil {
				t.Errorf("a stranger who was not invited has a player record")
			}
			// The next mail is refused too; a day later one more goes out.
			mine = mailsTo(f, eve)
			f.send(eve, pe, "again", "new chess vs victim-late@example.com")
			mustSay(t, f, eve, mine, "limits.invitations_per_day")
			if mailsTo(f, "victim-late@example.com") != 0 {
				t.Errorf("a stranger was invited beyond the limit")
			}
			f.now = f.now.Add(timing.Day)
			f.send(eve, pe, "again", "new chess vs victim-late@example.com")
			if mailsTo(f, "victim-late@example.com") != 1 {
				t.Errorf("the invitation limit did not reset after a day")
			}
		}},
		{"challenges per hour and per day", 0, func(t *testing.T, f *fixture, pe string) {
			// Players who have written are no strangers: only the challenge limits apply.
			for i := range 6 {
				register(f, fmt.Sprintf("p%d@example.org", i))
			}
			f.send(eve, pe, "new", "new chess vs p0@example.org")
			f.now = f.now.Add(10 * time.Minute)
			for i := 1; i < 4; i++ {
				f.send(eve, pe, "new", fmt.Sprintf("new chess vs p%d@example.org", i))
			}
			for i := range 4 {
				f.mustContain(f.last(fmt.Sprintf("p%d@example.org", i)), "challenges you")
			}
			mine := mailsTo(f, eve)
			f.send(eve, pe, "new", "new chess vs p4@example.org")
			mustSay(t, f, eve, mine, "you started 4 in the last hour", "(limits.challenges_per_hour); you may start another from Sat 21 Nov 10:00 UTC")
			if n := mailsTo(f, "p4@example.org"); n != 2 { // the welcome and the games list
				t.Errorf("p4 got %d mails", n)
			}
			f.now = f.now.Add(time.Hour)
			f.send(eve, pe, "new", "new chess vs p4@example.org")
			f.mustContain(f.last("p4@example.org"), "challenges you")
			mine = mailsTo(f, eve)
			f.send(eve, pe, "new", "new chess vs p5@example.org")
			mustSay(t, f, eve, mine, "you started 5 in the last 24 hours", "(limits.challenges_per_day); you may start another from Sun 22 Nov 09:00 UTC")
			f.now = f.now.Add(23 * time.Hour)
			f.send(eve, pe, "new", "new chess vs p5@example.org")
			f.mustContain(f.last("p5@example.org"), "challenges you")
		}},
		{"open challenges per player", 3, func(t *testing.T, f *fixture, pe string) {
			mine := mailsTo(f, eve)
			f.send(eve, pe, "new", "new chess time 1d", "new chess time 2d", "new chess time 3d", "new chess time 4d", "new chess time 5d")
			mustSay(t, f, eve, mine, "3 of your challenges are waiting for an answer, the most this service allows (limits.open_challenges)")
			if n := strings.Count(since(f, eve, mine), "limits.open_challenges"); n != 1 {
				t.Errorf("the limit is named %d times, want once", n)
			}
			// A match of an open challenge starts a game: no challenge counted.
			pa := register(f, alice)
			f.send(alice, pa, "new", "new chess time 1d")
			f.mustContain(f.last(alice), "The game has begun")
			f.send(eve, pe, "new", "new chess time 6d")
			f.mustContain(f.last(eve), "Your open challenge [bp-4]")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := lim
			if tt.open > 0 {
				l.OpenChallenges = tt.open
			}
			f := newFixture(t, Config{Limits: l})
			pe := register(f, eve)
			tt.run(t, f, pe)
		})
	}
}

// TestNotUnderstoodIsQuotedOnceAndShort: whatever a mail holds, its answer
// quotes each not-understood line at most once, as a short excerpt, lists
// at most a few of them, and stays under MaxReplyBytes.
func TestNotUnderstoodIsQuotedOnceAndShort(t *testing.T) {
	long := strings.Repeat("x", 900<<10)
	same := make([]string, 1000)
	for i := range same {
		same[i] = "please play nicely"
	}
	distinct := make([]string, 1000)
	for i := range distinct {
		distinct[i] = fmt.Sprintf("junk line number %d %s", i, strings.Repeat("é", 100))
	}
	tests := []struct {
		name  string
		lines []string
		want  []string
	}{
		{"one line of 900 KB", []string{long}, []string{strings.Repeat("x", excerptLen) + "…"}},
		{"the same line a thousand times", same, []string{"please play nicely"}},
		{"a thousand different long lines", distinct, []string{"junk line number 0 ééé", "(and 990 more lines not understood)"}},
		{"a move argument of 900 KB", []string{"move " + long}, []string{"move xxxxxxxx"}},
		{"a thousand bad commands", func() []string {
			l := make([]string, 1000)
			for i := range l {
				l[i] = "timezone Nowhere/" + strings.Repeat("y", 150)
			}
			return l
		}(), []string{"is not a time zone name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			pe := register(f, eve)
			f.send(eve, pe, "junk", tt.lines...)
			m := f.last(eve)
			f.mustContain(m, tt.want...)
			if len(m.Raw) > MaxReplyBytes {
				t.Errorf("the answer has %d bytes", len(m.Raw))
			}
			t.Logf("%d lines in, %d bytes out", len(tt.lines), len(m.Raw))
			if len(m.Raw) > 16<<10 {
				t.Errorf("the answer has %d bytes for junk; want a short one", len(m.Raw))
			}
			if n := strings.Count(m.Text, "please play nicely"); n > 1 {
				t.Errorf("a line is quoted %d times", n)
			}
		})
	}
}

// TestNoAnswerExceedsTheLimit: a mail the service composes is never larger
// than MaxReplyBytes: long lists are cut with a note, and what cannot be cut
// enough is replaced by a short mail saying so.
func TestNoAnswerExceedsTheLimit(t *testing.T) {
	many := func(n, size int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = fmt.Sprintf("[bp-%d] %s", i, strings.Repeat("g", size))
		}
		return l
	}
	tests := []struct {
		name  string
		draft draft
		want  string
	}{
		{"a list of 5,000 games", draft{kind: "games", games: many(5000, 80)}, "This answer was cut short"},
		{"notices too large to cut", draft{kind: "notice", notices: many(10, 20000)}, "would have been larger than 64 KB"},
		{"a small answer", draft{kind: "notice", notices: many(3, 10)}, "[bp-2] gggggggggg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			err := f.st.Update(func(tx *store.Tx) error {
				r := f.svc.newRenderer(tx, f.now, &clocks{})
				d := tt.draft
				d.to = eve
				d.subject = "test"
				data, err := r.renderBounded(&d)
				if err != nil {
					return err
				}
				if len(data) > MaxReplyBytes {
					t.Errorf("%d bytes", len(data))
				}
				m := parseSent(t, data)
				if !strings.Contains(m.Text, tt.want) {
					t.Errorf("the mail lacks %q:\n%.2000s", tt.want, m.Text)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAmplificationDefaults: with the default limits, the mail of the
// report (1,000 lines "new chess vs victimN@…", about 30 KB) causes 11
// mails: ten invitations and the sender's one answer (confirming the ten
// challenges and naming the limit); before the limits it caused 2,000.
func TestAmplificationDefaults(t *testing.T) {
	f := newFixture(t, Config{})
	pe := register(f, eve)
	lines := make([]string, 1000)
	size := 0
	for i := range lines {
		lines[i] = fmt.Sprintf("new chess vs victim%d@example.com", i)
		size += len(lines[i]) + 2
	}
	before := len(f.all)
	f.send(eve, pe, "spam", lines...)
	strangers := 0
	for i := range lines {
		strangers += mailsTo(f, fmt.Sprintf("victim%d@example.com", i))
	}
	// The invitations and one answer to eve.
	if n := len(f.all) - before; n != DefaultLimits.InvitationsPerDay+1 || strangers != DefaultLimits.InvitationsPerDay {
		t.Errorf("a %d-byte mail caused %d mails, %d to strangers; want %d and %d", size, n, strangers, DefaultLimits.InvitationsPerDay+1, DefaultLimits.InvitationsPerDay)
	}
	t.Logf("a %d-byte mail of 1,000 challenges caused %d mails, %d of them to strangers", size, len(f.all)-before, strangers)
}
