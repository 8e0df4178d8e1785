// Package web is bottlepost's read-only web view: the games in play and
// the archive of finished games for spectators, one page per game with its
// board and record, each finished game's verifiable PGN, the rules of
// every variant, and the rating pools with their leaderboards
// (ratings.go).
//
// It is safe by construction: a handler reads games only through Source,
// which offers the public view of a game in play (exactly what an observer
// receives by mail) and the full record of a finished one, nothing else.
// Nothing changes anything (GET and HEAD only), every response carries a
// Content-Security-Policy without scripts and X-Content-Type-Options, and
// a request does at most one game's work (a rating page reads the players'
// standings, no game). Pages use net/http and html/template with no
// JavaScript; boards come from rules/htmlboard, the renderer of the HTML
// mail.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// Source is everything the web view may read: public views of games in
// play, finished games, lists of both, and finished games' PGN files.
// *game.Service implements it.
type Source interface {
	PublicGame(id uint64) (*game.PublicGame, error)
	PublicGames(over bool, from uint64, limit int) (*game.GameList, error)
	PublicPGN(id uint64) ([]byte, error)
	// PublicStamp changes whenever anything the game's page shows may
	// have changed; it is cheap to read, so drawn pages can be kept.
	PublicStamp(id uint64) (string, error)
	// PublicPools and PublicRatings are the rating pools and a pool's
	// leaderboard (ratings.go), players by name only.
	PublicPools() ([]*game.PublicPool, error)
	PublicRatings(pool string) (*game.PublicPool, error)
	// PublicTournaments and PublicTournament are the tournaments and one
	// tournament's standings (tournaments.go), players by name only.
	PublicTournaments() ([]*game.PublicTournament, error)
	PublicTournament(id uint64) (*game.PublicTournament, error)
	PublicTournamentPGN(id uint64) ([]byte, error)
}

// Limits on requests: a longer query or path is refused before any work.
const (
	MaxQuery = 256
	MaxPath  = 128
	// PageSize is the number of games per page of a list.
	PageSize = 25
	// cacheGames is how many finished games (immutable) are kept replayed.
	cacheGames = 32
	// keepPages is how many drawn game pages are kept by default, each
	// with the game's stamp it was drawn at.
	keepPages = 128
)

// Options configure a Server.
type Options struct {
	Logger *slog.Logger
	// Name is the service's name shown in titles; default "bottlepost".
	Name string
	// Address is the service's mail address, quoted on the pages so that
	// visitors know where to play.
	Address string
	// Workers is how many pages are drawn at once; more requests wait for
	// a turn (at most Wait, then 503). 0 means half the CPUs, at least 1:
	// the web view never takes the whole machine from mail handling.
	Workers int
	// Wait is the longest a request waits for a turn; 0 means 5 s.
	Wait time.Duration
	// KeepPages is how many drawn game pages are kept and served again
	// while their game's stamp stays the same; 0 means 128, negative none.
	KeepPages int
	// ClientRequests is how many requests one client (an IP address) may
	// have in the server at once, waiting for a turn or being drawn; more
	// are answered 429 at once (clients.go). 0 means 4.
	ClientRequests int
}

// Server serves the pages. It is an http.Handler.
type Server struct {
	src  Source
	opt  Options
	log  *slog.Logger
	tmpl *template.Template
	mux  *http.ServeMux

	turns   chan struct{} // a token per page being drawn (Options.Workers)
	clients *counts       // each client's requests in the server (Options.ClientRequests)

	mu       sync.Mutex
	finished map[uint64]*game.PublicGame // replayed finished games
	order    []uint64                    // oldest first, for eviction
	pages    map[string]drawn            // game pages by path and query, with their stamps
}

//go:embed templates/*.html
var templateFiles embed.FS

