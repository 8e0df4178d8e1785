package web_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/web"
)

// seachessOpening lays both mines and dives a submarine each: secret moves
// (S3.2, S5.2) that a finished game reveals.
var seachessOpening = []string{"Cc1-M", "Cc12-M", "Bf2-f4", "Bj11-j9", "Si1v-j3"}

// newArchive sets up a club with one game of every kind a visitor can ask
// about: 1 a finished Chess game, 2 a Chess game in play, 3 a challenge not
// yet accepted, 4 a finished Seachess game with secret moves.
func newArchive(t *testing.T) *club {
	t.Helper()
	c := newClub(t)
	c.start("chess", alice, bob)
	c.randomGame(1, "chess", alice, bob, 9, rand.New(rand.NewPCG(5, 6)))
	c.move0(1, bob, "resign") // Black is to move after 9 plies
	c.start("chess", alice, carol)
	c.randomGame(2, "chess", alice, carol, 4, rand.New(rand.NewPCG(7, 8)))
	c.send(bob, names[bob], service, "hello", "hello")
	c.send(bob, names[bob], c.replyTo[bob], "new game", "new chess vs "+carol)
	c.start("seachess", carol, alice)
	for i, m := range seachessOpening {
		c.move(4, []string{carol, alice}[i%2], m)
	}
	c.move0(4, alice, "resign")
	return c
}

// leaks are what no page may show: the players' addresses and reply tokens.
var leaks = regexp.MustCompile(`(?i)alice@|bob@|carol@|games\+`)

