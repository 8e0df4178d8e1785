package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

func init() {
	commands["ratings"] = command{"ratings VARIANT [--json] | ratings --rebuild  [--config FILE] [--data DIR]  a rating pool's players; --rebuild recomputes every pool from the archive and prints each difference", runRatings}
}

// runRatings is bottlepost ratings: a pool's rated players, or (--rebuild)
// the comparison of every stored rating with its recomputation from the
// archive. A running service answers through its control socket, as for
// export; otherwise the database is opened read-only. Exit status: 0, 1
// when --rebuild found a difference or the command failed, 2 for a usage
// error.
func runRatings(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ratings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print one JSON array of the players, the numbers unrounded")
	rebuild := fs.Bool("rebuild", false, "recompute every pool from the archive and print each difference from the stored ratings")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if *rebuild == (len(pos) == 1) || len(pos) > 1 || *rebuild && *asJSON {
		fmt.Fprintln(stderr, "usage: bottlepost ratings VARIANT [--json] [--config FILE] [--data DIR]")
		fmt.Fprintln(stderr, "       bottlepost ratings --rebuild [--config FILE] [--data DIR]")
		fmt.Fprintf(stderr, "  the pools: %s\n", strings.Join(game.RatingPools(), ", "))
		return 2
	}
	if err := sf.resolve(); err != nil {
		fmt.Fprintln(stderr, "bottlepost: ratings:", err)
		return 2
	}
	if *rebuild {
		return ratingsRebuild(&sf, stdout, stderr)
	}
	pool, err := game.LookupPool(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: ratings:", err)
		return 2
	}
	list, err := ratingsList(&sf, pool)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: ratings:", err)
		return 1
	}
	if *asJSON {
		if list == nil {
			list = []game.Standing{}
		}
		b, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: ratings:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	if len(list) == 0 {
		fmt.Fprintf(stdout, "no rated player in %s yet\n", pool)
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rank\tname\taddress\trating\tRD\tvolatility\tgames\twins\tdraws\tlosses\tlast rated game\t")
	for _, s := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%.1f\t%.1f\t%.6f\t%d\t%d\t%d\t%d\t%s\t\n", s.Rank, s.Name, s.Player, s.Rating, s.RD, s.Volatility,
			s.Games, s.Wins, s.Draws, s.Losses, s.Last.UTC().Format("2006-01-02"))
	}
	tw.Flush()
	return 0
}

// ratingsList reads a pool's players from the running service, or from the
// database opened read-only.
func ratingsList(sf *storeFlags, pool string) ([]game.Standing, error) {
	answer, err := daemon.Request(sf.data, "ratings "+pool)
	switch {
	case err == nil:
		var list []game.Standing
		if err := json.Unmarshal([]byte(strings.TrimPrefix(answer, "ok ")), &list); err != nil {
			return nil, fmt.Errorf("the service's answer: %w", err)
		}
		return list, nil
	case !errors.Is(err, daemon.ErrNotRunning):
		return nil, err
	}
	st, err := sf.open(true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var list []game.Standing
	err = st.View(func(tx *store.Tx) error {
		var err error
		list, err = game.Ratings(tx, pool)
		return err
	})
	return list, err
}

// rebuildRatings is the bench's final check of the ratings
// (loadtest.Config.CheckRatings): game.RebuildRatings on the database the
// stopped daemon left in dataDir.
func rebuildRatings(dataDir string) (games int, diffs []string, err error) {
	sf := storeFlags{data: dataDir}
	st, err := sf.open(true)
	if err != nil {
		return 0, nil, err
	}
	defer st.Close()
	err = st.View(func(tx *store.Tx) error {
		res, err := game.RebuildRatings(tx)
		if err == nil {
			games, diffs = res.Games, res.Differences
		}
		return err
	})
	return games, diffs, err
}

// ratingsRebuild recomputes the pools (game.RebuildRatings) in the running
// service or on the database opened read-only, and prints each difference.
func ratingsRebuild(sf *storeFlags, stdout, stderr io.Writer) int {
	var diffs []string
	var games, standings int
	where := "the running service's database"
	answer, lines, err := daemon.RequestLines(sf.data, "ratings-rebuild")
	switch {
	case err == nil:
		diffs = lines
		f := strings.Fields(answer)
		if len(f) != 3 || f[0] != "ok" {
			fmt.Fprintf(stderr, "bottlepost: ratings: the service answered %q\n", answer)
			return 1
		}
		games, _ = strconv.Atoi(f[1])
		standings, _ = strconv.Atoi(f[2])
	case errors.Is(err, daemon.ErrNotRunning):
		st, err := sf.open(true)
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: ratings:", err)
			return 1
		}
		defer st.Close()
		where = st.Path()
		err = st.View(func(tx *store.Tx) error {
			res, err := game.RebuildRatings(tx)
			if err == nil {
				diffs, games, standings = res.Differences, res.Games, res.Standings
			}
			return err
		})
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: ratings:", err)
			return 1
		}
	default:
		fmt.Fprintln(stderr, "bottlepost: ratings:", err)
		return 1
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	if len(diffs) > 0 {
		fmt.Fprintf(stderr, "bottlepost: ratings: %s: %d differences between the stored ratings and their recomputation from %d rated games\n", where, len(diffs), games)
		return 1
	}
	fmt.Fprintf(stdout, "%s: the stored ratings equal their recomputation from the archive (%d rated games, %d standings)\n", where, games, standings)
	return 0
}
