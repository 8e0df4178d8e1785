package web_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/web"
)

// TestTournamentPages: /tournaments lists a tournament, /tournaments/N
// shows its standings, crosstable and games (each linked to its page),
// names only, never an address; an unknown one is a 404.
func TestTournamentPages(t *testing.T) {
	c := newClub(t)
	const referee = "referee@club.test"
	var err error
	c.svc, err = game.New(game.Config{Address: service, Referees: []string{referee}}, game.Options{Store: c.st,
		Clock: func() time.Time { return c.now }, Rand: rand.NewChaCha8([32]byte{4})})
	if err != nil {
		t.Fatal(err)
	}
	c.srv = web.New(c.svc, web.Options{Address: service})
	if w := c.get("/tournaments"); w.Code != http.StatusOK || !strings.Contains(body(w), "No tournament yet") {
		t.Fatalf("/tournaments before any: %d\n%s", w.Code, body(w))
	}
	c.send(referee, "The Referee", service, "hello", "hello")
	c.send(referee, "The Referee", c.replyTo[referee], "new", "tournament new \"Winter cup\" variant seachess time 3d players "+alice+", "+bob+", "+carol)
	for _, p := range []string{alice, bob, carol} {
		c.send(p, names[p], c.replyTo[p], "Re: "+c.subject[p], "join")
	}
	w := c.get("/tournaments")
	if w.Code != http.StatusOK || !strings.Contains(body(w), `<a href="/tournaments/1">1. Winter cup</a>`) {
		t.Fatalf("/tournaments: %d\n%s", w.Code, body(w))
	}
	w = c.get("/tournaments/1")
	page := body(w)
	if w.Code != http.StatusOK {
		t.Fatalf("/tournaments/1: %d\n%s", w.Code, page)
	}
	for _, want := range []string{"Tournament 1: Winter cup", "rated round robin of Seachess", "0 of 3 games ended",
		"Alice Liddell", "Bob", `<th scope="row">3</th>`, "being played"} {
		if !strings.Contains(page, want) {
			t.Errorf("/tournaments/1 lacks %q:\n%s", want, page)
		}
	}
	for id := 1; id <= 3; id++ {
		if !strings.Contains(page, fmt.Sprintf(`<a href="/games/%d">%d</a>`, id, id)) {
			t.Errorf("/tournaments/1 does not link game %d", id)
		}
		if g := c.get(fmt.Sprintf("/games/%d", id)); g.Code != http.StatusOK {
			t.Errorf("/games/%d: %d", id, g.Code)
		}
	}
	for _, addr := range []string{alice, bob, carol, referee} {
		if strings.Contains(page, addr) {
			t.Errorf("/tournaments/1 shows the address %s", addr)
		}
	}
	// Game 1 (round 1: 2 v 3, Bob v Carol): Carol resigns; the file of
	// the tournament's finished games holds it, tagged with the tournament.
	c.send(carol, "", c.game[carol+"#1"], "Re: game 1", "resign")
	w = c.get("/tournaments/1.pgn")
	if pgn := body(w); w.Code != http.StatusOK || !strings.Contains(pgn, `[Event "Winter cup"]`) || !strings.Contains(pgn, `[Round "1"]`) ||
		strings.Count(pgn, "[Event ") != 1 {
		t.Errorf("/tournaments/1.pgn: %d\n%s", w.Code, pgn)
	}
	if page := body(c.get("/tournaments/1")); !strings.Contains(page, "1 of 3 games ended") || !strings.Contains(page, "1-0") {
		t.Errorf("/tournaments/1 after a game ended:\n%s", page)
	}
	for _, bad := range []string{"/tournaments/9", "/tournaments/x", "/tournaments/9.pgn"} {
		if w := c.get(bad); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, w.Code)
		}
	}
}
