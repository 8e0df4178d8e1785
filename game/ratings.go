package game

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rating"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// Ratings (docs/ratings.md). Every game is rated unless its challenger
// asked for a casual one (new … casual), in one pool per variant and
// ruleset, with Glicko-2 (package rating). A player's standing in each pool
// is kept with the player (playerMeta.Ratings) and changed in the
// transaction that ends the game (rate, called by finish: the one place
// every end passes, whether mate, resignation, a draw agreed or automatic,
// victory points, a bare Admiral, a loss on time, claimed or not, or a
// referee's adjudication). Each rated end is one rating period for its two
// players, from their values as they stood just before it ended: each
// player's RD first grows by one empty period per whole day since their
// last rated game in the pool (rating.Rating.Idle).
//
// The order. Every rating update gets the next number of the rating
// sequence (settingRatingSeq), in the transaction that makes it. Updates
// are applied in the order the transactions run on the store's one writer,
// and the functions of one group commit run one after another in it, so
// the numbers are the order in which the updates were applied, whatever
// the end times say (two games ending at the same instant, or a clock
// stepped back). A transaction rolled back takes its number with it. The
// game keeps its number (gameMeta.Rated), and bottlepost ratings --rebuild
// replays the archive's rated games in that order (RebuildRatings), with
// the same code (rateGame), and compares bit for bit.

// settingRatingSeq holds the number of the last rating update: 8 bytes,
// big-endian; absent before the first.
const settingRatingSeq = "game.rating-seq"

// poolRating is a player's standing in one rating pool: their Glicko-2
// values and record, as of their last rated game in it.
type poolRating struct {
	rating.Rating
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Last is when their last rated game in the pool ended, and Seq that
	// game's rating update's number.
	Last time.Time `json:"last"`
	Seq  uint64    `json:"seq"`
}

// value is the player's Glicko-2 values: a new player's for one with no
// rated game.
func (p poolRating) value() rating.Rating {
	if p.Games == 0 {
		return rating.New()
	}
	return p.Rating
}

// ratedEnd is how a game's end counted for the ratings (gameMeta.Rated),
// set in the transaction that ended it.
type ratedEnd struct {
	Pool string `json:"pool"`
	// Seq is the number of the rating update the end made; 0 when it was
	// not rated, and Why then says why.
	Seq uint64 `json:"seq,omitempty"`
	Why string `json:"why,omitempty"`
	// Start is each seat's values the game was rated from (as they stood
	// just before it ended, the RD grown for the days since their last
	// rated game), After their values after it.
	Start [2]rating.Rating `json:"start,omitzero"`
	After [2]rating.Rating `json:"after,omitzero"`
}

// The reasons an end is not rated (ratedEnd.Why), as the final mail says
// them.
const (
	whyCasual      = "a casual game"
	whyNoMoves     = "the game ended before each side had made a move"
	whyOnePlayer   = "one player held both seats"
	whyNoResult    = "the game has no result"
	whyNotPlayed   = "the game was not played"
	casualNotRated = "Casual game: not rated."
)

// unrated says why a game that has ended is not rated, or "" when it is:
// a casual game, one that ended before each side had moved, one without a
// win or a draw.
func unrated(l *loaded) string {
	_, scored := resultScore(l.g.Result)
	switch {
	case l.meta.Casual:
		return whyCasual
	case l.meta.Forfeit:
		return whyForfeit
	case l.g.Status != store.StatusFinished:
		return whyNotPlayed
	case l.g.Seats[0].Player == l.g.Seats[1].Player:
		return whyOnePlayer
	case l.state.Ply() < 2: // the sides alternate: each has moved from the second ply on
		return whyNoMoves
	case !scored:
		return whyNoResult
	}
	return ""
}

