package game

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/bottlepost/bottlepost/rating"
	"github.com/bottlepost/bottlepost/store"
)

// RatingsRebuild is what RebuildRatings found: how many rated games it
// replayed, how many standings it compared, and every difference from the
// stored values (there must never be one).
type RatingsRebuild struct {
	Games, Standings int
	Differences      []string
}

// RebuildRatings recomputes every rating pool from the archive and compares
// the result with what is stored, bit for bit: it replays the archive's
// rated games in the order their updates were made (their numbers in the
// rating sequence), each with the code the service rated it with
// (rateGame), from new players' values, and reports
//
//   - a game whose end was rated but should not have been, or the reverse
//     (the rules of unrated, applied again to the archived game);
//   - update numbers missing, repeated, or beyond the sequence's last;
//   - a game whose stored values before and after differ from the replay's;
//   - a player whose stored standing in a pool differs from the replay's
//     (rating, RD, volatility, games, wins, draws, losses, when and by
//     which update it last changed), or who has one the replay has not, or
//     lacks one it has.
//
// Games that ended before ratings existed carry no rating record and are
// left out, as the service left them out. It reads every archived game and
// every player; run it in a read transaction.
func RebuildRatings(tx *store.Tx) (*RatingsRebuild, error) {
	res := &RatingsRebuild{}
	differ := func(format string, args ...any) {
		res.Differences = append(res.Differences, fmt.Sprintf(format, args...))
	}
	ids, err := tx.ArchivedGames()
	if err != nil {
		return nil, err
	}
	var rated []*loaded
	for _, id := range ids {
		l, err := load(tx, id)
		if err != nil {
			differ("game %d cannot be read: %v", id, err)
			continue
		}
		e := l.meta.Rated
		if e == nil {
			continue
		}
		why := unrated(l)
		switch {
		case why == "" && e.Seq == 0:
			differ("game %d (%s) should have been rated, but was not (%s)", id, e.Pool, e.Why)
		case why != "" && e.Seq != 0:
			differ("game %d (%s) was rated (update %d), but should not have been: %s", id, e.Pool, e.Seq, why)
		case why != e.Why:
			differ("game %d (%s): stored as not rated because %q, but the reason is %q", id, e.Pool, e.Why, why)
		case e.Pool != poolOf(l.g.Variant, l.g.Ruleset):
			differ("game %d was rated in pool %s, but belongs to %s", id, e.Pool, poolOf(l.g.Variant, l.g.Ruleset))
		}
		if e.Seq != 0 {
			rated = append(rated, l)
		}
	}
	slices.SortFunc(rated, func(a, b *loaded) int { return cmp.Compare(a.meta.Rated.Seq, b.meta.Rated.Seq) })
	last, err := ratingSeq(tx)
	if err != nil {
		return nil, err
	}
	var prev uint64
	for i, l := range rated {
		seq := l.meta.Rated.Seq
		switch {
		case seq == prev:
			differ("update %d was made by two games, %d and %d", seq, rated[i-1].g.ID, l.g.ID)
		case seq > prev+1:
			differ("updates %d to %d were made by no archived game (the next, %d, by game %d)", prev+1, seq-1, seq, l.g.ID)
		}
		prev = seq
	}
	if prev != last {
		differ("the rating sequence stands at %d, but the archive's last update is %d", last, prev)
	}

	// The replay, in the order of the updates.
	replayed := map[string]map[uint64]poolRating{}
	for _, l := range rated {
		e := l.meta.Rated
		if replayed[e.Pool] == nil {
			replayed[e.Pool] = map[uint64]poolRating{}
		}
		var before [2]poolRating
		for i, seat := range l.g.Seats {
			before[i] = replayed[e.Pool][seat.Player]
		}
		score, _ := resultScore(l.g.Result)
		start, after := rateGame(before, score, l.meta.Finished, e.Seq)
		for i, seat := range l.g.Seats {
			replayed[e.Pool][seat.Player] = after[i]
			if !sameRating(start[i], e.Start[i]) || !sameRating(after[i].Rating, e.After[i]) {
				differ("game %d (update %d, %s), seat %d: stored %s → %s, replayed %s → %s",
					l.g.ID, e.Seq, e.Pool, i, exact(e.Start[i]), exact(e.After[i]), exact(start[i]), exact(after[i].Rating))
			}
		}
		res.Games++
	}

	// The players' standings.
	err = tx.EachPlayer(func(p *store.Player) error {
		m := decodePlayerMeta(p)
		for _, pool := range RatingPools() {
			stored, has := m.Ratings[pool]
			want, ok := replayed[pool][p.ID]
			switch {
			case has && stored != nil && !ok:
				differ("player %d (%s), %s: stored %s, but no rated game of theirs is in the archive", p.ID, p.Address, pool, standingText(*stored))
			case ok && (!has || stored == nil):
				differ("player %d (%s), %s: no standing stored, replayed %s", p.ID, p.Address, pool, standingText(want))
			case ok && !sameStanding(*stored, want):
				differ("player %d (%s), %s: stored %s, replayed %s", p.ID, p.Address, pool, standingText(*stored), standingText(want))
			}
			if ok {
				res.Standings++
			}
		}
		for pool := range m.Ratings {
			if !slices.Contains(RatingPools(), pool) {
				differ("player %d (%s) has a standing in %q, which is no pool", p.ID, p.Address, pool)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// sameRating compares bit for bit.
func sameRating(a, b rating.Rating) bool {
	return math.Float64bits(a.Rating) == math.Float64bits(b.Rating) && math.Float64bits(a.RD) == math.Float64bits(b.RD) &&
		math.Float64bits(a.Volatility) == math.Float64bits(b.Volatility)
}

// sameStanding compares two standings: the values bit for bit, the
// counts, the time and the update number.
func sameStanding(a, b poolRating) bool {
	return sameRating(a.Rating, b.Rating) && a.Games == b.Games && a.Wins == b.Wins && a.Draws == b.Draws &&
		a.Losses == b.Losses && a.Last.Equal(b.Last) && a.Seq == b.Seq
}

// exact writes a rating's values so that different values read
// differently (the shortest decimal that reads back to each).
func exact(r rating.Rating) string {
	return fmt.Sprintf("%v/%v/%v", r.Rating, r.RD, r.Volatility)
}

func standingText(p poolRating) string {
	return fmt.Sprintf("%s, %d games (%d won, %d drawn, %d lost), last %s (update %d)",
		exact(p.Rating), p.Games, p.Wins, p.Draws, p.Losses, p.Last.UTC().Format(time.RFC3339Nano), p.Seq)
}
