package game

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rating"
	"github.com/bottlepost/bottlepost/store"
)

// The lists of the rating pools: the ratings command's answer, the web's
// leaderboards (names only) and the command line's (bottlepost ratings,
// with addresses). Each reads every player once (store.Tx.EachDecodedPlayer: a damaged
// player, which check-store names, is left out rather than failing the list).

// Standing is a player's place in a rating pool, as bottlepost ratings
// prints it: the Glicko-2 values unrounded, as stored.
type Standing struct {
	Rank       int       `json:"rank"`
	ID         uint64    `json:"id"`
	Player     string    `json:"player"` // the address: for the operator, never shown on the web
	Name       string    `json:"name"`
	Rating     float64   `json:"rating"`
	RD         float64   `json:"rd"`
	Volatility float64   `json:"volatility"`
	Games      int       `json:"games"`
	Wins       int       `json:"wins"`
	Draws      int       `json:"draws"`
	Losses     int       `json:"losses"`
	Last       time.Time `json:"last"` // when their last rated game in the pool ended
}

// Shown is the rating as players read it: "1523", "1500?".
func (s Standing) Shown() string {
	return rating.Rating{Rating: s.Rating, RD: s.RD, Volatility: s.Volatility}.String()
}

// poolStandings lists the players of the pools want accepts, each pool
// ranked: by rating, highest first, then by RD, lowest first, then by
// player id. Only players with a rated game in a pool are in it.
func poolStandings(tx *store.Tx, want func(pool string) bool) (map[string][]Standing, error) {
	out := map[string][]Standing{}
	err := tx.EachDecodedPlayer(func(p *store.Player) error {
		m := decodePlayerMeta(p)
		for pool, r := range m.Ratings {
			if r == nil || r.Games == 0 || !want(pool) {
				continue
			}
			out[pool] = append(out[pool], Standing{ID: p.ID, Player: p.Address, Name: displayName(p),
				Rating: r.Rating.Rating, RD: r.RD, Volatility: r.Volatility,
				Games: r.Games, Wins: r.Wins, Draws: r.Draws, Losses: r.Losses, Last: r.Last})
		}
		return nil
	})
	for _, list := range out {
		slices.SortFunc(list, func(a, b Standing) int {
			switch {
			case a.Rating != b.Rating:
				return -cmp.Compare(a.Rating, b.Rating)
			case a.RD != b.RD:
				return cmp.Compare(a.RD, b.RD)
			}
			return cmp.Compare(a.ID, b.ID)
		})
		for i := range list {
			list[i].Rank = i + 1
		}
	}
	return out, err
}

// Ratings lists every rated player of a pool ("chess", "baltic/sc2022"),
// ranked, with their addresses: for the operator's command line. A pool
// that does not exist gives ErrNoPool (wrapped).
func Ratings(tx *store.Tx, pool string) ([]Standing, error) {
	pool, err := LookupPool(pool)
	if err != nil {
		return nil, err
	}
	all, err := poolStandings(tx, func(p string) bool { return p == pool })
	return all[pool], err
}

// PublicPool is a rating pool as the web shows it: its players by name,
// never by address.
type PublicPool struct {
	Pool    string // "chess", "baltic/sc2022"
	Title   string // "Chess", "Baltic Sea Chess, sc2022"
	Players []PublicStanding
}

// PublicStanding is one player of a PublicPool.
type PublicStanding struct {
	Rank                       int
	Name                       string // the shown name (playerName): never an address
	Rating                     string // as players read it: "1523", "1500?"
	RD                         int    // rounded
	Games, Wins, Draws, Losses int
	Last                       time.Time
}

// PublicRatings is a pool's leaderboard for the web: every rated player,
// ranked, by name. A pool that does not exist gives ErrNoPool (wrapped).
func (s *Service) PublicRatings(pool string) (*PublicPool, error) {
	pool, err := LookupPool(pool)
	if err != nil {
		return nil, err
	}
	pools, err := s.publicPools(func(p string) bool { return p == pool })
	if err != nil {
		return nil, err
	}
	return pools[0], nil
}

// PublicPools lists every rating pool with its players, for the web's
// page of pools (its leaders and how many play in each).
func (s *Service) PublicPools() ([]*PublicPool, error) {
	return s.publicPools(func(string) bool { return true })
}

