package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/internal/axetest"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/web"
)

// tournament has the referee create a tournament of variant for alice, bob
// and carol, who join; its three games start, numbered after *last, which
// it moves on. It returns the tournament's number.
func (c *club) tournament(referee, variant string, last *uint64) uint64 {
	c.t.Helper()
	c.send(referee, "The Referee", c.replyTo[referee], "new",
		"tournament new \"Cup "+variant+"\" variant "+variant+" time 3d players "+alice+", "+bob+", "+carol)
	var n uint64
	if _, err := fmt.Sscanf(c.subject[referee], "Tournament %d: created", &n); err != nil {
		c.t.Fatalf("the referee got %q: %v", c.subject[referee], err)
	}
	for _, p := range []string{alice, bob, carol} {
		c.send(p, names[p], c.replyTo[p], "Re: "+c.subject[p], "join")
	}
	*last += 3
	return n
}

// TestPagesAccessible runs axe-core in headless Chromium on every kind of
// page of the web view: the front page, the variants and each variant's
// rules, the page of a missing game, a game of every variant in play and
// one finished (resigned), a game stepped back to an earlier position, the
// rating pools and a pool with players, the tournaments, a tournament being
// played (Seachess) and one finished (chess). None may have a serious or
// critical violation (issue 34). One browser checks them all.
func TestPagesAccessible(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	b := axetest.Start(t)
	c := newClub(t)
	const referee = "referee@club.test"
	var err error
	c.svc, err = game.New(game.Config{Address: service, VacationDays: 30, Referees: []string{referee}}, game.Options{Store: c.st,
		Clock: func() time.Time { return c.now }, Rand: rand.NewChaCha8([32]byte{2, 3})})
	if err != nil {
		t.Fatal(err)
	}
	c.srv = web.New(c.svc, web.Options{Address: service})
	pages := []string{"/", "/variants/", "/games/999"}
	id := uint64(0)
	for _, v := range variants.All() {
		pages = append(pages, "/variants/"+v.ID())
		id++
		c.start(v.ID(), alice, bob)
		c.randomGame(id, v.ID(), alice, bob, 12, rand.New(rand.NewPCG(id, 34)))
		pages = append(pages, fmt.Sprintf("/games/%d", id))
		id++
		c.start(v.ID(), bob, carol)
		played := c.randomGame(id, v.ID(), bob, carol, 7, rand.New(rand.NewPCG(id, 34)))
		resigner := bob // the side to move after the plies played resigns
		if (len(played)%2 == 1) != (v.ID() == "transporter") {
			resigner = carol
		}
		c.move0(id, resigner, "resign")
		pages = append(pages, fmt.Sprintf("/games/%d", id))
	}
	pages = append(pages, "/games/1?ply=2", "/ratings", "/ratings/"+game.RatingPools()[0])
	// Two tournaments: a Seachess one being played, a chess one finished
	// (each game resigned).
	c.send(referee, "The Referee", service, "hello", "hello")
	running := c.tournament(referee, "seachess", &id)
	finished := c.tournament(referee, "chess", &id)
	for g := id - 2; g <= id; g++ {
		for _, p := range []string{alice, bob, carol} {
			if to, ok := c.game[fmt.Sprintf("%s#%d", p, g)]; ok {
				c.send(p, names[p], to, fmt.Sprintf("Re: game %d", g), "resign")
				break
			}
		}
	}
	if page := c.get(fmt.Sprintf("/tournaments/%d", finished)).Body.String(); !strings.Contains(page, "final standings") {
		t.Fatalf("tournament %d did not finish:\n%s", finished, page)
	}
	pages = append(pages, "/tournaments", fmt.Sprintf("/tournaments/%d", running), fmt.Sprintf("/tournaments/%d", finished))
	srv := httptest.NewServer(c.srv)
	defer srv.Close()
	for _, p := range pages {
		t.Run(p, func(t *testing.T) {
			vs := b.Check(t, srv.URL+p)
			t.Logf("%s", axetest.Summary(vs))
			for _, x := range vs {
				if x.Serious() {
					t.Error(x)
				} else if testing.Verbose() {
					t.Log(x)
				}
			}
		})
	}
}
