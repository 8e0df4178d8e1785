package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/bottlepost/bottlepost/game"
)

// The rating pages: /ratings lists the pools (one per variant and
// ruleset) with their leaders, /ratings/POOL is a pool's leaderboard
// (/ratings/chess, /ratings/baltic/sc2022). Players are named as the game
// service names them on every public page, never by address. Each page
// reads every player once (the pools are built from the players' standings);
// it is kept by visitors' caches for a minute.

// ratingsMaxAge is how long browsers may keep a rating page: a rating
// changes only when a game ends.
const ratingsMaxAge = 60

// poolsData is the page of pools.
type poolsData struct {
	Pools []poolSummary
}

// poolSummary is one pool on the page of pools: its size and its leaders.
type poolSummary struct {
	Pool, Title string
	Players     int
	Leaders     []game.PublicStanding // the first three
}

func (s *Server) ratingPools(w http.ResponseWriter, r *http.Request) {
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	pools, err := s.src.PublicPools()
	if err != nil {
		s.systemError(w, r, err)
		return
	}
	var d poolsData
	for _, p := range pools {
		d.Pools = append(d.Pools, poolSummary{Pool: p.Pool, Title: p.Title, Players: len(p.Players), Leaders: p.Players[:min(3, len(p.Players))]})
	}
	cache(w, ratingsMaxAge)
	s.render(w, r, http.StatusOK, "ratings.html", page{Title: "Ratings", Data: d}, true)
}

func (s *Server) ratingPool(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("pool")
	if name == "" {
		s.ratingPools(w, r)
		return
	}
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	p, err := s.src.PublicRatings(name)
	switch {
	case errors.Is(err, game.ErrNoPool):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no rating pool %q: the pools are %s.", name, strings.Join(game.RatingPools(), ", ")))
		return
	case err != nil:
		s.systemError(w, r, err)
		return
	}
	cache(w, ratingsMaxAge)
	s.render(w, r, http.StatusOK, "pool.html", page{Title: "Ratings: " + p.Title, Data: p}, true)
}
