package game

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// logBuffer collects a service's log lines for a test.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// lines are the log lines containing every one of parts.
func (l *logBuffer) lines(parts ...string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.buf.String(), "\n") {
		ok := line != ""
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			out = append(out, line)
		}
	}
	return out
}

// withLog gives the fixture's service a logger writing to the returned buffer.
func (f *fixture) withLog() *logBuffer {
	f.t.Helper()
	log := &logBuffer{}
	svc, err := New(f.svc.cfg, Options{Store: f.st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{4, 5, 6}),
		Logger: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		f.t.Fatal(err)
	}
	f.svc = svc
	return log
}

// sendAllow is send with the sender's reply allowance.
func (f *fixture) sendAllow(allow func() Allowance, from, to, subject string, lines ...string) Result {
	f.t.Helper()
	f.seq++
	res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("in%d@client.test", f.seq), From: from, Recipients: []string{to},
		Subject: subject, Lines: lines, Allow: allow})
	if err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
	f.drain()
	return res
}

// TestNoMailAGameNeedsIsWithheld: with the senders' hourly allowance spent
// (limits.replies_per_hour), every mail a game needs still reaches them —
// a refused move, a move played out of turn, the receipt of a move, the
// start of a game that tells the first mover it is their move, the end —
// and the allowance is not even asked for it; only answers outside games
// are withheld, each one logged with the sender and its kind, and the
// first of them brings one short notice saying when answers resume
// (issue 35.3: "your move was not played", "ambiguous" and the "your move"
// that starts a game were silently withheld, and both players waited for
// each other toward a loss on time).
func TestNoMailAGameNeedsIsWithheld(t *testing.T) {
	f := newFixture(t, Config{})
	log := f.withLog()
	startChess(t, f)
	resume := f.now.Add(17 * time.Minute)
	asked := map[string]int{}
	spent := func(who string) func() Allowance {
		return func() Allowance {
			asked[who]++
			return Allowance{Notice: asked[who] == 1, Resume: resume}
		}
	}
	seat := func(who string) string { return f.last(who).ReplyTo }
	steps := []struct {
		name      string
		from      string
		lines     []string
		want      string // in the subject or the text of the one mail the sender gets; "" none
		withheld  string // the kind logged as withheld
		askedThen int    // how often the sender's allowance was asked by then
	}{
		{"a move out of turn", bob, []string{"e5"}, "refused: e5", "", 0},
		{"an illegal move", alice, []string{"Ke5"}, "refused: Ke5", "", 0},
		{"a move that is no move", alice, []string{"move Qz9"}, "refused: Qz9", "", 0},
		{"a line not understood: an answer outside games", alice, []string{"Qz9"}, "answers paused", "update", 1},
		{"a move played: the receipt", alice, []string{"e4"}, "Your move e4 was accepted", "", 1},
		{"help: withheld, with the notice", bob, []string{"help"}, "answers paused until 09:17 UTC", "help", 1},
		{"games: withheld, no second notice", bob, []string{"games"}, "", "games", 2},
		{"history: withheld", bob, []string{"history"}, "", "history", 3},
		{"bob's move: the receipt", bob, []string{"e5"}, "Your move e5 was accepted", "", 3},
		{"two moves in one mail: the second not played", alice, []string{"Nf3", "Nc3"}, `"Nc3" was not played`, "", 1},
		{"resign: the end", bob, []string{"resign"}, "game over", "", 3},
	}
	for _, s := range steps {
		before := len(f.inbox[s.from])
		res := f.sendAllow(spent(s.from), s.from, seat(s.from), "Re: [bp-1]", s.lines...)
		got := f.inbox[s.from][before:]
		switch {
		case s.want == "" && len(got) != 0:
			t.Errorf("%s: %d mails to %s, want none: %s", s.name, len(got), s.from, got[0].Subject)
		case s.want != "" && len(got) != 1:
			t.Errorf("%s: %d mails to %s, want one saying %q", s.name, len(got), s.from, s.want)
		case s.want != "" && !strings.Contains(got[0].Subject+" "+flat(got[0].Text), s.want):
			t.Errorf("%s: the mail to %s does not say %q:\n%s\n%s", s.name, s.from, s.want, got[0].Subject, got[0].Text)
		}
		if res.Withheld != s.withheld {
			t.Errorf("%s: withheld %q, want %q", s.name, res.Withheld, s.withheld)
		}
		if asked[s.from] != s.askedThen {
			t.Errorf("%s: %s's allowance asked %d times, want %d", s.name, s.from, asked[s.from], s.askedThen)
		}
	}
	notice := mailsWith(f, bob, "answers paused")
	if len(notice) != 1 {
		t.Fatalf("%d over-limit notices to bob, want 1", len(notice))
	}
	f.mustContain(notice[0], "Answers resume at 09:17 UTC", "your moves are played and every mail your games need")
	for _, kind := range []string{"help", "games", "history"} {
		if n := len(log.lines("answer withheld", "from="+bob, "kind="+kind)); n != 1 {
			t.Errorf("%d log lines of bob's %s withheld, want 1:\n%s", n, kind, strings.Join(log.lines("answer withheld"), "\n"))
		}
	}

	// A game's start is never withheld either: dave, his allowance spent,
	// accepts carol's challenge and is told the game has begun and that it
	// is his move.
	f.send(carol, f.personal(carol), "new", "new chess vs "+dave+" as black")
	f.sendAllow(spent(dave), dave, f.last(dave).ReplyTo, "Re: "+f.last(dave).Subject, "accept")
	f.mustContain(f.last(dave), "The game has begun", "It is your move.")
	if asked[dave] != 0 {
		t.Errorf("dave's allowance asked %d times for the start of his game", asked[dave])
	}
}

// mailsWith are the mails to addr whose subject or text contains part.
func mailsWith(f *fixture, addr, part string) []*sent {
	var out []*sent
	for _, m := range f.inbox[addr] {
		if strings.Contains(m.Subject, part) || strings.Contains(flat(m.Text), part) {
			out = append(out, m)
		}
	}
	return out
}
