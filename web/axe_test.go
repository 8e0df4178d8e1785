package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/internal/axetest"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// TestPagesAccessible runs axe-core in headless Chromium on every kind of
// page of the web view: the front page, the variants and each variant's
// rules, the page of a missing game, a game of every variant in play and
// one finished (resigned), a game stepped back to an earlier position, the
// rating pools and a pool with players. None may have a serious or critical
// violation (issue 34). One browser checks them all.
func TestPagesAccessible(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	b := axetest.Start(t)
	c := newClub(t)
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
