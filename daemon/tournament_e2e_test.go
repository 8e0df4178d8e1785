package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/config"
)

// awaitIn fetches until a mail of p's from index from on has a subject
// holding subject and a text holding text, or the wait passes.
func awaitIn(t *testing.T, p *Player, from int, subject, text string) *Received {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		for _, m := range p.Inbox[from:] {
			if strings.Contains(m.Msg.Subject, subject) && strings.Contains(m.Text(), text) {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: no mail %q holding %q within %v", p.Address, subject, text, wait)
		}
		if _, err := p.Fetch(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEndToEndTournamentByMail plays a five-player tournament through the
// daemon and its hub, every participant a mail client: the referee creates
// it, the players join by replying to their invitations, every game is
// played to its end in its own thread (resignations, an agreed draw, a
// Fool's mate), and every player and the referee receive the final
// standings, the crosstable the results make (about 3 s: -short runs it
// too).
func TestEndToEndTournamentByMail(t *testing.T) {
	names := []string{"alice", "bob", "carol", "dave", "erin"}
	r := startDaemon(t, func(c *config.Config) { c.Service.Referees = []string{"ref@localhost"} })
	pw := r.cfg.Hub.Password.Value
	ref := NewPlayer(r.d.Hub(), "ref", pw)
	players := make([]*Player, len(names))
	var addrs []string
	for i, n := range names {
		players[i] = NewPlayer(r.d.Hub(), n, pw)
		addrs = append(addrs, n+"@localhost")
	}
	sent(t)(ref.Send(Mail{To: "games@localhost", Subject: "hello", Body: "hi"}))
	await(t, ref, "your personal address")
	sent(t)(ref.Reply(`tournament new "Mail cup" variant chess time 3d players ` + strings.Join(addrs, ", ")))
	await(t, ref, "Tournament 1, Mail cup, is created")
	for _, p := range players {
		await(t, p, "invites you to play in tournament 1, Mail cup")
		sent(t)(p.Reply("join"))
		await(t, p, "You joined tournament 1, Mail cup.")
	}
	await(t, ref, fmt.Sprintf("Tournament 1, Mail cup, has begun: %d players", len(players)))

	// Each player's list of their games; each game's thread address from
	// its start mail.
	type tgame struct {
		id           uint64
		white, black int // indexes in players
	}
	seat := map[string]string{} // "player#game": the thread's Reply-To
	subject := map[uint64]string{}
	games := map[uint64]*tgame{}
	for i, p := range players {
		list := awaitIn(t, p, 0, "Tournament 1: your games", "Your games:")
		n := 0
		for _, line := range strings.Split(list.Text(), "\n") {
			var round int
			var id uint64
			var colour string
			if _, err := fmt.Sscanf(line, "Round %d: game %d, %s v", &round, &id, &colour); err != nil {
				continue
			}
			n++
			g := games[id]
			if g == nil {
				g = &tgame{id: id, white: -1, black: -1}
				games[id] = g
			}
			if colour == "White" {
				g.white = i
			} else {
				g.black = i
			}
			start := awaitIn(t, p, 0, fmt.Sprintf("[bp-%d]", id), "The game has begun")
			seat[fmt.Sprintf("%d#%d", i, id)] = start.ReplyTo
			subject[id] = start.Msg.Subject
		}
		if n != len(players)-1 {
			t.Fatalf("%s's list names %d games, want %d:\n%s", p.Address, n, len(players)-1, list.Text())
		}
	}
	if len(games) != len(players)*(len(players)-1)/2 {
		t.Fatalf("%d games, want %d", len(games), len(players)*(len(players)-1)/2)
	}
	play := func(i int, id uint64, body string) {
		t.Helper()
		sent(t)(players[i].Send(Mail{To: seat[fmt.Sprintf("%d#%d", i, id)], Subject: "Re: " + subject[id], Body: body}))
	}
	// The results: the lower draw number wins, but 2 and 3 agree a draw;
	// a win with Black is a Fool's mate, a win with White the loser's
	// resignation.
	mates := 0
	for id := uint64(1); id <= uint64(len(games)); id++ {
		g := games[id]
		if g == nil || g.white < 0 || g.black < 0 {
			t.Fatalf("game %d: %+v", id, g)
		}
		w, b := players[g.white], players[g.black]
		wn, bn := len(w.Inbox), len(b.Inbox)
		tag := fmt.Sprintf("[bp-%d]", id)
		switch {
		case min(g.white, g.black) == 1 && max(g.white, g.black) == 2:
			play(g.white, id, "draw")
			awaitIn(t, b, bn, tag, "")
			play(g.black, id, "draw")
		case g.black < g.white:
			mates++
			for k, m := range []string{"f3", "e5", "g4", "Qh4#"} {
				mover, other := g.white, g.black
				if k%2 == 1 {
					mover, other = g.black, g.white
				}
				n := len(players[other].Inbox)
				play(mover, id, m)
				if k < 3 {
					awaitIn(t, players[other], n, tag, "played")
				}
			}
		default:
			play(g.black, id, "resign")
		}
		awaitIn(t, w, wn, tag, "Game over")
		awaitIn(t, b, bn, tag, "Game over")
	}
	if mates == 0 {
		t.Errorf("no game was won by a mate")
	}

	// The final standings, to every player and the referee: the
	// crosstable these results make.
	// Draw numbers 1-5 are players 2-6 (the referee wrote first), named by
	// number: their mail gave no name.
	want := `Pl.  No. Name      Pts  S-B     Wins
1      1 player 2  4    6       4
2=     2 player 3  2½   2.25    2
2=     3 player 4  2½   2.25    2
4      4 player 5  1    0       1
5      5 player 6  0    0       0

     1 2 3 4 5
  1  × 1 1 1 1
  2  0 × ½ 1 1
  3  0 ½ × 1 1
  4  0 0 0 × 1
  5  0 0 0 0 ×`
	for _, p := range append([]*Player{ref}, players...) {
		m := awaitIn(t, p, 0, "Tournament 1: final standings", "Every game has ended.")
		text := m.Text()
		if p == ref {
			t.Logf("the referee's final standings:\n%s", text)
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s's final standings lack the crosstable\n%s\n---\n%s", p.Address, want, text)
		}
		n := 0
		for _, r := range p.Inbox {
			if strings.Contains(r.Msg.Subject, "Tournament 1: final standings") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s received the final standings %d times", p.Address, n)
		}
	}
}