// New builds a server reading from src.
func New(src Source, opt Options) *Server {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Name == "" {
		opt.Name = "bottlepost"
	}
	if opt.Workers <= 0 {
		opt.Workers = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if opt.Wait <= 0 {
		opt.Wait = 5 * time.Second
	}
	if opt.KeepPages == 0 {
		opt.KeepPages = keepPages
	}
	if opt.ClientRequests <= 0 {
		opt.ClientRequests = 4
	}
	s := &Server{src: src, opt: opt, log: opt.Logger, finished: map[uint64]*game.PublicGame{}, pages: map[string]drawn{},
		turns: make(chan struct{}, opt.Workers), clients: newCounts(opt.ClientRequests)}
	s.tmpl = template.Must(template.New("").Funcs(template.FuncMap{
		"time": func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
		},
		"date": func(t time.Time) string { return t.UTC().Format("2 Jan 2006") },
		"inc":  func(i int) int { return i + 1 },
	}).ParseFS(templateFiles, "templates/*.html"))
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("/{$}", s.index)
	s.mux.HandleFunc("/games/{id}", s.gamePage)
	s.mux.HandleFunc("/variants/{$}", s.variantList)
	s.mux.HandleFunc("/variants/{id}", s.variantPage)
	s.mux.HandleFunc("/ratings", s.ratingPools)
	s.mux.HandleFunc("/ratings/{pool...}", s.ratingPool)
	s.mux.HandleFunc("/tournaments", s.tournamentList)
	s.mux.HandleFunc("/tournaments/{id}", s.tournamentPage)
	s.mux.HandleFunc("/", s.notFound)
	return s
}

// csp allows no script at all, inline styles (the boards are drawn with
// inline styles, as in mail), no framing and forms to this site only.
const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// ServeHTTP sets the security headers, refuses what no page accepts
// (methods other than GET and HEAD, overlong paths and queries), and
// dispatches.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		s.fail(w, r, http.StatusMethodNotAllowed, "This site is read-only: only GET and HEAD are answered.")
		return
	}
	if len(r.URL.RawQuery) > MaxQuery {
		s.fail(w, r, http.StatusRequestURITooLong, fmt.Sprintf("The query is longer than %d bytes; no page takes one so long.", MaxQuery))
		return
	}
	if len(r.URL.EscapedPath()) > MaxPath {
		s.fail(w, r, http.StatusRequestURITooLong, fmt.Sprintf("The path is longer than %d bytes; no page has one so long.", MaxPath))
		return
	}
	// One client has at most ClientRequests requests in here at once.
	client := clientOf(r)
	if !s.clients.take(client) {
		h.Set("Retry-After", "5")
		s.fail(w, r, http.StatusTooManyRequests, "Too many requests from your address at once: please wait for the pages you asked for.")
		return
	}
	defer s.clients.give(client)
	// Wait for a turn: however many visitors come at once, at most
	// Workers pages are drawn together, and mail handling keeps the rest
	// of the machine.
	timer := time.NewTimer(s.opt.Wait)
	defer timer.Stop()
	select {
	case s.turns <- struct{}{}:
	case <-timer.C:
		h.Set("Retry-After", "5")
		s.fail(w, r, http.StatusServiceUnavailable, "Too many visitors at once: please try again in a few seconds.")
		return
	case <-r.Context().Done():
		return
	}
	// The page is drawn into a buffer with the turn, and written to the
	// connection without it: a client that does not read holds no turn
	// (clients.go).
	bw := &bufferedWriter{w: w}
	func() {
		defer func() { <-s.turns }()
		s.mux.ServeHTTP(bw, r)
	}()
	bw.flush()
}

// notFound answers every path no page has.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.fail(w, r, http.StatusNotFound, "There is no page "+r.URL.Path+" here.")
}

// page is the data of every template: the layout's and the page's own.
type page struct {
	Name, Address, Title string
	Status               int
	Message              string
	Data                 any
}

// fail answers with an error page saying what is wrong.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, status, "error.html", page{Title: http.StatusText(status), Status: status, Message: msg}, false)
}

