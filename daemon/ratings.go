package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

// answerRatings answers the control requests of bottlepost ratings, on the
// daemon's open database (a read transaction: the service goes on):
//
//	ratings POOL       "ok JSON", JSON the pool's rated players
//	                   (game.Ratings, one array on the line)
//	ratings-rebuild    a line "problem TEXT" per difference between the
//	                   stored ratings and their recomputation from the
//	                   archive (game.RebuildRatings), then "ok GAMES STANDINGS"
func (d *Daemon) answerRatings(w io.Writer, verb, arg string) {
	switch verb {
	case "ratings":
		var list []game.Standing
		err := d.st.View(func(tx *store.Tx) error {
			var err error
			list, err = game.Ratings(tx, arg)
			return err
		})
		if err != nil {
			fmt.Fprintln(w, "error", err)
			return
		}
		if list == nil {
			list = []game.Standing{}
		}
		b, err := json.Marshal(list)
		if err != nil {
			fmt.Fprintln(w, "error", err)
			return
		}
		fmt.Fprintf(w, "ok %s\n", b)
	case "ratings-rebuild":
		var res *game.RatingsRebuild
		err := d.st.View(func(tx *store.Tx) error {
			var err error
			res, err = game.RebuildRatings(tx)
			return err
		})
		if err != nil {
			fmt.Fprintln(w, "error", err)
			return
		}
		for _, diff := range res.Differences {
			fmt.Fprintln(w, "problem", strings.ReplaceAll(diff, "\n", " "))
		}
		d.log.Info("ratings rebuilt on request", "games", res.Games, "differences", len(res.Differences))
		fmt.Fprintln(w, "ok", res.Games, res.Standings)
	}
}
