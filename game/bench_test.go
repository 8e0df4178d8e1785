package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// benchSeat is one benchmark game: its players and their reply addresses.
type benchSeat struct{ white, black, wtok, btok string }

// benchGames starts n games of chess by mail for the lap-th set of players,
// with White's first move made when first is not "".
func benchGames(f *fixture, lap, n int, first string) []benchSeat {
	seats := make([]benchSeat, n)
	for i := range seats {
		w, bl := fmt.Sprintf("w%d-%d@example.org", lap, i), fmt.Sprintf("b%d-%d@example.org", lap, i)
		f.send(w, f.personal(w), "new", "new chess vs "+bl+" as white time 30d")
		f.reply(bl, "accept")
		seats[i] = benchSeat{w, bl, f.last(w).ReplyTo, f.last(bl).ReplyTo}
		if first != "" {
			f.send(w, seats[i].wtok, "", first)
		}
	}
	return seats
}

// BenchmarkHandleMove measures one accepted move through Service.Handle:
// token lookup, decoding the game, matching and applying the move, the log
// append with its chain hash, the new state, two rendered mails queued, and
// the commit (one fsync). Moves cycle through 16 games of chess with knight
// tours that never repeat a position three times within a lap.
func BenchmarkHandleMove(b *testing.B) {
	f := newFixture(b, Config{})
	const games = 16
	// Fresh games for every lap of the cycle: a second would repeat positions three times.
	newSeats := func(lap int) []benchSeat { return benchGames(f, lap, games, "") }
	cycle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8", "Nh3", "Nh6", "Na3", "Na6", "Nb1", "Nb8", "Ng1", "Ng8"}
	lap := games * len(cycle)
	seats := newSeats(0)
	b.ResetTimer()
	start := time.Now()
	for n := range b.N {
		i := n % lap
		if i == 0 && n > 0 {
			b.StopTimer()
			seats = newSeats(n / lap)
			b.StartTimer()
		}
		g, k := i%games, i/games
		from, to := seats[g].white, seats[g].wtok
		if k%2 == 1 {
			from, to = seats[g].black, seats[g].btok
		}
		res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("bench-%d@x", n), From: from, Recipients: []string{to}, Lines: []string{cycle[k]}})
		if err != nil || res.Mails != 2 {
			b.Fatalf("move %d: %+v %v", n, res, err)
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

// BenchmarkHandleMoveAnswered measures one move answered at once by the opponent's
// conditional line: the move and the reply (two log appends, two states), the line read
// from and written back to the vault, two rendered mails, one commit. The line is
// registered before the timer runs. Same games and knight tours as BenchmarkHandleMove.
func BenchmarkHandleMoveAnswered(b *testing.B) {
	f := newFixture(b, Config{})
	const games = 16
	cycle := []string{"Nf3", "Nf6", "Nc3", "Nc6", "Nb1", "Nb8", "Ng1", "Ng8", "Nh3", "Nh6", "Na3", "Na6", "Nb1", "Nb8", "Ng1", "Ng8"}
	// Fresh games, White's first move made, for every lap of the cycle (less than one each:
	// a second would repeat positions three times).
	newSeats := func(lap int) []benchSeat { return benchGames(f, lap, games, cycle[0]) }
	seats := newSeats(0)
	lap := games*len(cycle)/2 - games
	id := 0
	handle := func(from, to string, lines ...string) Result {
		id++
		res, err := f.svc.Handle(&Incoming{MessageID: fmt.Sprintf("bench-%d@x", id), From: from, Recipients: []string{to}, Lines: lines})
		if err != nil {
			b.Fatal(err)
		}
		return res
	}
	b.ResetTimer()
	for n := range b.N {
		i := n % lap
		if i == 0 && n > 0 {
			b.StopTimer()
			seats = newSeats(n / lap)
			b.StartTimer()
		}
		g, k := i%games, i/games
		black, reply := cycle[2*k+1], cycle[2*k+2]
		b.StopTimer()
		handle(seats[g].white, seats[g].wtok, "if "+black+" then "+reply)
		b.StartTimer()
		if res := handle(seats[g].black, seats[g].btok, black); res.Mails != 2 {
			b.Fatalf("move %d: %+v", n, res)
		}
	}
	b.StopTimer()
	// Every move was answered: the first game, game 1, has its first move, then two plies
	// per turn it had.
	var l *loaded
	err := f.st.View(func(tx *store.Tx) error {
		var err error
		l, err = load(tx, 1)
		return err
	})
	if want := 1 + 2*((min(b.N, lap)+games-1)/games); err != nil || l.state.Ply() != want {
		b.Fatalf("game 1 is at ply %d, want %d: the replies were not all played (%v)", l.state.Ply(), want, err)
	}
}
