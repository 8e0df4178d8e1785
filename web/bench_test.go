package web_test

import (
	"math/rand/v2"
	"net/http/httptest"
	"testing"
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

// BenchmarkGamePage200 serves the page of a 200-move game in play: the
// store read, the record, the replay for the last-move highlight (Chess),
// the board and the template. The goal is under 5 ms.
func BenchmarkGamePage200(b *testing.B) {
	for _, variant := range []string{"chess", "seachess"} {
		b.Run(variant, func(b *testing.B) { benchPage(b, benchClub(b, variant), "/games/1") })
	}
}

// BenchmarkFinishedGamePage200 serves a position of a finished 200-move
// game: the first request replays it, later ones find it cached.
func BenchmarkFinishedGamePage200(b *testing.B) {
	c := benchClub(b, "chess")
	c.move0(1, alice, "resign")
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
