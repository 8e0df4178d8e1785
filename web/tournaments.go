package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/game"
)

// The tournament pages: /tournaments lists the tournaments, newest first;
// /tournaments/N is one's standings, crosstable and games, each game
// linked to its page. Players are named as everywhere on the web, never
// by address; a page shows results only, never a move. Kept by visitors'
// caches for a minute, as the rating pages.

func (s *Server) tournamentList(w http.ResponseWriter, r *http.Request) {
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	list, err := s.src.PublicTournaments()
	if err != nil {
		s.systemError(w, r, err)
		return
	}
	cache(w, ratingsMaxAge)
	s.render(w, r, http.StatusOK, "tournaments.html", page{Title: "Tournaments", Data: list}, true)
}

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	if _, msg := query(r); msg != "" {
		s.fail(w, r, http.StatusBadRequest, msg)
		return
	}
	text, pgn := strings.CutSuffix(r.PathValue("id"), ".pgn")
	id, err := strconv.ParseUint(text, 10, 64)
	if err != nil || id == 0 {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("%q is not a tournament number.", r.PathValue("id")))
		return
	}
	if pgn {
		s.tournamentPGN(w, r, id)
		return
	}
	t, err := s.src.PublicTournament(id)
	switch {
	case errors.Is(err, game.ErrNotPublic):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no tournament %d.", id))
		return
	case err != nil:
		s.systemError(w, r, err)
		return
	}
	cache(w, ratingsMaxAge)
	s.render(w, r, http.StatusOK, "tournament.html", page{Title: "Tournament " + strconv.FormatUint(id, 10) + ": " + t.Name, Data: t}, true)
}

// tournamentPGN serves /tournaments/N.pgn: every finished game of the
// tournament, each its own verifiable file, one after another.
func (s *Server) tournamentPGN(w http.ResponseWriter, r *http.Request, id uint64) {
	pgn, err := s.src.PublicTournamentPGN(id)
	switch {
	case errors.Is(err, game.ErrNotPublic):
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no tournament %d.", id))
		return
	case err != nil:
		s.systemError(w, r, err)
		return
	}
	cache(w, ratingsMaxAge)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`inline; filename="tournament-%d.pgn"`, id))
	s.send(w, r, http.StatusOK, "application/x-chess-pgn; charset=utf-8", pgn, true)
}