// TestRoutes asks for every route with good and bad input and checks the
// status, the security headers, and what the page says.
func TestRoutes(t *testing.T) {
	c := newArchive(t)
	if g, err := c.svc.PublicGame(1); err != nil || !g.Over {
		t.Fatalf("game 1 did not end: %v", err)
	}
	tests := []struct {
		name, method, target string
		status               int
		has                  []string
		lacks                []string
	}{
		{"front page", "GET", "/", 200, []string{"<h1>Games</h1>", `<a href="/games/2">2</a>`, `<a href="/games/1">1</a>`, `<a href="/games/4">4</a>`, "Alice Liddell (White) v player 2 (Black)", "Black resigned"}, []string{`href="/games/3"`}},
		{"front page as HEAD", "HEAD", "/", 200, nil, []string{"<h1>"}},
		{"front page, finished before 4", "GET", "/?over=4", 200, []string{`href="/games/1"`, "Back to the first page"}, []string{`href="/games/4"`}},
		{"front page, in play after 2", "GET", "/?play=2", 200, []string{"No game is being played after game 2"}, nil},
		{"front page, posted", "POST", "/", 405, []string{"read-only"}, nil},
		{"front page, deleted", "DELETE", "/games/1", 405, []string{"read-only"}, nil},
		{"cursor not a number", "GET", "/?play=abc", 400, []string{"is not a page cursor"}, nil},
		{"cursor with a leading zero", "GET", "/?over=07", 400, []string{"is not a page cursor"}, nil},
		{"cursor negative", "GET", "/?over=-1", 400, []string{"is not a page cursor"}, nil},
		{"unknown parameter", "GET", "/?page=2", 400, []string{"Unknown query parameter", "play, over"}, nil},
		{"parameter twice", "GET", "/?play=1&play=2", 400, []string{"is given 2 times"}, nil},
		{"broken query", "GET", "/?play=%zz", 400, []string{"cannot be read"}, nil},
		{"huge query", "GET", "/?play=" + strings.Repeat("9", 5000), 414, []string{"longer than 256 bytes"}, nil},
		{"huge path", "GET", "/games/" + strings.Repeat("1", 500), 414, []string{"longer than 128 bytes"}, nil},
		{"finished game", "GET", "/games/1", 200, []string{"Result: 1-0", "White wins", "Black resigned", "/games/1.pgn", "end &gt;|", `class="current"`, "Position", `name="ply"`}, []string{"to move</strong>"}},
		{"finished game, start position", "GET", "/games/1?ply=0", 200, []string{"The start position.", "the start, of 5 moves", "forward &gt;"}, nil},
		{"finished game, after move 3", "GET", "/games/1?ply=3", 200, []string{"After 2.", "after 2. of 5 moves", `href="/games/1?ply=2"`, `href="/games/1?ply=4"`}, nil},
		{"finished game, last position", "GET", "/games/1?ply=9", 200, []string{"after 5. of 5 moves", "Game over: White wins: Black resigned."}, []string{"to move."}},
		{"finished game, the page's own board", "GET", "/games/1", 200, []string{"after 5. of 5 moves", "Game over: White wins: Black resigned."}, []string{"to move."}},
		{"finished game, position past the end", "GET", "/games/1?ply=10", 400, []string{"ply= takes 0 (the start) to 9 (the end)"}, nil},
		{"finished game, position not a number", "GET", "/games/1?ply=x", 400, []string{"is not a position of game 1"}, nil},
		{"finished game, unknown parameter", "GET", "/games/1?move=3", 400, []string{"Unknown query parameter &#34;move&#34;"}, nil},
		{"finished Seachess game, secrets opened", "GET", "/games/4", 200, []string{"Secret moves, opened", "Cc1-M", "Si1v-j3", "the referee&#39;s full view"}, nil},
		{"game in play", "GET", "/games/2", 200, []string{"White to move</strong>", "what both sides know", "deadline", "<th>White</th><th>Black</th>"}, []string{"Result:", `name="ply"`}},
		{"game in play, no stepping", "GET", "/games/2?ply=1", 400, []string{"still being played"}, nil},
		{"challenge", "GET", "/games/3", 404, []string{"no game 3 to show"}, nil},
		{"unknown game", "GET", "/games/999", 404, []string{"no game 999"}, nil},
		{"game zero", "GET", "/games/0", 400, []string{"is not a game number"}, nil},
		{"game not a number", "GET", "/games/abc", 400, []string{"is not a game number"}, nil},
		{"game negative", "GET", "/games/-1", 400, []string{"is not a game number"}, nil},
		{"game with a leading zero", "GET", "/games/01", 400, []string{"is not a game number"}, nil},
		{"game number too long", "GET", "/games/123456789012345678901", 400, []string{"is not a game number"}, nil},
		{"game path too deep", "GET", "/games/1/moves", 404, []string{"There is no page /games/1/moves"}, nil},
		{"PGN of a finished game", "GET", "/games/1.pgn", 200, []string{`[Event "bottlepost game 1"]`, `[Result "1-0"]`}, []string{"<html"}},
		{"PGN of a finished Seachess game", "GET", "/games/4.pgn", 200, []string{"{secret move of White, commitment", `[Result "1-0"]`}, nil},
		{"PGN of a game in play", "GET", "/games/2.pgn", 409, []string{"still being played"}, nil},
		{"PGN of a challenge", "GET", "/games/3.pgn", 404, []string{"no finished game 3"}, nil},
		{"PGN of an unknown game", "GET", "/games/999.pgn", 404, []string{"no finished game 999"}, nil},
		{"PGN of a bad number", "GET", "/games/x.pgn", 400, []string{"is not a game number"}, nil},
		{"PGN with a query", "GET", "/games/1.pgn?x=1", 400, []string{"takes no query parameters"}, nil},
		{"variants", "GET", "/variants/", 200, []string{`href="/variants/chess"`, `href="/variants/transporter"`, "Baltic Sea Chess"}, nil},
		{"a variant", "GET", "/variants/seachess", 200, []string{"<h1>Seachess</h1>", "Ce5-M", "new seachess vs ADDRESS", "games@bottlepost.test"}, nil},
		{"a variant with a query", "GET", "/variants/chess?x=1", 400, []string{"takes no query parameters"}, nil},
		{"an unknown variant", "GET", "/variants/go", 404, []string{`There is no variant &#34;go&#34;`, "chess, seachess"}, nil},
		{"rating pools", "GET", "/ratings", 200, []string{"<h1>Ratings</h1>", `<a href="/ratings/chess">Chess</a></td><td>2</td><td>Alice Liddell (1662?), Bob (1338?)</td>`, `<a href="/ratings/seachess">Seachess</a></td><td>2</td><td>player 3 (1662?), Alice Liddell (1338?)</td>`, `href="/ratings/baltic/sc2022"`, "no rated game yet"}, nil},
		{"rating pools, trailing slash", "GET", "/ratings/", 200, []string{"<h1>Ratings</h1>", `href="/ratings/transporter"`}, nil},
		{"rating pools with a query", "GET", "/ratings?x=1", 400, []string{"takes no query parameters"}, nil},
		{"a pool's leaderboard", "GET", "/ratings/chess", 200, []string{"<h1>Ratings: Chess</h1>", "2 rated players", "<td>1</td><td>Alice Liddell</td><td>1662?</td><td>290</td><td>1</td><td>1</td><td>0</td><td>0</td>", "<td>2</td><td>Bob</td><td>1338?</td>"}, []string{"player 3"}},
		{"a pool with a nameless player", "GET", "/ratings/seachess", 200, []string{"<td>1</td><td>player 3</td><td>1662?</td>", "<td>2</td><td>Alice Liddell</td><td>1338?</td>"}, nil},
		{"a ruleset's pool, empty", "GET", "/ratings/baltic/sc2022", 200, []string{"<h1>Ratings: Baltic Sea Chess, sc2022</h1>", "No rated game has been played in this pool yet."}, nil},
		{"a pool with a query", "GET", "/ratings/chess?x=1", 400, []string{"takes no query parameters"}, nil},
		{"an unknown pool", "GET", "/ratings/go", 404, []string{"There is no rating pool &#34;go&#34;", "chess, seachess, submachine, baltic, baltic/sc2022, battle, transporter"}, nil},
		{"a pool path too deep", "GET", "/ratings/chess/x", 404, []string{"There is no rating pool"}, nil},
		{"an unknown page", "GET", "/admin", 404, []string{"There is no page /admin here."}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			c.srv.ServeHTTP(w, httptest.NewRequest(tc.method, tc.target, nil))
			got := body(w)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d:\n%s", w.Code, tc.status, got)
			}
			h := w.Header()
			if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "DENY" {
				t.Errorf("security headers missing: %v", h)
			}
			if h.Get("Cache-Control") == "" {
				t.Error("no Cache-Control")
			}
			if tc.status == 405 && h.Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q", h.Get("Allow"))
			}
			for _, want := range tc.has {
				if !strings.Contains(got, want) {
					t.Errorf("page lacks %q:\n%s", want, got)
				}
			}
			for _, bad := range tc.lacks {
				if strings.Contains(got, bad) {
					t.Errorf("page has %q:\n%s", bad, got)
				}
			}
			if leaks.MatchString(got) {
				t.Errorf("page shows an address or a token: %q", leaks.FindString(got))
			}
			if strings.Contains(got, "<script") {
				t.Error("page has a script")
			}
		})
	}
}

