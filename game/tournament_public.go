package game

import (
	"errors"
	"fmt"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// The public side of tournaments, for the web view (/tournaments): names
// only, never an address; results only, never a move, whatever the
// variant (a Seachess section's page says no more than its crosstable).

// PublicTournament is what anyone may see of a tournament: its terms, its
// standings and crosstable, and its games with their results.
type PublicTournament struct {
	ID                    uint64
	Name, Variant, Kind   string
	Phase                 string // invited, playing, over, cancelled
	Players, Games, Ended int
	Created, Started      time.Time
	// Standings are the players in the order of the standings (empty
	// before the start), Grid the crosstable's rows in draw order, each
	// cell the player's results against the column's player.
	Standings []PublicTournamentRow
	Grid      [][]string
	Pairings  []PublicTournamentGame
}

// PublicTournamentRow is a player's line of the standings.
type PublicTournamentRow struct {
	Place, Name, Points, SB string
	No, Wins                int
}

// PublicTournamentGame is one game of a tournament: its number, round,
// players (names) and result ("" while it goes on).
type PublicTournamentGame struct {
	ID           uint64
	Round        int
	White, Black string
	Result       string
	Forfeit      bool
}

// PublicTournaments lists every tournament, newest first, without their
// games.
func (s *Service) PublicTournaments() ([]*PublicTournament, error) {
	var out []*PublicTournament
	err := s.st.View(func(tx *store.Tx) error {
		n, err := tournamentCount(tx)
		if err != nil {
			return err
		}
		for id := n; id >= 1; id-- {
			t, err := loadTournament(tx, id)
			if err != nil {
				var ue *userError
				if errors.As(err, &ue) {
					continue
				}
				return err
			}
			out = append(out, t.public(tx, false))
		}
		return nil
	})
	if err != nil {
		return nil, &SystemError{Err: err}
	}
	return out, nil
}

// PublicTournament is tournament id with its standings, crosstable and
// games; ErrNotPublic when there is none.
func (s *Service) PublicTournament(id uint64) (*PublicTournament, error) {
	var out *PublicTournament
	err := s.st.View(func(tx *store.Tx) error {
		t, err := loadTournament(tx, id)
		if err != nil {
			var ue *userError
			if errors.As(err, &ue) {
				return ErrNotPublic
			}
			return err
		}
		out = t.public(tx, true)
		return nil
	})
	if errors.Is(err, ErrNotPublic) {
		return nil, err
	}
	if err != nil {
		return nil, &SystemError{Err: err}
	}
	return out, nil
}

// public is the tournament as the public sees it; full adds the
// standings, the crosstable and the games.
func (t *tournament) public(tx *store.Tx, full bool) *PublicTournament {
	p := &PublicTournament{ID: t.ID, Name: t.Name, Variant: variantName(t), Kind: t.kind().String(), Phase: t.Phase,
		Players: len(t.Players), Games: len(t.Games), Created: t.Created, Started: t.Started}
	for _, g := range t.Games {
		if g.Result != "" {
			p.Ended++
		}
	}
	if !full || t.Phase == tourInvited || t.Phase == tourCancelled {
		return p
	}
	names := t.names(tx)
	games := t.tableGames()
	st := standings(len(names), games)
	for i, s := range st {
		place := ordinal(s.Rank)
		if i > 0 && st[i-1].Rank == s.Rank || i+1 < len(st) && st[i+1].Rank == s.Rank {
			place = "=" + place
		}
		p.Standings = append(p.Standings, PublicTournamentRow{Place: place, No: s.Player + 1, Name: names[s.Player],
			Points: scoreText(s.Halves), SB: sbText(s.SB), Wins: s.Wins})
	}
	p.Grid = grid(len(names), games)
	for _, g := range t.Games {
		p.Pairings = append(p.Pairings, PublicTournamentGame{ID: g.Game, Round: g.Round, White: names[g.White], Black: names[g.Black],
			Result: g.Result, Forfeit: g.Forfeit})
	}
	return p
}

// TournamentPGN is every finished game of tournament id, in the order of
// its table, each exactly its own verifiable file (record.FinalPGN, with
// the tournament's name and the round in its Event and Round tags), one
// after another: the web's /tournaments/N.pgn and bottlepost export
// --tournament N. An unknown tournament gives ErrNotPublic.
func TournamentPGN(tx *store.Tx, id uint64) ([]byte, error) {
	t, err := loadTournament(tx, id)
	if err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			return nil, ErrNotPublic
		}
		return nil, err
	}
	var out []byte
	for _, g := range t.Games {
		if g.Result == "" {
			continue
		}
		pgn, err := record.FinalPGN(tx, g.Game)
		if err != nil {
			return nil, fmt.Errorf("game: tournament %d, game %d: %w", id, g.Game, err)
		}
		if len(out) > 0 {
			out = append(out, '\n')
		}
		out = append(out, pgn...)
	}
	return out, nil
}

// PublicTournamentPGN is TournamentPGN for the web view.
func (s *Service) PublicTournamentPGN(id uint64) ([]byte, error) {
	var out []byte
	err := s.st.View(func(tx *store.Tx) error {
		var err error
		out, err = TournamentPGN(tx, id)
		return err
	})
	if errors.Is(err, ErrNotPublic) {
		return nil, err
	}
	if err != nil {
		return nil, &SystemError{Err: err}
	}
	return out, nil
}