func (s *Service) publicPools(want func(string) bool) ([]*PublicPool, error) {
	var all map[string][]Standing
	err := s.st.View(func(tx *store.Tx) error {
		var err error
		all, err = poolStandings(tx, want)
		return err
	})
	if err != nil {
		return nil, &SystemError{Err: err}
	}
	var out []*PublicPool
	for _, pool := range RatingPools() {
		if !want(pool) {
			continue
		}
		pp := &PublicPool{Pool: pool, Title: poolTitle(pool)}
		for _, st := range all[pool] {
			pp.Players = append(pp.Players, PublicStanding{Rank: st.Rank, Name: st.Name, Rating: st.Shown(),
				RD: int(math.Round(st.RD)), Games: st.Games, Wins: st.Wins, Draws: st.Draws, Losses: st.Losses, Last: st.Last})
		}
		out = append(out, pp)
	}
	return out, nil
}

// ratingsTop is how many players the ratings command lists per pool.
const ratingsTop = 20

// ratingTable is one pool in the answer to the ratings command.
type ratingTable struct {
	Title string // "Chess: 14 rated players."
	Rows  []ratingRow
	Yours string // the sender's rating and rank
}

// ratingRow is one player of a ratingTable.
type ratingRow struct {
	Rank         int
	Name, Rating string
	RD, Games    int
	You          bool
	Line         string // the row as the text part shows it
}

// parseRatings reads "ratings [VARIANT]" (a ruleset may follow: ratings
// baltic sc2022, or ratings baltic/sc2022).
func parseRatings(c *Command, args []string) lang.Text {
	if len(args) > 2 {
		return lang.Msg("write ratings, or ratings VARIANT (e.g. ratings chess, ratings baltic/sc2022)")
	}
	c.Variant = strings.Join(args, "/")
	return lang.Text{}
}

// ratings answers the ratings command: a pool's top 20 and the sender's
// rating and rank in it, or every pool the sender plays in.
func (h *handling) ratings(c Command) error {
	var pools []string
	if c.Variant != "" {
		pool, err := LookupPool(c.Variant)
		if err != nil {
			return userf("there is no rating pool %q; the pools are %s", c.Variant, strings.Join(RatingPools(), ", "))
		}
		pools = []string{pool}
	} else {
		for _, pool := range RatingPools() {
			if h.pmeta.standing(pool).Games > 0 {
				pools = append(pools, pool)
			}
		}
	}
	d := h.draft(h.from, nil, "ratings")
	d.subject = d.tr("bottlepost: ratings")
	if c.Variant != "" {
		d.subject += " " + pools[0]
	}
	if len(pools) == 0 {
		d.notice("You have no rated game yet: you start at 1500? in every pool. Name a pool to see its players: ratings chess (the pools: %s).", strings.Join(RatingPools(), ", "))
		return nil
	}
	all, err := poolStandings(h.tx, func(p string) bool { return slices.Contains(pools, p) })
	if err != nil {
		return err
	}
	for _, pool := range pools {
		d.tables = append(d.tables, ratingTableOf(d.lang, pool, all[pool], h.player.ID))
	}
	return nil
}

// ratingTableOf makes a pool's table for the ratings command's answer to
// player me, in language l: the first ratingsTop players, and me's line.
func ratingTableOf(l lang.Lang, pool string, list []Standing, me uint64) ratingTable {
	title := poolTitle(pool)
	t := ratingTable{Title: l.Tr("%s: %d rated players.", title, len(list))}
	if len(list) == 1 {
		t.Title = l.Tr("%s: 1 rated player.", title)
	}
	for _, st := range list[:min(len(list), ratingsTop)] {
		r := ratingRow{Rank: st.Rank, Name: st.Name, Rating: st.Shown(), RD: int(math.Round(st.RD)), Games: st.Games, You: st.ID == me}
		r.Line = fmt.Sprintf("%3d. %-24s %-6s RD %3d  %s", r.Rank, cut(r.Name, 24), r.Rating, r.RD, gamesIn(l, r.Games))
		t.Rows = append(t.Rows, r)
	}
	t.Yours = l.Tr("You have no rated %s game: you would start at 1500?.", title)
	for _, st := range list {
		if st.ID == me {
			t.Yours = l.Tr("Your %s rating: %s (RD %d), %s of %d; %s: %d won, %d drawn, %d lost.",
				title, st.Shown(), int(math.Round(st.RD)), ordinalIn(l, st.Rank), len(list), gamesIn(l, st.Games), st.Wins, st.Draws, st.Losses)
		}
	}
	return t
}

// ordinalIn is a place in language l: "2nd" in English (ordinal), "2." in
// German.
func ordinalIn(l lang.Lang, n int) string {
	if l == lang.German {
		return fmt.Sprintf("%d.", n)
	}
	return ordinal(n)
}

// gamesIn is "1 game", "2 games" in language l.
func gamesIn(l lang.Lang, n int) string {
	if n == 1 {
		return l.Tr("1 game")
	}
	return l.Tr("%d games", n)
}

// ordinal is "1st", "2nd", "3rd", "4th", "11th", "21st".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
