package game

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

var cryptoRand = rand.Reader

// Game phases.
const (
	phaseChallenge = "challenge" // waiting for the challenged player's accept
	phaseOpen      = "open"      // an open challenge waiting for anyone's new with the same terms
	phasePlay      = "play"
	phaseOver      = "over"
)

// gameMeta is what the service keeps about a game beyond the rules state:
// stored, versioned, in store.Game.Meta.
type gameMeta struct {
	V          int    `json:"v"`
	Phase      string `json:"phase"`
	Challenger int    `json:"challenger"` // the side that sent new
	// OldTokens are the seats' reply tokens as databases before store schema 4 kept them, in the
	// clear; forgetSeatTokens empties them once. Seat tokens are now derived (seatToken)
	// and only their keyed hashes stored.
	OldTokens [2]string `json:"tokens,omitzero"`
	// Root is the game's Message-ID (game-N.…@domain), which no mail
	// carries: the thread that observers' and referees' mails, and the
	// players' mails of games begun before Roots was kept, reference.
	Root string `json:"root"`
	// Roots are the players' threads: the Message-ID of the first mail of
	// the game to each seat (its start mail: the challenger's confirmation,
	// the invitation, the first board of an open challenge's taker), which
	// every later mail to that seat references (threadRoot). Derived from
	// Root (seatRoot); empty for games begun before they were kept.
	Roots     [2]string       `json:"roots,omitzero"`
	Time      string          `json:"time"` // the time control as written
	Clocks    [2]timing.Clock `json:"clocks"`
	TurnStart time.Time       `json:"turn_start,omitzero"`
	DrawOffer int             `json:"draw_offer"` // -1 none, else the offering side
	Observers []string        `json:"observers,omitempty"`
	Reason    string          `json:"reason,omitempty"` // how the game ended, as players read it
	// Outcome is how the game ended (its Reason in a few words, for the
	// subject): nil while it goes on, for a declined challenge and for
	// games that ended before it was kept.
	Outcome  *rules.Outcome `json:"outcome,omitempty"`
	Finished time.Time      `json:"finished,omitzero"`
	// Players are the players' shown names as the end record binds them
	// (appendEnding): a finished game is named so everywhere, as its PGN
	// names it, whatever names the players take later. Empty while the game
	// goes on, and for games that ended before they were kept.
	Players      [2]string    `json:"players,omitzero"`
	Vacation     [2]time.Time `json:"vacation,omitzero"`      // a side's clock stands still until then
	VacationFrom [2]time.Time `json:"vacation_from,omitzero"` // when that vacation began
	Seed         uint64       `json:"seed"`                   // the rules' setup seed (Options.Seed)
	// Reminders sent in the current turn, and when each side was last reminded.
	RemindedHalf bool         `json:"reminded_half,omitempty"`
	RemindedDay  bool         `json:"reminded_day,omitempty"`
	LastReminder [2]time.Time `json:"last_reminder,omitzero"`
	// TimedOut is the side whose deadline passed under the notify policy, or -1.
	TimedOut int `json:"timed_out"`
	// Casual is set for a game its challenger asked not to be rated (new …
	// casual); Rated is how its end counted for the ratings (ratings.go),
	// set when it ended (nil before, and for games that ended before
	// ratings existed).
	Casual bool      `json:"casual,omitempty"`
	Rated  *ratedEnd `json:"rated,omitempty"`
	// Tournament is the tournament the game belongs to (tournament.go),
	// 0 for none; Round its round in the Berger table.
	Tournament uint64 `json:"tournament,omitempty"`
	Round      int    `json:"round,omitempty"`
	// Forfeit marks a tournament game lost by forfeit (a withdrawal):
	// scored, not rated.
	Forfeit bool `json:"forfeit,omitempty"`
	// Said are when each side sent the other words (say …) in the last
	// 24 hours; Messages counts the game's messages, kept sealed as
	// settings (messages.go).
	Said     [2][]time.Time `json:"said,omitzero"`
	Messages int            `json:"messages,omitempty"`
	// Takeback is the takeback waiting for the opponent's answer (nil for
	// none); Takebacks counts each side's takebacks (takeback.go).
	Takeback  *takebackAsk `json:"takeback,omitempty"`
	Takebacks [2]int       `json:"takebacks,omitzero"`
}

const gameMetaVersion = 1

func decodeGameMeta(g *store.Game) (*gameMeta, error) {
	m := &gameMeta{}
	if err := json.Unmarshal(g.Meta, m); err != nil {
		return nil, fmt.Errorf("game: game %d: service data: %w", g.ID, err)
	}
	if m.V != gameMetaVersion {
		return nil, fmt.Errorf("game: game %d: service data version %d is unknown", g.ID, m.V)
	}
	return m, nil
}