// TestCaching checks the cache lifetimes and that an unchanged page is
// answered 304 to a client that has it, and a changed one in full.
func TestCaching(t *testing.T) {
	c := newArchive(t)
	for _, tc := range []struct {
		target, cache string
	}{
		{"/", "public, max-age=10"},
		{"/games/2", "public, max-age=10"},
		{"/games/1", "public, max-age=3600"},
		{"/games/1.pgn", "public, max-age=3600"},
		{"/variants/chess", "public, max-age=3600"},
		{"/games/999", "no-store"},
	} {
		if got := c.get(tc.target).Header().Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s: Cache-Control %q, want %q", tc.target, got, tc.cache)
		}
	}
	w := c.get("/games/2")
	tag := w.Header().Get("ETag")
	if tag == "" {
		t.Fatal("no ETag")
	}
	r := httptest.NewRequest("GET", "/games/2", nil)
	r.Header.Set("If-None-Match", tag)
	w2 := httptest.NewRecorder()
	c.srv.ServeHTTP(w2, r)
	if w2.Code != http.StatusNotModified || w2.Body.Len() != 0 {
		t.Errorf("unchanged page: %d with %d bytes, want 304 and none", w2.Code, w2.Body.Len())
	}
	c.move(2, alice, c.nextMove(2))
	w3 := httptest.NewRecorder()
	c.srv.ServeHTTP(w3, r)
	if w3.Code != http.StatusOK || w3.Header().Get("ETag") == tag {
		t.Errorf("after a move: %d, ETag %s (was %s); want 200 and a new tag", w3.Code, w3.Header().Get("ETag"), tag)
	}
}

