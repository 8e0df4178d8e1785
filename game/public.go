package game

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/htmlboard"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// The public side of the service: what anyone may see of the games, for
// the web view. While a game is on that is exactly what its observers
// receive by mail (the public view and the public record lines, never a
// secret move, a hidden piece, a token or an address); once it is over,
// the full record with every secret move revealed and each commitment's
// opening, as the final mail carries it. Challenges are private and are
// not shown.

// ErrNotFinished is returned (wrapped) by PublicPGN for a game still being played: its
// secret moves stay sealed until it ends (it is record.ErrNotFinished).
var ErrNotFinished = record.ErrNotFinished

// ErrNotPublic is returned for a game that does not exist or that is not
// shown to the public (a challenge not yet accepted).
var ErrNotPublic = errors.New("game: no such game")

// PublicPGN returns a finished game's verifiable PGN: record.FinalPGN's bytes, the
// file the final mail carries. A game still being played gives
// ErrNotFinished (wrapped); one that does not exist or never started
// ErrNotPublic.
func (s *Service) PublicPGN(id uint64) ([]byte, error) {
	var out []byte
	err := s.st.View(func(tx *store.Tx) error {
		if _, err := loadPublic(tx, id); err != nil {
			return err
		}
		var err error
		out, err = record.FinalPGN(tx, id)
		return err
	})
	if err != nil {
		if errors.Is(err, ErrNotPublic) || errors.Is(err, ErrNotFinished) {
			return nil, err
		}
		s.damagedPublic(err)
		return nil, &SystemError{Err: err}
	}
	return out, nil
}

// PublicStamp returns a short text that changes whenever anything a game's
// public page shows may have changed: its record (the chain head), its
// service data (phase, clocks, vacations, observers), its players' names
// and the service's outages (which move deadlines). Reading it costs one
// game record, not the record of moves, so a page can be kept and served
// again while the stamp stays the same. Errors as for PublicGame.
func (s *Service) PublicStamp(id uint64) (string, error) {
	var stamp string
	err := s.st.View(func(tx *store.Tx) error {
		l, err := loadPublic(tx, id)
		if err != nil {
			return err
		}
		outages, err := tx.Setting(settingOutages)
		if err != nil {
			return err
		}
		h := sha256.New()
		fmt.Fprintf(h, "%d %x %d %d %q %q %d:", l.g.ID, l.g.Head[:], l.g.Records, l.g.Status, displayName(l.seats[0]), displayName(l.seats[1]), len(l.g.Meta))
		h.Write(l.g.Meta)
		h.Write(outages)
		stamp = hex.EncodeToString(h.Sum(nil)[:16])
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrNotPublic) {
			return "", err
		}
		s.damagedPublic(err)
		return "", &SystemError{Err: err}
	}
	return stamp, nil
}

// PublicGame is one game as the public may see it.
type PublicGame struct {
	ID          uint64
	Variant     rules.Variant
	Ruleset     string
	Sides       [2]string
	Players     [2]string // the players' shown names (displayName), never an address
	TimeControl string    // described for people ("3 days per move")
	Created     time.Time
	Over        bool
	Result      string // "1-0", "0-1", "1/2-1/2"; empty while the game is on
	Reason      string // how it ended
	Finished    time.Time
	ToMove      rules.Side // while on
	Deadline    time.Time  // the side to move's deadline, while on
	Plies       int        // moves played
	Head        string     // the record's chain head
	// Moves is the record: the public lines while the game is on, every
	// move as submitted (secret ones revealed, with their openings) once
	// it is over.
	Moves []PublicMove
	// Positions holds, once the game is over, the referee's state before
	// the first move and after each move (len(Moves)+1 states), for
	// stepping through the game; nil while the game is on, and for a
	// finished game whose record does not replay (logged). States are
	// immutable.
	Positions []rules.State
	// Reports holds, once the game is over, each move's report (for the
	// last-move highlight); nil while on.
	Reports []*rules.Report
	// Board is the current position as the public sees it: the public
	// view while on, the referee's (everything revealed) once over, with
	// how the game ended (a resignation too, which no position shows).
	Board *rules.View
	// Last is the public's last-move highlight on Board.
	Last []rules.Square
}

// PublicMove is one move of the record.
type PublicMove struct {
	Ply    int
	Side   rules.Side
	Number string // the full-move number as PGN writes it (rules.MoveLabel): "12." or "12..."
	Text   string
	Secret bool
	// Commitment is a secret move's commitment (quoted to both sides when
	// it was made); Key its opening key, in hex, once the game is over.
	Commitment, Key string
}

// loadPublic loads a game the public may see: one in play or over; any
// other (a challenge) or none at all gives ErrNotPublic; a damaged one an
// error DamagedGame names it by (as loadSafely).
func loadPublic(tx *store.Tx, id uint64) (*loaded, error) {
	l, err := loadSafely(tx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNotPublic
	}
	if err != nil {
		return nil, err
	}
	if l.meta.Phase != phasePlay && l.meta.Phase != phaseOver {
		return nil, ErrNotPublic
	}
	return l, nil
}