// resultScore is the score of the first seat (White, or the variant's
// first side) for a result: 1, ½ or 0.
func resultScore(result string) (float64, bool) {
	switch result {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}

// idleDays is the number of whole days from last to at: the empty rating
// periods a player's RD grows by before a game that ends at at. None
// before a first game, and none when the clock went back.
func idleDays(last, at time.Time) int64 {
	if last.IsZero() || !at.After(last) {
		return 0
	}
	return int64(at.Sub(last) / timing.Day)
}

// rateGame is the one computation of a rated game, run by the service as
// the game ends and by RebuildRatings on the archive: from the two seats'
// standings before it (before), the first seat's score, when it ended and
// its update's number, it gives the values it was rated from (start) and
// the standings after it. Each player's RD grows for the whole days since
// their last rated game in the pool, then the game is one rating period
// for both, each rated against the other's grown values.
func rateGame(before [2]poolRating, score float64, at time.Time, seq uint64) (start [2]rating.Rating, after [2]poolRating) {
	for i, p := range before {
		start[i] = p.value().Idle(idleDays(p.Last, at))
	}
	scores := [2]float64{score, 1 - score}
	for i, p := range before {
		p.Rating = rating.Period(start[i], []rating.Game{{Opponent: start[1-i], Score: scores[i]}})
		p.Games++
		switch scores[i] {
		case 1:
			p.Wins++
		case 0:
			p.Losses++
		default:
			p.Draws++
		}
		p.Last, p.Seq = at, seq
		after[i] = p
	}
	return start, after
}

// nextRatingSeq takes the next number of the rating sequence.
func nextRatingSeq(tx *store.Tx) (uint64, error) {
	return nextCounter(tx, settingRatingSeq, "rating sequence")
}

// ratingSeq is the number of the last rating update (0: none yet).
func ratingSeq(tx *store.Tx) (uint64, error) {
	return counter(tx, settingRatingSeq, "rating sequence")
}

// counter is the value of a counter kept in a setting (0: none yet), as 8
// bytes big-endian; what names it in the error of a damaged one.
func counter(tx *store.Tx, name, what string) (uint64, error) {
	b, err := tx.Setting(name)
	if err != nil || b == nil {
		return 0, err
	}
	if len(b) != 8 {
		return 0, fmt.Errorf("game: the %s %x cannot be read: %w", what, b, store.ErrCorrupt)
	}
	return binary.BigEndian.Uint64(b), nil
}

// nextCounter counts one more in a counter (counter) and returns the new value.
func nextCounter(tx *store.Tx, name, what string) (uint64, error) {
	n, err := counter(tx, name, what)
	if err != nil {
		return 0, err
	}
	n++
	return n, tx.PutSetting(name, binary.BigEndian.AppendUint64(nil, n))
}

// rate is the "game ended → rated" hook: finish calls it for every game
// that ends with a result, in the transaction that ends it, before the
// final mails are drafted. It records how the end counted (gameMeta.Rated)
// and, for a rated end, takes the next update number and writes both
// players' new standings in the game's pool.
func (h *handling) rate(l *loaded) error {
	end := &ratedEnd{Pool: poolOf(l.g.Variant, l.g.Ruleset)}
	l.meta.Rated = end
	if end.Why = unrated(l); end.Why != "" {
		return nil
	}
	score, _ := resultScore(l.g.Result)
	var before [2]poolRating
	for i, seat := range l.g.Seats {
		var err error
		if before[i], err = h.standing(seat.Player, end.Pool); err != nil {
			return err
		}
	}
	seq, err := nextRatingSeq(h.tx)
	if err != nil {
		return err
	}
	start, after := rateGame(before, score, l.meta.Finished, seq)
	for i, seat := range l.g.Seats {
		err := h.changePlayer(seat.Player, func(m *playerMeta) {
			if m.Ratings == nil {
				m.Ratings = map[string]*poolRating{}
			}
			m.Ratings[end.Pool] = &after[i]
		})
		if err != nil {
			return err
		}
		end.After[i] = after[i].Rating
	}
	end.Seq, end.Start = seq, start
	return nil
}

// standing is a player's standing in a pool as it stands in the
// transaction: the sender's from the handling's copy of their data.
func (h *handling) standing(id uint64, pool string) (poolRating, error) {
	if h.player != nil && h.player.ID == id {
		return h.pmeta.standing(pool), nil
	}
	p, err := h.tx.Player(id)
	if err != nil {
		return poolRating{}, err
	}
	return decodePlayerMeta(p).standing(pool), nil
}

// standing is the player's standing in a pool (the zero value, a new
// player's, when they have no rated game there).
func (m *playerMeta) standing(pool string) poolRating {
	if r := m.Ratings[pool]; r != nil {
		return *r
	}
	return poolRating{}
}

// changePlayer changes a player's service data in the transaction: the
// sender's through the handling's copy, which it saves, anyone else's read
// afresh (an earlier command may have changed it since it was loaded).
func (h *handling) changePlayer(id uint64, change func(*playerMeta)) error {
	if h.player != nil && h.player.ID == id {
		change(h.pmeta)
		return h.savePlayer()
	}
	p, err := h.tx.Player(id)
	if err != nil {
		return err
	}
	m := decodePlayerMeta(p)
	change(m)
	p.Meta = m.encode()
	return h.tx.PutPlayer(p)
}

// poolOf is the rating pool of a variant played under a ruleset: the
// variant's id, followed by /RULESET when the ruleset is not the variant's
// first (baltic/sc2022).
func poolOf(variant, ruleset string) string {
	if v, err := variants.Lookup(variant); err == nil && (ruleset == "" || ruleset == v.Rulesets()[0]) {
		return variant
	}
	return variant + "/" + ruleset
}

// RatingPools lists the rating pools, in the order of the variants and
// their rulesets: chess, seachess, …, baltic, baltic/sc2022, ….
func RatingPools() []string {
	var out []string
	for _, v := range variants.All() {
		for _, r := range v.Rulesets() {
			out = append(out, poolOf(v.ID(), r))
		}
	}
	return out
}

// ErrNoPool is returned (wrapped) for a rating pool that does not exist.
var ErrNoPool = errors.New("game: no such rating pool")

// LookupPool reads the name of a rating pool as a player or the operator
// writes it: a variant ("chess", "Baltic"), or a variant and a ruleset
// ("baltic/sc2022", "baltic sc2022"), and returns the pool's name
// (RatingPools); one that names no pool gives ErrNoPool (wrapped).
func LookupPool(name string) (string, error) {
	name = strings.ToLower(strings.Join(strings.Fields(strings.ReplaceAll(name, "/", " ")), "/"))
	if slices.Contains(RatingPools(), name) {
		return name, nil
	}
	variant, ruleset, _ := strings.Cut(name, "/")
	if v, err := variants.Lookup(variant); err == nil {
		for _, r := range v.Rulesets() {
			if strings.EqualFold(r, ruleset) || ruleset == "" && r == v.Rulesets()[0] {
				return poolOf(v.ID(), r), nil
			}
		}
	}
	return "", fmt.Errorf("%w: %q (the pools: %s)", ErrNoPool, name, strings.Join(RatingPools(), ", "))
}

// poolTitle names a pool for people: the variant's name, and the ruleset
// when it is not the first ("Baltic Sea Chess, sc2022").
func poolTitle(pool string) string {
	variant, ruleset, _ := strings.Cut(pool, "/")
	name := variants.Name(variant)
	if name == "" {
		name = variant
	}
	if ruleset != "" {
		name += ", " + ruleset
	}
	return name
}

// ratedName is a seat's player with their rating in the game's pool, as
// start mails show it: "Alice (1523)", "Bob Smith (1500?)".
func (h *handling) ratedName(l *loaded, side int) (string, error) {
	pr, err := h.standing(l.g.Seats[side].Player, poolOf(l.g.Variant, l.g.Ruleset))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (%s)", displayName(l.seats[side]), pr.value()), nil
}

// ratingTerms is the line of an invitation or a challenge's confirmation
// that says whether the game will be rated, with both players' ratings
// (the challenger's alone for an open challenge), or that it is casual, in
// language lg.
func (r *renderer) ratingTerms(l *loaded, lg lang.Lang) ([]string, error) {
	if l.meta.Casual {
		return []string{lg.Tr(casualNotRated)}, nil
	}
	pool := poolOf(l.g.Variant, l.g.Ruleset)
	var names [2]string
	for side, seat := range l.g.Seats {
		p, err := r.tx.Player(seat.Player)
		if err != nil {
			return nil, err
		}
		names[side] = fmt.Sprintf("%s (%s)", displayName(p), decodePlayerMeta(p).standing(pool).value())
	}
	if l.meta.Phase == phaseOpen {
		return []string{lg.Tr("Rated game: %s v whoever takes the challenge.", names[l.meta.Challenger])}, nil
	}
	return []string{lg.Tr("Rated game: %s v %s.", names[0], names[1])}, nil
}

// whyText is why an end was not rated (ratedEnd.Why, stored in English) as
// a message; a reason not known here is shown as it stands.
func whyText(why string) lang.Text {
	if slices.Contains(whyKeys, why) {
		return lang.Key(why)
	}
	return lang.Raw(why)
}

// whyKeys are the reasons an end is not rated, as messages.
var whyKeys = lang.Keys(whyCasual, whyNoMoves, whyOnePlayer, whyNoResult, whyNotPlayed, whyForfeit)

// ratingChanges are the lines of a final mail to a player, in language lg,
// that say how the game changed the ratings: the player's own first ("Your
// rating: 1523 → 1541 (+18)"), then the opponent's ("Bob Smith: 1500 →
// 1482 (−18)"); why it was not rated (a casual game says nothing).
// Observers are not told.
func ratingChanges(l *loaded, side int, lg lang.Lang) []string {
	e := l.meta.Rated
	if e == nil || side < 0 || side > 1 || e.Why == whyCasual {
		return nil
	}
	if e.Seq == 0 {
		return []string{lg.Tr("Not rated: %s.", whyText(e.Why))}
	}
	change := func(i int) string { return rating.Change(e.Start[i], e.After[i]) }
	opp := 1 - side
	return []string{
		lg.Tr("Your rating: %s → %s (%s)", e.Start[side], e.After[side], change(side)),
		fmt.Sprintf("%s: %s → %s (%s)", displayName(l.seats[opp]), e.Start[opp], e.After[opp], change(opp)),
	}
}

// ratingsHelp is the answer to help ratings, a message whose argument
// is the certainty of two RDs (95), so that its per cent sign is a format's.
const ratingsHelp = `Ratings

Every game is rated unless the challenge says casual:
    new chess vs bob@example.org casual
An open challenge is matched only with one of the same choice. A game
that ends before each side has made a move is not rated.

Each variant and ruleset is a pool of its own: chess, seachess,
submachine, baltic, baltic/sc2022, battle, transporter. The system is
Glicko-2: a new player starts at 1500 with a rating deviation (RD) of
350. The RD says how sure the rating is (two RDs either side of it cover
the true strength with %d%% certainty): it shrinks with every game and
grows again, day by day, while you do not play in the pool. A rating
shown with a question mark (1500?) is provisional: its RD is above 110.

  ratings            your ratings in the pools you play in, and their
                     leaders
  ratings VARIANT    a pool's top 20 and your rating and rank, e.g.
                     ratings chess, ratings baltic/sc2022`