// nextMove is a legal move for the side to move in game id, from its
// public page's game (Chess hides nothing).
func (c *club) nextMove(id uint64) string {
	c.t.Helper()
	g, err := c.svc.PublicGame(id)
	if err != nil {
		c.t.Fatal(err)
	}
	st, err := g.Variant.New(rulesOptions())
	if err != nil {
		c.t.Fatal(err)
	}
	for _, m := range g.Moves {
		mv, err := st.Parse(m.Text)
		if err != nil {
			c.t.Fatal(err)
		}
		st, _, err = st.Apply(mv)
		if err != nil {
			c.t.Fatal(err)
		}
	}
	return st.Format(st.Moves()[0])
}

// TestPaging fills more games than a page holds and follows the links.
func TestPaging(t *testing.T) {
	c := newClub(t)
	players := []string{alice, bob, carol}
	n := web.PageSize + 3
	for i := range n {
		white, black := players[i%3], players[(i+1)%3]
		c.start("chess", white, black)
	}
	first := body(c.get("/"))
	ids := regexp.MustCompile(`<a href="/games/([0-9]+)">`).FindAllStringSubmatch(first, -1)
	if len(ids) != web.PageSize {
		t.Fatalf("the first page lists %d games, want %d", len(ids), web.PageSize)
	}
	next := regexp.MustCompile(`<a href="(/\?play=[0-9]+)">More games in play</a>`).FindStringSubmatch(first)
	if next == nil {
		t.Fatalf("no link to the next page:\n%s", first)
	}
	second := body(c.get(next[1]))
	more := regexp.MustCompile(`<a href="/games/([0-9]+)">`).FindAllStringSubmatch(second, -1)
	if len(more) != 3 || more[0][1] != fmt.Sprint(web.PageSize+1) {
		t.Errorf("the second page lists %v, want games %d to %d", more, web.PageSize+1, n)
	}
	if strings.Contains(second, "More games in play") {
		t.Error("the last page links to a next one")
	}
}

// TestPGNIsTheVerifiableRecord checks the served PGN verifies offline and
// is byte for byte the game's published record.
func TestPGNIsTheVerifiableRecord(t *testing.T) {
	c := newArchive(t)
	for _, id := range []uint64{1, 4} {
		w := c.get(fmt.Sprintf("/games/%d.pgn", id))
		if w.Code != 200 {
			t.Fatalf("game %d: %d", id, w.Code)
		}
		want, err := c.svc.PublicPGN(id)
		if err != nil {
			t.Fatal(err)
		}
		got := w.Body.Bytes()
		if !bytes.Equal(got, want) {
			t.Errorf("game %d: the served PGN is not the published one", id)
		}
		v, err := record.Verify(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("game %d: the PGN does not verify: %v", id, err)
		}
		if v.Game != id {
			t.Errorf("verified game %d, want %d", v.Game, id)
		}
		if cd := w.Header().Get("Content-Disposition"); cd != fmt.Sprintf(`inline; filename="bp-%d.pgn"`, id) {
			t.Errorf("Content-Disposition %q", cd)
		}
	}
}