// PublicGame reads one game as the public may see it. A game that does not
// exist or is a challenge gives ErrNotPublic. A finished game is replayed
// from its record (one game's work).
func (s *Service) PublicGame(id uint64) (*PublicGame, error) {
	var pg *PublicGame
	err := s.st.View(func(tx *store.Tx) error {
		l, err := loadPublic(tx, id)
		if err != nil {
			return err
		}
		log, err := tx.Log(id)
		if err != nil {
			return err
		}
		pg = publicGame(l, s.readClocks(tx))
		moves := standingMoves(log) // the web shows the line that stands
		for i, r := range moves {
			m := PublicMove{Ply: int(r.Ply), Side: rules.Side(r.Side), Number: rules.MoveLabel(i), Text: r.Public, Secret: r.Secret}
			if r.Secret {
				m.Commitment = r.Commitment.String()
			}
			if pg.Over {
				m.Text = r.Text
				if r.Secret && r.Opening != nil {
					m.Key = hex.EncodeToString(r.Opening.Key[:])
				}
			}
			pg.Moves = append(pg.Moves, m)
		}
		if !pg.Over {
			pg.Board = l.state.View(rules.ViewPublic)
			pg.Last = s.lastMoves.get(l.g.ID, l.g.Head, func() []rules.Square { return s.publicLast(l, moves) })
			return nil
		}
		if err := replayPublic(pg, l, moves); err != nil {
			// The record stands; only the stepping through positions is lost.
			s.log.Error("game: a finished game does not replay; its page shows no positions", "game", id, "err", err)
			pg.Positions, pg.Reports = nil, nil
		}
		pg.Board = l.state.View(rules.ViewReferee)
		if o := l.meta.Outcome; o != nil && !pg.Board.Outcome.Over() {
			pg.Board.Outcome = *o // resigned, agreed, adjudicated, lost on time: over, not "to move"
		}
		if n := len(pg.Reports); n > 0 {
			pg.Last = htmlboard.LastMove(pg.Reports[n-1], l.v.Board(), rules.ViewReferee)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrNotPublic) {
			return nil, err
		}
		s.damagedPublic(err)
		return nil, &SystemError{Err: err}
	}
	return pg, nil
}

// replayPublic replays a finished game's moves from its start, keeping
// every position and report for the stepper.
func replayPublic(pg *PublicGame, l *loaded, moves []store.Record) error {
	st, err := l.v.New(rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed})
	if err != nil {
		return err
	}
	pg.Positions = []rules.State{st}
	for i, r := range moves {
		m, err := st.Parse(r.Text)
		var next rules.State
		var rep *rules.Report
		if err == nil {
			next, rep, err = st.Apply(m)
		}
		if err != nil {
			return fmt.Errorf("move %d (%s) does not replay: %w", i+1, r.Text, err)
		}
		pg.Positions = append(pg.Positions, next)
		pg.Reports = append(pg.Reports, rep)
		st = next
	}
	return nil
}

// readClocks are the clocks the public's deadlines are shown by.
func (s *Service) readClocks(tx *store.Tx) *clocks {
	c := &clocks{reminderBefore: s.cfg.ReminderBefore}
	_ = c.load(tx) // a damaged outage list only moves a shown deadline
	return c
}

// publicGame fills in what the public sees of a loaded game but its record;
// its deadline is the one c times.
func publicGame(l *loaded, c *clocks) *PublicGame {
	sides := l.sides()
	pg := &PublicGame{ID: l.g.ID, Variant: l.v, Ruleset: l.g.Ruleset, Sides: sides, Created: l.g.Created,
		Over: l.meta.Phase == phaseOver, Plies: l.state.Ply(), Head: l.g.Head.String()}
	pg.Players = l.meta.Players // a finished game's, as its PGN names them
	for i := range 2 {
		if pg.Players[i] == "" {
			pg.Players[i] = displayName(l.seats[i])
		}
	}
	if tc, err := timing.ParseTimeControl(l.meta.Time); err == nil {
		pg.TimeControl = tc.Describe()
	}
	if pg.Over {
		pg.Result, pg.Reason, pg.Finished = l.g.Result, l.meta.Reason, l.meta.Finished
	} else {
		pg.ToMove = l.state.ToMove()
		pg.Deadline = c.turn(l).deadline
	}
	return pg
}

// publicLast is the public's highlight of the last move of a game in
// play: the squares of the last move when it was not secret (its own
// squares, which its public text names), found by replaying the record as
// submitted up to it: one game's work, done once per move (lastCache).
// A secret move is never highlighted for the public.
func (s *Service) publicLast(l *loaded, moves []store.Record) []rules.Square {
	if len(moves) == 0 || moves[len(moves)-1].Secret {
		return nil
	}
	st, err := l.v.New(rules.Options{Ruleset: l.g.Ruleset, Seed: l.meta.Seed})
	if err != nil {
		return nil
	}
	for _, r := range moves {
		m, err := st.Parse(r.Text)
		if err != nil {
			return nil
		}
		next, rep, err := st.Apply(m)
		if err != nil {
			return nil
		}
		if r.Index == moves[len(moves)-1].Index {
			return htmlboard.LastMove(rep, l.v.Board(), rules.ViewPublic)
		}
		st = next
	}
	return nil
}