// render executes a template into a buffer (so that a template error
// becomes a 500, not half a page), sets the content headers and an ETag,
// and answers a matching If-None-Match with 304.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, p page, etag bool) {
	body, ok := s.draw(name, p)
	if !ok {
		status, etag = http.StatusInternalServerError, false
	}
	s.send(w, r, status, "text/html; charset=utf-8", body, etag)
}

// draw executes a template; a failure is logged and gives an apology page
// and ok false.
func (s *Server) draw(name string, p page) (body []byte, ok bool) {
	p.Name, p.Address = s.opt.Name, s.opt.Address
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, p); err != nil {
		s.log.Error("web: template", "page", name, "err", err)
		return []byte("<!DOCTYPE html><title>Server error</title><p>Sorry: this page could not be drawn. The error is logged.</p>\n"), false
	}
	return buf.Bytes(), true
}

// drawn is a game page kept with the stamp of the game it shows.
type drawn struct {
	stamp, cache string
	body         []byte
}

func (s *Server) keptPage(key, stamp string) (drawn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pages[key]
	return p, ok && p.stamp == stamp
}

func (s *Server) keepPage(key string, p drawn) {
	if s.opt.KeepPages < 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pages) >= s.opt.KeepPages {
		clear(s.pages) // start again: a miss only costs drawing the page
	}
	s.pages[key] = p
}

func (s *Server) send(w http.ResponseWriter, r *http.Request, status int, ctype string, body []byte, etag bool) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	if etag && status == http.StatusOK {
		sum := sha256.Sum256(body)
		tag := `"` + hex.EncodeToString(sum[:12]) + `"`
		h.Set("ETag", tag)
		if match := r.Header.Get("If-None-Match"); match != "" && etagMatches(match, tag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == tag || t == "*" {
			return true
		}
	}
	return false
}

// cache sets Cache-Control: finished games and rules keep, lists and games
// in play change with every move.
func cache(w http.ResponseWriter, seconds int) {
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", seconds))
}

// query checks a request's query: only the named parameters, each at most
// once. It returns the values or an error message for the visitor.
func query(r *http.Request, allowed ...string) (map[string]string, string) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, "The query cannot be read: " + err.Error() + "."
	}
	out := map[string]string{}
	for k, vs := range q {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			if len(allowed) == 0 {
				return nil, fmt.Sprintf("This page takes no query parameters (got %q).", k)
			}
			return nil, fmt.Sprintf("Unknown query parameter %q (this page takes: %s).", k, strings.Join(allowed, ", "))
		}
		if len(vs) != 1 {
			return nil, fmt.Sprintf("The query parameter %q is given %d times.", k, len(vs))
		}
		out[k] = vs[0]
	}
	return out, ""
}

