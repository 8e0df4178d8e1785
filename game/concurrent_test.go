package game

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bottlepost/bottlepost/rules/variants"
)

// concurrentScene sets up, in a fresh fixture, the games of TestHandleConcurrently, and
// returns the mails then to be handled, whose outcomes do not depend on the order they are
// handled in: each touches a game no other one touches, or none.
func concurrentScene(t *testing.T) (*fixture, []*Incoming) {
	t.Helper()
	f := newFixture(t, Config{})
	var msgs []*Incoming
	mail := func(from, to, subject string, lines ...string) {
		f.seq++
		msgs = append(msgs, &Incoming{MessageID: fmt.Sprintf("c%d@client.test", f.seq), From: from, Recipients: []string{to}, Subject: subject, Lines: lines})
	}
	// alice plays six Seachess games (1 to 6) and asks for every board in one mail: six
	// HTML boards are more than MaxReplyBytes, so the answer is made again, with its boards
	// as text, in its job's finish. Each opponent asks for the record of their game.
	pa := f.personal(alice)
	var boards []string
	for i := range 6 {
		opp := fmt.Sprintf("opp%d@example.com", i)
		f.send(alice, pa, "new", "new seachess vs "+opp+" as white")
		f.reply(opp, "accept")
		boards = append(boards, fmt.Sprintf("board %d", i+1))
		m := f.last(opp)
		mail(opp, m.ReplyTo, "Re: "+m.Subject, "history")
	}
	mail(alice, pa, "all my boards", boards...)
	// A game of every variant (7 on), each with a move to play.
	r := rand.New(rand.NewPCG(30, 2))
	for i, v := range variants.All() {
		white, black := fmt.Sprintf("white%d@example.com", i), fmt.Sprintf("black%d@example.com", i)
		f.send(white, f.personal(white), "new", "new "+v.ID()+" vs "+black+" as white")
		f.reply(black, "accept")
		l := loadGame(t, f, uint64(7+i))
		moves := l.state.Moves()
		for _, k := range r.Perm(len(moves)) {
			if _, _, err := l.state.Apply(moves[k]); err == nil {
				m := f.last(white)
				mail(white, m.ReplyTo, "Re: "+m.Subject, l.state.Format(moves[k]))
				break
			}
		}
	}
	// A game that ends: the final mails carry the record attached.
	f.send(carol, f.personal(carol), "new", "new chess vs "+dave+" as white")
	f.reply(dave, "accept")
	f.reply(carol, "e4")
	m := f.last(dave)
	mail(dave, m.ReplyTo, "Re: "+m.Subject, "resign")
	// Strangers, who get the welcome.
	for i := range 4 {
		mail(fmt.Sprintf("stranger%d@example.org", i), f.svc.cfg.Address, "hello", "new chess vs "+alice)
	}
	f.drain()
	f.inbox, f.all = map[string][]*sent{}, nil
	return f, msgs
}

// random matches what is drawn at random in a mail: the chain's hashes and the
// commitments (the keys of secret moves are fresh random bytes), in full or cut short.
var random = regexp.MustCompile(`[0-9a-f]{16,}`)

// mailsByRecipient are the mails of a fixture's outbox, by recipient, each as its subject,
// text, HTML and attachments with what is drawn at random masked, sorted.
func mailsByRecipient(f *fixture) map[string][]string {
	f.t.Helper()
	out := map[string][]string{}
	for _, m := range f.drain() {
		s := m.Subject + "\n" + m.Text + "\n" + m.HTML
		for _, a := range m.Attachments {
			s += "\n" + a.Name + " " + a.Type + "\n" + string(a.Data)
		}
		out[m.To] = append(out[m.To], random.ReplaceAllString(s, "RANDOM"))
	}
	for _, ms := range out {
		slices.Sort(ms)
	}
	return out
}

// TestHandleConcurrently hands the service mails from many goroutines at once, so that the
// store's Batch commits them in groups and the mails of a group are composed side by side
// (the renderer's jobs, store.Tx.Defer): moves in a game of every variant, a resignation
// (its final mails carry the record), records asked for, the welcome to strangers, and an
// answer of six boards that is over the size limit and made again in its job's finish.
// Every mail is the one the same messages handled one after another make, but for what is
// drawn at random; under the race detector (.ci/run runs go test -race ./game) it also
// shows that no job shares what another job or function writes.
func TestHandleConcurrently(t *testing.T) {
	seq, msgs := concurrentScene(t)
	wantResults := make([]Result, len(msgs))
	for i, in := range msgs {
		var err error
		if wantResults[i], err = seq.svc.Handle(in); err != nil {
			t.Fatalf("%s, one after another: %v", in.From, err)
		}
	}
	wantMails := mailsByRecipient(seq)

	con, msgs := concurrentScene(t)
	results := make([]Result, len(msgs))
	errs := make([]error, len(msgs))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, in := range msgs {
		wg.Go(func() {
			<-start
			results[i], errs[i] = con.svc.Handle(in)
		})
	}
	close(start)
	wg.Wait()
	for i, in := range msgs {
		if errs[i] != nil || results[i] != wantResults[i] {
			t.Errorf("%s: %+v, %v; one after another %+v", in.From, results[i], errs[i], wantResults[i])
		}
	}
	gotMails := mailsByRecipient(con)
	if len(gotMails) != len(wantMails) {
		t.Errorf("mails to %d recipients, want %d", len(gotMails), len(wantMails))
	}
	for to, want := range wantMails {
		got := gotMails[to]
		if len(got) != len(want) {
			t.Errorf("%s got %d mails, want %d", to, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s got, handled at once with the others:\n%s\n--- one after another:\n%s", to, got[i], want[i])
			}
		}
	}
	// The answer over the size limit was made again, with its boards as text: six in
	// each part, and no table.
	answer := strings.Join(gotMails[alice], "")
	if n := strings.Count(answer, "Seachess, as White sees it"); n != 12 || strings.Contains(answer, "<table") {
		t.Errorf("alice's answer shows %d boards, tables: %v; want six in each part, as text", n, strings.Contains(answer, "<table"))
	}
	for _, want := range []string{"opp5@example.com", "black0@example.com", dave, carol, "stranger3@example.org"} {
		if len(gotMails[want]) == 0 {
			t.Errorf("no mail to %s", want)
		}
	}
}
