package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// BenchmarkHandleMove measures one accepted move through Service.Handle:
// token lookup, decoding the game, matching and applying the move, the log
// append with its chain hash, the new state, two rendered mails queued, and
// the commit (one fsync). Moves cycle through 16 games of chess with knight
// tours that never repeat a position three times within a lap.
func BenchmarkHandleMove(b *testing.B) {
	f := newFixture(b, Config{})
	const games = 16
	type seat struct{ white, black, wtok, btok string }
	seats := make([]seat, games)
	for i := range seats {
		w, bl := fmt.Sprintf("w%d@example.org", i), fmt.Sprintf("b%d@example.org", i)
		f.send(w, f.personal(w), "new", "new chess vs "+bl+" as white time 30d")
		f.reply(bl, "accept")
		seats[i] = seat{w, bl, f.last(w).ReplyTo, f.last(bl).ReplyTo}
	}
	cycle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8", "Nh3", "Nh6", "Na3", "Na6", "Nb1", "Nb8", "Ng1", "Ng8"}
	lap := games * len(cycle)
	if b.N > lap {
		b.N = lap // one lap: a second would repeat positions three times
	}
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		g, k := i%games, i/games
		from, to := seats[g].white, seats[g].wtok
		if k%2 == 1 {
			from, to = seats[g].black, seats[g].btok
		}
		res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("bench-%d@x", i), From: from, Recipients: []string{to}, Lines: []string{cycle[k]}})
		if err != nil || res.Mails != 2 {
			b.Fatalf("move %d: %+v %v", i, res, err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
	b.StopTimer()
	f.st.Update(func(tx *store.Tx) error {
		ms, _ := tx.PendingMail(f.now.Add(time.Hour), 1<<20)
		for _, m := range ms {
			tx.MarkSent(m.ID)
		}
		return nil
	})
}
