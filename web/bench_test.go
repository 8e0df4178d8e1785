package web_test

import (
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/bottlepost/bottlepost/web"
)

// benchClub is a club with a 200-move game of variant in play as game 1.
func benchClub(b *testing.B, variant string) *club {
	b.Helper()
	for seed := uint64(200); seed < 210; seed++ {
		c := newClub(b)
		c.start(variant, alice, bob)
		if len(c.randomGame(1, variant, alice, bob, 200, rand.New(rand.NewPCG(seed, 1)))) == 200 {
			return c
		}
	}
	b.Fatal("no random game reached 200 moves")
	return nil
}

func benchPage(b *testing.B, c *club, target string) {
	b.Helper()
	if w := c.get(target); w.Code != 200 {
		b.Fatalf("%s: %d", target, w.Code)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		c.srv.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	}
}

// BenchmarkGamePage200 draws the page of a 200-move game in play: the
// store read, the record, the last-move highlight (replayed once per move),
// the board and the template, with no drawn page kept. The goal is under
// 5 ms. The "kept" runs serve the page drawn before, as the server does
// while the game does not change: the stamp's store read and the ETag.
func BenchmarkGamePage200(b *testing.B) {
	for _, variant := range []string{"chess", "seachess"} {
		c := benchClub(b, variant)
		b.Run(variant+"/drawn", func(b *testing.B) {
			c.srv = web.New(c.svc, web.Options{KeepPages: -1})
			benchPage(b, c, "/games/1")
		})
		b.Run(variant+"/kept", func(b *testing.B) {
			c.srv = web.New(c.svc, web.Options{})
			benchPage(b, c, "/games/1")
		})
	}
}

// BenchmarkFinishedGamePage200 draws a position of a finished 200-move
// game: the first request replays the game, later ones find it kept; no
// drawn page is kept.
func BenchmarkFinishedGamePage200(b *testing.B) {
	c := benchClub(b, "chess")
	c.move0(1, alice, "resign")
	c.srv = web.New(c.svc, web.Options{KeepPages: -1})
	benchPage(b, c, "/games/1?ply=100")
}

// BenchmarkFrontPage serves the front page with a page of games in play.
func BenchmarkFrontPage(b *testing.B) {
	c := newClub(b)
	players := []string{alice, bob, carol}
	for i := range 25 {
		c.start("chess", players[i%3], players[(i+1)%3])
	}
	benchPage(b, c, "/")
}
