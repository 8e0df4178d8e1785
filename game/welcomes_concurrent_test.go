package game

import (
	"fmt"
	"sync"
	"testing"
)

// TestWelcomesExactUnderConcurrency: a flood of mail from a few strangers'
// addresses, handled all at once (Handle from many goroutines, through the
// store's group commit), gets each address exactly WelcomesPerDay answers
// of first contact, whatever mix of mail it is: mail to the bare address,
// to an unknown token, to someone else's token, and mail nothing vouches
// for (trusted_authserv), whose answer shares the day's count (issue 35.11:
// under TestFloodAndBadInput's flood a stranger got 4 answers where 3 are
// allowed: the welcome's three and the unvouched mail's answer, counted
// apart).
func TestWelcomesExactUnderConcurrency(t *testing.T) {
	const server = "mail.club.test"
	f := newFixture(t, Config{TrustedAuthServ: server})
	pass := []string{server + "; dkim=pass header.d=example.org"}
	strangers := []string{"s1@example.org", "s2@example.org", "s3@example.org"}
	var msgs []*Incoming
	for i := range 40 {
		for _, s := range strangers {
			in := &Incoming{MessageID: fmt.Sprintf("flood%d.%s", i, s), From: s, Subject: "hi", Lines: []string{"games", "lorem ipsum"}}
			switch i % 4 {
			case 0: // unvouched: answered once a day, within the same count
				in.Recipients = []string{f.svc.cfg.Address}
			case 1:
				in.Recipients, in.AuthResults = []string{f.svc.cfg.Address}, pass
			case 2:
				in.Recipients, in.AuthResults = []string{"games+1aaaaaaaaaaaaaaaaaaaaaaaa@bottlepost.test"}, pass
			case 3:
				in.Recipients, in.AuthResults = []string{"games+bbbbbbbbbbbbbbbbbbbbbbbb@bottlepost.test"}, pass
			}
			msgs = append(msgs, in)
		}
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, len(msgs))
	for i, in := range msgs {
		wg.Go(func() {
			<-start
			_, errs[i] = f.svc.Handle(in)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", msgs[i].MessageID, err)
		}
	}
	f.drain()
	for _, s := range strangers {
		if got := len(f.inbox[s]); got != WelcomesPerDay {
			t.Errorf("%s got %d answers to 40 mails handled at once, want exactly %d", s, got, WelcomesPerDay)
		}
	}
}