// number reads a decimal game number or cursor: digits only, no sign, no
// leading zero, at most 19 digits.
func number(s string) (uint64, bool) {
	if s == "" || len(s) > 19 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

// indexData is the front page.
type indexData struct {
	Playing, Finished  []game.GameSummary
	NextPlay, NextOver string // links to the next pages, "" at the end
	PlayFrom, OverFrom uint64
	FirstPage          bool
	// PlayDamaged and OverDamaged are the games each list left out because their
	// stored record is damaged (game.GameList.Damaged): the page names them.
	PlayDamaged, OverDamaged []uint64
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	q, msg := query(r, "play", "over")
	if msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	var from [2]uint64
	for i, k := range []string{"play", "over"} {
		if v, ok := q[k]; ok {
			n, good := number(v)
			if !good {
				s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a page cursor: %s= takes a game number.", v, k))
				return
			}
			from[i] = n
		}
	}
	playing, err := s.src.PublicGames(false, from[0], PageSize)
	if err != nil {
		s.systemError(w, r, err)
		return
	}
	finished, err := s.src.PublicGames(true, from[1], PageSize)
	if err != nil {
		s.systemError(w, r, err)
		return
	}
	d := indexData{Playing: playing.Games, Finished: finished.Games, PlayFrom: from[0], OverFrom: from[1], FirstPage: len(q) == 0,
		PlayDamaged: playing.Damaged, OverDamaged: finished.Damaged}
	link := func(play, over uint64) string {
		v := url.Values{}
		if play != 0 {
			v.Set("play", strconv.FormatUint(play, 10))
		}
		if over != 0 {
			v.Set("over", strconv.FormatUint(over, 10))
		}
		return "/?" + v.Encode()
	}
	if playing.Next != 0 {
		d.NextPlay = link(playing.Next, from[1])
	}
	if finished.Next != 0 {
		d.NextOver = link(from[0], finished.Next)
	}
	cache(w, 10)
	s.render(w, r, http.StatusOK, "index.html", page{Title: "Games", Data: d}, true)
}

// damagedGame answers a request for a game whose stored record is damaged (the game
// service has logged it): that game alone cannot be shown.
func (s *Server) damagedGame(w http.ResponseWriter, r *http.Request, id uint64) {
	s.fail(w, r, http.StatusInternalServerError, fmt.Sprintf("Sorry: game %d cannot be shown, because its stored record is damaged. The operator has been told; the other games are not affected.", id))
}

// systemError logs a failure of the service and apologises.
func (s *Server) systemError(w http.ResponseWriter, r *http.Request, err error) {
	s.log.Error("web: reading the games failed", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError, "Sorry: the games could not be read just now. The error is logged; please try again later.")
}

// row is one full move of the record: the move number and each side's move.
type row struct {
	Number string
	Cells  [2]*cell
}

// cell is one move of the record: its text, its position's link (finished
// games), whether that position is the one shown, and whether the move was
// secret (shown in italics).
type cell struct {
	Text, Link string
	Current    bool
	Secret     bool
}

// gameData is a game's page.
type gameData struct {
	G                       *game.PublicGame
	Board                   template.HTML
	Rows                    []row
	Columns                 [2]string // the sides in the order they move
	Record                  template.HTML
	Ply                     int // the position shown (finished games), len(Moves) for the end
	Stepping                bool
	First, Prev, Next, Last string // links, "" where there is none
	Caption                 string
	Secrets                 []game.PublicMove // with their openings once the game is over
	PGN                     string
	// Position says where the stepper stands, in the moves players count
	// (positionLabel).
	Position string
}

// positionLabel says which of a finished game's positions the stepper
// shows, in full moves as players count them: "the start, of 23 moves",
// "after 12... of 23 moves" (the game's plies in all).
func positionLabel(ply, plies int) string {
	var total string
	switch n, _ := rules.MoveNumber(plies - 1); {
	case plies == 0:
		total = "no moves"
	case n == 1:
		total = "1 move"
	default:
		total = fmt.Sprintf("%d moves", n)
	}
	if ply == 0 {
		return "the start, of " + total
	}
	return "after " + rules.MoveLabel(ply-1) + " of " + total
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("id")
	id, isPGN := raw, false
	if strings.HasSuffix(raw, ".pgn") {
		id, isPGN = strings.TrimSuffix(raw, ".pgn"), true
	}
	n, ok := number(id)
	if !ok || n == 0 {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a game number: game pages are /games/1, /games/2, …", raw))
		return
	}
	if isPGN {
		s.pgn(w, r, n)
		return
	}
	q, msg := query(r, "ply")
	if msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	// A page drawn for the game as it stands now is served again.
	stamp, err := s.src.PublicStamp(n)
	var g *game.PublicGame
	if err == nil {
		key := fmt.Sprintf("%d?%s", n, q["ply"])
		if p, ok := s.keptPage(key, stamp); ok {
			w.Header().Set("Cache-Control", p.cache)
			s.send(w, r, http.StatusOK, "text/html; charset=utf-8", p.body, true)
			return
		}
		g, err = s.game(n)
	}
	switch {
	case errors.Is(err, game.ErrNotPublic):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no game %d to show: it does not exist, or it is a challenge not yet accepted.", n))
		return
	case game.DamagedGame(err) != 0:
		s.damagedGame(w, r, n)
		return
	case err != nil:
		s.systemError(w, r, err)
		return
	}
	d := gameData{G: g, Ply: len(g.Moves), PGN: fmt.Sprintf("/games/%d.pgn", g.ID)}
	if v, ok := q["ply"]; ok {
		if g.Over && g.Positions == nil {
			s.fail(w, r, http.StatusNotFound, fmt.Sprintf("The positions of game %d cannot be shown: its record does not replay (the error is logged).", n))
			return
		}
		if !g.Over {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("Game %d is still being played: stepping through its positions opens when it ends.", n))
			return
		}
		p, good := number(v)
		if !good || p > uint64(len(g.Moves)) {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a position of game %d: ply= takes 0 (the start) to %d (the end).", v, n, len(g.Moves)))
			return
		}
		d.Ply = int(p)
	}
	d.Position = positionLabel(d.Ply, len(g.Moves))
	pageLink := func(ply int) string { return fmt.Sprintf("/games/%d?ply=%d", g.ID, ply) }
	if g.Over && g.Positions == nil {
		d.Board = htmlboard.Render(g.Board, htmlboard.Options{})
		cache(w, 3600)
	} else if g.Over {
		d.Stepping = true
		view := g.Positions[d.Ply].View(rules.ViewReferee)
		if d.Ply == len(g.Moves) {
			view = g.Board // the end: how the game ended, not whose move it would be
		}
		var last []rules.Square
		if d.Ply > 0 {
			last = htmlboard.LastMove(g.Reports[d.Ply-1], g.Variant.Board(), rules.ViewReferee)
		}
		d.Board = htmlboard.Render(view, htmlboard.Options{Last: last})
		if d.Ply > 0 {
			d.First, d.Prev = pageLink(0), pageLink(d.Ply-1)
			m := g.Moves[d.Ply-1]
			d.Caption = fmt.Sprintf("After %s %s (%s).", m.Number, m.Text, g.Sides[m.Side])
		} else {
			d.Caption = "The start position."
		}
		if d.Ply < len(g.Moves) {
			d.Next, d.Last = pageLink(d.Ply+1), pageLink(len(g.Moves))
		}
		cache(w, 3600)
	} else {
		d.Board = htmlboard.Render(g.Board, htmlboard.Options{Last: g.Last})
		cache(w, 10)
	}
	for _, m := range g.Moves {
		if m.Secret {
			d.Secrets = append(d.Secrets, m)
		}
	}
	// One row per full move, numbered from the variant's first mover
	// (rules.MoveNumber): the first mover's move, then the reply.
	for i, m := range g.Moves {
		n, reply := rules.MoveNumber(i)
		if !reply || len(d.Rows) == 0 {
			d.Rows = append(d.Rows, row{Number: strconv.Itoa(n)})
		}
		if i == 0 {
			d.Columns = [2]string{g.Sides[m.Side], g.Sides[m.Side.Other()]}
		}
		c := &cell{Text: m.Text, Secret: m.Secret}
		if g.Over && g.Positions != nil {
			c.Link, c.Current = pageLink(i+1), d.Ply == i+1
		}
		col := 0
		if reply {
			col = 1
		}
		d.Rows[len(d.Rows)-1].Cells[col] = c
	}
	d.Record = recordHTML(d.Columns, d.Rows)
	body, ok := s.draw("game.html", page{Title: fmt.Sprintf("Game %d: %s", g.ID, g.Variant.Name()), Data: d})
	if !ok {
		s.send(w, r, http.StatusInternalServerError, "text/html; charset=utf-8", body, false)
		return
	}
	s.keepPage(fmt.Sprintf("%d?%s", n, q["ply"]), drawn{stamp: stamp, cache: w.Header().Get("Cache-Control"), body: body})
	s.send(w, r, http.StatusOK, "text/html; charset=utf-8", body, true)
}