func (m *gameMeta) encode() []byte {
	m.V = gameMetaVersion
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// playerMeta is what the service keeps about a player, in store.Player.Meta.
type playerMeta struct {
	V int `json:"v"`
	// Name is the name the player chose with the name command (issue 33),
	// shown before the display name of their mail (displayName); "" for
	// none.
	Name string `json:"name,omitempty"`
	// Lang is the language the player chose for their mails (language
	// de|en, issue 34); "" for the service's (Config.Language).
	Lang     string   `json:"lang,omitempty"`
	TZ       string   `json:"tz,omitempty"`
	Games    []uint64 `json:"games,omitempty"` // games not yet archived
	Vacation struct {
		Year  int       `json:"year,omitempty"`
		Used  int       `json:"used,omitempty"` // days taken in Year
		Until time.Time `json:"until,omitzero"`
	} `json:"vacation"`
	// Digest is the daily digest the player asked for; store.Player.Due is
	// when it is next due.
	Digest *digestSchedule `json:"digest,omitempty"`
	// Wrote says the player has sent the service mail of their own (not
	// only been invited): challenging them invites no stranger.
	Wrote bool `json:"wrote,omitempty"`
	// Challenges and Invitations are when the player started challenges,
	// and challenged addresses that never wrote, in the last 24 hours (the
	// windows of Limits).
	Challenges  []time.Time `json:"challenges,omitempty"`
	Invitations []time.Time `json:"invitations,omitempty"`
	// Ratings is the player's standing in each rating pool they have played
	// a rated game in (ratings.go), by pool.
	Ratings map[string]*poolRating `json:"ratings,omitempty"`
	// Quiet is set while the player has turned their opponents' words off
	// (messages off, messages.go).
	Quiet *quiet `json:"quiet,omitempty"`
	// AddressChanged is when the player's account last moved to a new
	// address (address.go).
	AddressChanged time.Time `json:"address_changed,omitzero"`
	// AddressAsked is when the player last had a confirmation of a new
	// address sent (address NEW): one a day, so that the command cannot
	// spend the service's mails to strangers (limits.strangers_per_day).
	AddressAsked time.Time `json:"address_asked,omitzero"`
	// Board is how the player's mails draw a board (board format,
	// settings.go): "list", "both", or "" for the diagram.
	Board string `json:"board,omitempty"`
	// Notation is "iccf" when the player's chess mails show moves in ICCF
	// numeric notation too (notation, settings.go), "" for algebraic only.
	Notation string `json:"notation,omitempty"`
}

func decodePlayerMeta(p *store.Player) *playerMeta {
	m := &playerMeta{V: 1}
	if len(p.Meta) > 0 {
		if err := json.Unmarshal(p.Meta, m); err != nil {
			// A damaged preference is not worth refusing a move for: start afresh.
			m = &playerMeta{V: 1}
		}
	}
	return m
}

func (m *playerMeta) encode() []byte {
	m.V = 1
	b, _ := json.Marshal(m)
	return b
}

func (m *playerMeta) location() *time.Location {
	if m.TZ != "" {
		if loc, err := time.LoadLocation(m.TZ); err == nil {
			return loc
		}
	}
	return time.UTC
}

func (m *playerMeta) addGame(id uint64) {
	for _, g := range m.Games {
		if g == id {
			return
		}
	}
	m.Games = append(m.Games, id)
}

func (m *playerMeta) dropGame(id uint64) {
	out := m.Games[:0]
	for _, g := range m.Games {
		if g != id {
			out = append(out, g)
		}
	}
	m.Games = out
}

// loaded is a game with everything the service reads about it.
type loaded struct {
	g     *store.Game
	meta  *gameMeta
	v     rules.Variant
	state rules.State
	seats [2]*store.Player
}

func (l *loaded) sides() [2]string { return l.v.Sides() }

// sidesIn is the names of the game's sides in a language ("Weiß"), for a
// message; the variant declares them as messages (lang.Keys).
func (l *loaded) sidesIn(lg lang.Lang) [2]string {
	s := l.v.Sides()
	return [2]string{lg.Word(s[0]), lg.Word(s[1])}
}

// side returns the seat of a player in the game, or -1.
func (l *loaded) side(player uint64) int {
	for i, seat := range l.g.Seats {
		if seat.Player == player {
			return i
		}
	}
	return -1
}

// load reads a game, its service data and its rules state.
func load(tx *store.Tx, id uint64) (*loaded, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	meta, err := decodeGameMeta(g)
	if err != nil {
		return nil, err
	}
	v, err := variants.Lookup(g.Variant)
	if err != nil {
		return nil, fmt.Errorf("game: game %d: %w", id, err)
	}
	st, err := v.Unmarshal(g.State)
	if err != nil {
		return nil, fmt.Errorf("game: game %d: state: %w", id, err)
	}
	l := &loaded{g: g, meta: meta, v: v, state: st}
	for i, seat := range g.Seats {
		if l.seats[i], err = tx.Player(seat.Player); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// loadSafely is load for work over many games (a list, a walk over all of
// them), where one damaged game must not stop the rest: an error that
// means the game's data is damaged — the store's, data of the service's
// that does not decode, a variant no longer built, or a panic of bbolt's on
// a damaged page of the game, recovered — is a *store.GameError naming the
// game and matching store.ErrCorrupt (store.DamagedGame tells it). A game
// that does not exist gives the store's ErrNotFound.
func loadSafely(tx *store.Tx, id uint64) (l *loaded, err error) {
	defer func() {
		if r := recover(); r != nil {
			l, err = nil, &store.GameError{Game: id, Err: fmt.Errorf("its pages are damaged (bbolt: %v): %w", r, store.ErrCorrupt)}
		}
	}()
	l, err = load(tx, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) && store.DamagedGame(err) == 0 {
		// Data of this game that does not decode (service data, state, a
		// variant no longer built, a seat's player): the game is damaged,
		// not the service.
		err = &store.GameError{Game: id, Err: fmt.Errorf("%w (%w)", err, store.ErrCorrupt)}
	}
	return l, err
}

// firstMover is the side that made, or makes, the game's first move: the
// sides alternate, so it is the side to move now or the other one.
func (l *loaded) firstMover() rules.Side {
	return l.state.ToMove() ^ rules.Side(l.state.Ply()&1)
}