// slowSource is the real service with a gate before each list: a request
// holding the only turn waits there until the test opens it.
type slowSource struct {
	web.Source
	entered chan struct{} // told when a request reaches the gate
	gate    chan struct{}
}

func (s slowSource) PublicGames(over bool, from uint64, limit int) (*game.GameList, error) {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-s.gate
	return s.Source.PublicGames(over, from, limit)
}

// TestBusy checks that at most Workers pages are drawn at once and that a
// request that cannot get a turn in time is answered 503 with Retry-After.
func TestBusy(t *testing.T) {
	c := newClub(t)
	gate, entered := make(chan struct{}), make(chan struct{}, 1)
	srv := web.New(slowSource{c.svc, entered, gate}, web.Options{Workers: 1, Wait: 50 * time.Millisecond})
	first := make(chan int)
	go func() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
		first <- w.Code
	}()
	<-entered // the first request holds the turn
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/variants/chess", nil))
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") == "" {
		t.Errorf("second request: %d, Retry-After %q; want 503 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
	close(gate)
	if code := <-first; code != http.StatusOK {
		t.Errorf("first request: %d", code)
	}
	w = httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("GET", "/variants/chess", nil))
	if w.Code != http.StatusOK {
		t.Errorf("after the turn was given back: %d", w.Code)
	}
}

// TestKeptPageFollowsTheGame checks that a kept page is drawn again when
// the game changes without a move: a vacation moves the deadline.
func TestKeptPageFollowsTheGame(t *testing.T) {
	c := newArchive(t)
	before := body(c.get("/games/2"))
	if again := body(c.get("/games/2")); again != before {
		t.Fatal("the same game gave two pages")
	}
	c.move0(2, alice, "vacation 3 days") // White is to move in game 2
	after := body(c.get("/games/2"))
	if after == before {
		t.Fatalf("the page did not change after the player to move went on vacation:\n%s", after)
	}
	deadline := regexp.MustCompile(`deadline ([^.]*UTC)`)
	if d0, d1 := deadline.FindStringSubmatch(before), deadline.FindStringSubmatch(after); d0 == nil || d1 == nil || d0[1] == d1[1] {
		t.Errorf("deadline before %v, after %v: want a later one", d0, d1)
	}
}

// TestIndexSkipsADamagedGame: a game whose stored record is damaged is left
// out of the index, which names it, and the other games are listed as ever;
// before issue 38 the one damaged game made the index an HTTP 500 for
// everyone.
func TestIndexSkipsADamagedGame(t *testing.T) {
	c := newClub(t)
	c.start("chess", alice, bob)
	c.start("chess", carol, bob)
	if err := c.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		g.Meta = g.Meta[:len(g.Meta)/2]
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	rec := c.get("/")
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d:\n%s", rec.Code, body)
	}
	if !strings.Contains(body, "Game 1 cannot be shown: its stored record is damaged.") || !strings.Contains(body, `href="/games/2"`) {
		t.Errorf("the damaged game is not named, or the sound one not listed:\n%s", body)
	}
	if strings.Contains(body, `href="/games/1"`) {
		t.Errorf("the damaged game is linked:\n%s", body)
	}
	// Its own page says what is wrong with it; the other game's is served.
	if rec := c.get("/games/1"); rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "game 1 cannot be shown, because its stored record is damaged") {
		t.Errorf("/games/1: %d\n%s", rec.Code, rec.Body.String())
	}
	if rec := c.get("/games/2"); rec.Code != http.StatusOK {
		t.Errorf("/games/2: %d\n%s", rec.Code, rec.Body.String())
	}
}