// recordHTML writes the record table directly: a 200-move game has 400
// cells, and through the template's reflection they cost most of the
// page's time.
func recordHTML(columns [2]string, rows []row) template.HTML {
	if len(rows) == 0 {
		return `<p class="muted">No move yet.</p>` + "\n"
	}
	var b strings.Builder
	b.Grow(len(rows) * 120)
	b.WriteString(`<table class="record">` + "\n<tr><td></td><th>" + html.EscapeString(columns[0]) + "</th><th>" + html.EscapeString(columns[1]) + "</th></tr>\n")
	for _, r := range rows {
		b.WriteString(`<tr><td class="n">` + r.Number + ".</td>")
		for _, c := range r.Cells {
			b.WriteString("<td>")
			switch {
			case c == nil:
				b.WriteString("…")
			default:
				text := html.EscapeString(c.Text)
				if c.Secret {
					text = `<em title="a secret move">` + text + "</em>"
				}
				if c.Link != "" {
					cls := ""
					if c.Current {
						cls = ` class="current"`
					}
					text = `<a href="` + html.EscapeString(c.Link) + `"` + cls + ">" + text + "</a>"
				}
				b.WriteString(text)
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
	return template.HTML(b.String())
}

// game reads a game, keeping finished ones (which never change) replayed.
func (s *Server) game(id uint64) (*game.PublicGame, error) {
	s.mu.Lock()
	g, ok := s.finished[id]
	s.mu.Unlock()
	if ok {
		return g, nil
	}
	g, err := s.src.PublicGame(id)
	if err != nil || !g.Over {
		return g, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.finished[id]; !ok {
		if len(s.order) >= cacheGames {
			delete(s.finished, s.order[0])
			s.order = s.order[1:]
		}
		s.finished[id] = g
		s.order = append(s.order, id)
	}
	return g, nil
}

func (s *Server) pgn(w http.ResponseWriter, r *http.Request, id uint64) {
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	data, err := s.src.PublicPGN(id)
	switch {
	case errors.Is(err, game.ErrNotFinished):
		s.fail(w, r, http.StatusConflict, fmt.Sprintf("Game %d is still being played: its record, with the secret moves opened, is published when it ends.", id))
		return
	case errors.Is(err, game.ErrNotPublic):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no finished game %d.", id))
		return
	case game.DamagedGame(err) != 0:
		s.damagedGame(w, r, id)
		return
	case err != nil:
		s.systemError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="bp-%d.pgn"`, id))
	cache(w, 3600)
	s.send(w, r, http.StatusOK, "application/x-chess-pgn; charset=utf-8", data, true)
}

// variantData is a variant's page.
type variantData struct {
	V     rules.Variant
	Help  string
	Board template.HTML
}

func (s *Server) variantList(w http.ResponseWriter, r *http.Request) {
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	cache(w, 3600)
	s.render(w, r, http.StatusOK, "variants.html", page{Title: "Variants", Data: variants.All()}, true)
}

func (s *Server) variantPage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var v rules.Variant
	for _, c := range variants.All() {
		if c.ID() == id {
			v = c
		}
	}
	if v == nil {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no variant %q: the variants are %s.", id, strings.Join(variants.IDs, ", ")))
		return
	}
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	d := variantData{V: v, Help: v.Help()}
	if st, err := v.New(rules.Options{}); err == nil {
		d.Board = htmlboard.Render(st.View(rules.ViewPublic), htmlboard.Options{})
	}
	cache(w, 3600)
	s.render(w, r, http.StatusOK, "variant.html", page{Title: v.Name(), Data: d}, true)
}