// lastCache keeps the public's last-move highlight of games in play, per
// game and record head, so that a game's page replays the game once per
// move rather than once per request. It holds at most lastCacheSize games.
type lastCache struct {
	mu    sync.Mutex
	games map[uint64]lastEntry
}

type lastEntry struct {
	head store.Digest
	last []rules.Square
}

const lastCacheSize = 1024

func (c *lastCache) get(id uint64, head store.Digest, compute func() []rules.Square) []rules.Square {
	c.mu.Lock()
	e, ok := c.games[id]
	c.mu.Unlock()
	if ok && e.head == head {
		return e.last
	}
	last := compute()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games == nil || len(c.games) >= lastCacheSize {
		c.games = map[uint64]lastEntry{} // simply start again: a miss costs one replay
	}
	c.games[id] = lastEntry{head, last}
	return last
}

// GameSummary is one line of a public list of games.
type GameSummary struct {
	ID       uint64
	Variant  string // display name
	Players  [2]string
	Sides    [2]string
	Over     bool
	Number   string // the full-move number of the move to come ("12." / "12..."); once over, of the last move
	ToMove   string // the side to move, while on
	Deadline time.Time
	Result   string
	Reason   string
	Finished time.Time
}

// GameList is one page of a public list.
type GameList struct {
	Games []GameSummary
	// Next is the cursor of the following page, 0 when this is the last.
	Next uint64
	// Damaged are the games of the page's range that could not be read because their
	// stored record is damaged (store.DamagedGame): left out, and logged once.
	Damaged []uint64
}

// MaxListPage is the most games one page of a list holds.
const MaxListPage = 50

// PublicGames lists games for the public: those in play in ascending
// number after the cursor from (over false), or the finished ones, newest
// first, before the cursor from (over true; from 0 starts at the newest).
// Challenges and games that never started are skipped, and so are damaged games
// (GameList.Damaged names them). At most limit games
// (at most MaxListPage) are returned, and at most 4×limit games are read.
func (s *Service) PublicGames(over bool, from uint64, limit int) (*GameList, error) {
	if limit <= 0 || limit > MaxListPage {
		limit = MaxListPage
	}
	list := &GameList{}
	err := s.st.View(func(tx *store.Tx) error {
		c := s.readClocks(tx)
		cursor, read := from, 0
		for len(list.Games) < limit && read < 4*limit {
			ids, err := tx.GameIDs(over, cursor, over, limit)
			if err != nil {
				return err
			}
			if len(ids) == 0 {
				break
			}
			for _, id := range ids {
				if len(list.Games) == limit || read == 4*limit {
					break
				}
				read++
				cursor = id
				l, err := loadSafely(tx, id)
				if gid := store.DamagedGame(err); gid != 0 {
					s.damaged(gid, err) // logged once; the rest of the list is served
					list.Damaged = append(list.Damaged, id)
					continue
				}
				if errors.Is(err, store.ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				if l.meta.Phase == phasePlay && !over || l.meta.Phase == phaseOver && over {
					list.Games = append(list.Games, summary(l, c))
				}
			}
		}
		if cursor != 0 {
			more, err := tx.GameIDs(over, cursor, over, 1)
			if err != nil {
				return err
			}
			if len(more) > 0 {
				list.Next = cursor
			}
		}
		return nil
	})
	if err != nil {
		return nil, &SystemError{Err: err}
	}
	return list, nil
}

// summary is a game's line in a public list.
func summary(l *loaded, c *clocks) GameSummary {
	pg := publicGame(l, c)
	sum := GameSummary{ID: pg.ID, Variant: l.v.Name(), Players: pg.Players, Sides: pg.Sides, Over: pg.Over,
		Result: pg.Result, Reason: pg.Reason, Finished: pg.Finished, Deadline: pg.Deadline}
	// The number of the move to come, or once over of the last move.
	n := l.state.Ply()
	switch {
	case !pg.Over:
		sum.ToMove = pg.Sides[pg.ToMove]
		sum.Number = rules.MoveLabel(n)
	case n > 0:
		sum.Number = rules.MoveLabel(n - 1)
	}
	return sum
}

// DamagedGame says which game an error of the public reads (PublicGame, PublicStamp,
// PublicPGN) is about when it means that game's stored record is damaged; 0 for any other
// error. The damage is logged once, with what to do.
func DamagedGame(err error) uint64 { return store.DamagedGame(err) }

// damagedPublic logs, once, the game a public read found damaged.
func (s *Service) damagedPublic(err error) {
	if gid := store.DamagedGame(err); gid != 0 {
		s.damaged(gid, err)
	}
}
