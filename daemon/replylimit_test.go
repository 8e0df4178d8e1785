package daemon

import (
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/config"
)

// TestRepliesPerHourNeverWithholdsGameMail runs a daemon with
// limits.replies_per_hour at 2 and plays a game well past it: every receipt,
// every opponent's news of a move, the start and a refused move reach the
// players (issue 35.3: at the default 30 an active player was cut off in 27
// minutes, refusals and the "your move" that starts a game included, and
// both players waited for each other toward a loss on time; nothing was
// logged). Answers outside games are held to the limit: the third help gets
// the one notice saying answers are paused and until when, the fourth
// nothing, and both are logged with the sender and the kind.
func TestRepliesPerHourNeverWithholdsGameMail(t *testing.T) {
	r := launchHub(t, func(c *config.Config) { c.Limits.RepliesPerHour = 2 })
	st := r.d.Store()
	p := func(name string) *Player { return NewPlayer(r.hub, name, r.cfg.Hub.Password.Value) }
	alice, bob := p("alice"), p("bob")
	m := newMatch(t, st, alice, bob, nil)
	m.play(t, st, 10)
	m.checkReplies(t)
	mover := m.mover()
	mustSend(t, mover.p, Mail{To: mover.token, Subject: "Re: your move", Body: "Ka5"})
	if rm := mustAwait(t, mover.p, "Ka5"); !strings.Contains(rm.Msg.Subject, "refused: Ka5") {
		t.Errorf("the refusal's subject is %q", rm.Msg.Subject)
	}

	for range 4 {
		mustSend(t, bob, Mail{To: m.seats[1].token, Subject: "help", Body: "help"})
	}
	waitFor(t, faultWait, "the helps were not all handled", func() bool {
		return boxCount(t, r.hub, "games", "INBOX") == 0 && pendingMail(t, st, nil) == 0 &&
			r.log.count(0, "answer withheld", "from=bob@localhost", "kind=help") == 2
	})
	if _, err := bob.Fetch(); err != nil {
		t.Fatal(err)
	}
	helps, notices := 0, 0
	for _, rm := range bob.Inbox {
		switch {
		case strings.Contains(rm.Text(), "Commands (one per line"):
			helps++
		case strings.Contains(rm.Msg.Subject, "answers paused until"):
			notices++
			if !strings.Contains(strings.Join(strings.Fields(rm.Text()), " "), "Answers resume at") {
				t.Errorf("the notice does not say when answers resume:\n%s", rm.Text())
			}
		}
	}
	if helps != 2 || notices != 1 {
		t.Errorf("bob got %d helps and %d over-limit notices for 4 helps at 2 answers an hour, want 2 and 1", helps, notices)
	}
	if n := r.log.count(0, "answer withheld", "from=alice@localhost"); n != 0 {
		t.Errorf("%d of alice's answers withheld, want none:\n%s", n, strings.Join(r.log.lines(0, "answer withheld"), "\n"))
	}
}
