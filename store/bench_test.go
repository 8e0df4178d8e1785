package store

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A "move" in these benchmarks is what the game service commits for one accepted move: the
// processed Message-ID, a log record (sealed and committed to every other move, as the
// games have hidden information), the new sealed state, two deadlines and a mail to each
// side, in one transaction (see accept).

func benchStore(b *testing.B) *Store {
	b.Helper()
	st, err := Open(filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st
}

// BenchmarkCommitMove commits one move at a time: one transaction, one fsync each.
func BenchmarkCommitMove(b *testing.B) {
	st := benchStore(b)
	g := newGame(b, st, true)
	n := 0
	for b.Loop() {
		if err := st.Update(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkMoveWork does the work of a move in a transaction and rolls it back: the store's
// CPU cost of a move, without the commit's writes and fsync.
func BenchmarkMoveWork(b *testing.B) {
	st := benchStore(b)
	g := newGame(b, st, true)
	errRollback := errors.New("roll back")
	n := 0
	for b.Loop() {
		err := st.Update(func(tx *Tx) error {
			if _, err := accept(tx, g.ID, 0, t0); err != nil {
				return err
			}
			return errRollback
		})
		if err != errRollback {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkEmptyCommit commits a transaction that writes one small value: the floor that
// the disk's fsync sets under every commit.
func BenchmarkEmptyCommit(b *testing.B) {
	st := benchStore(b)
	for b.Loop() {
		if err := st.Update(func(tx *Tx) error { return tx.PutSetting("x", []byte("y")) }); err != nil {
			b.Fatal(err)
		}
	}
}

// boltBatch commits fn with bbolt's own DB.Batch, gathering calls for up to delay: the
// library's primitive that Store.Batch is measured against (BenchmarkCommitMoveBoltBatch*,
// BenchmarkLoneBoltBatch*).
func boltBatch(st *Store, delay time.Duration) func(fn func(*Tx) error) error {
	st.db.MaxBatchDelay = delay
	return func(fn func(*Tx) error) error {
		return st.db.Batch(func(btx *bolt.Tx) error { return fn(&Tx{s: st, tx: btx}) })
	}
}

// benchConcurrent commits moves from 64 goroutines (32 per core on this 2-core machine),
// each playing its own game, with the commit function commitWith gives (Update or a batch).
func benchConcurrent(b *testing.B, commitWith func(st *Store) func(fn func(*Tx) error) error) {
	st := benchStore(b)
	commit := commitWith(st)
	var total atomic.Int64
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var g *Game
		if err := st.Update(func(tx *Tx) (err error) { g, err = createGame(tx, true, t0); return err }); err != nil {
			b.Error(err)
			return
		}
		n := 0
		for pb.Next() {
			if err := commit(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
				b.Error(err)
				return
			}
			n++
		}
		total.Add(int64(n))
	})
	b.ReportMetric(float64(total.Load())/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkCommitMoveConcurrent: 64 concurrent players, each move in its own Update.
func BenchmarkCommitMoveConcurrent(b *testing.B) {
	benchConcurrent(b, func(st *Store) func(fn func(*Tx) error) error { return st.Update })
}

// BenchmarkCommitMoveBatched: 64 concurrent players, moves committed with Batch.
func BenchmarkCommitMoveBatched(b *testing.B) {
	benchConcurrent(b, func(st *Store) func(fn func(*Tx) error) error { return st.Batch })
}

// BenchmarkCommitMoveBoltBatch1ms and …10ms: the same with bbolt's DB.Batch, gathering
// for 1 ms and for its default 10 ms.
func BenchmarkCommitMoveBoltBatch1ms(b *testing.B) {
	benchConcurrent(b, func(st *Store) func(fn func(*Tx) error) error { return boltBatch(st, time.Millisecond) })
}

func BenchmarkCommitMoveBoltBatch10ms(b *testing.B) {
	benchConcurrent(b, func(st *Store) func(fn func(*Tx) error) error { return boltBatch(st, 10*time.Millisecond) })
}

// benchLone commits one move at a time from a single caller through commit: the latency a
// lone message pays (a quiet service, a player's move in the night).
func benchLone(b *testing.B, commit func(st *Store) func(fn func(*Tx) error) error) {
	st := benchStore(b)
	c := commit(st)
	g := newGame(b, st, true)
	n := 0
	for b.Loop() {
		if err := c(func(tx *Tx) error { _, err := accept(tx, g.ID, n, t0); return err }); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(n)/1000, "ms/move")
}

// BenchmarkLoneBatch: one caller through Batch (commits at once, as Update does).
func BenchmarkLoneBatch(b *testing.B) {
	benchLone(b, func(st *Store) func(fn func(*Tx) error) error { return st.Batch })
}

// BenchmarkLoneBoltBatch1ms: one caller through bbolt's DB.Batch, 1 ms gathering delay.
func BenchmarkLoneBoltBatch1ms(b *testing.B) {
	benchLone(b, func(st *Store) func(fn func(*Tx) error) error { return boltBatch(st, time.Millisecond) })
}

// playFinishedGame plays a 100-move game with hidden information (50 secret moves) the way
// the service would: every move in its own transaction, the outbox drained as it goes; then
// finishes and archives it.
func playFinishedGame(tb testing.TB, st *Store) {
	tb.Helper()
	g := newGame(tb, st, true)
	for n := range 100 {
		now := t0.Add(time.Duration(n) * time.Hour)
		err := st.Update(func(tx *Tx) error {
			_, err := accept(tx, g.ID, n, now)
			return err
		})
		if err == nil {
			err = st.Update(func(tx *Tx) error {
				mails, err := tx.PendingMail(now, 0)
				for _, m := range mails {
					if err == nil {
						err = tx.MarkSent(m.ID)
					}
				}
				return err
			})
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	err := st.Update(func(tx *Tx) error {
		if err := finish(tx, g.ID, t0.Add(100*time.Hour)); err != nil {
			return err
		}
		return tx.Archive(g.ID)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// inUse is the bytes of a bbolt file's pages that are not free. The file itself grows in
// steps (doubling up to 1 GiB), so its size says little about a few games.
func inUse(tb testing.TB, db *bolt.DB) int64 {
	var size int64
	db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil })
	s := db.Stats()
	return size - int64(s.FreePageN+s.PendingPageN)*int64(db.Info().PageSize)
}

// gameSizes plays games finished games and returns the growth per game of the pages in use:
// in the live file, in a compacted copy, and in a compacted copy once the processed
// Message-IDs are pruned (as PruneProcessed does after the redelivery window).
func gameSizes(tb testing.TB, games int) (live, compacted, pruned float64) {
	dir := tb.TempDir()
	st, err := Open(filepath.Join(dir, "size.db"), Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	copied := func(name string) int64 {
		path := filepath.Join(dir, name)
		if err := st.Compact(path); err != nil {
			tb.Fatal(err)
		}
		db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
		if err != nil {
			tb.Fatal(err)
		}
		defer db.Close()
		return inUse(tb, db)
	}
	live0, compact0 := inUse(tb, st.db), copied("empty.db")
	for range games {
		playFinishedGame(tb, st)
	}
	live1, compact1 := inUse(tb, st.db), copied("full.db")
	if err := st.Update(func(tx *Tx) error { _, err := tx.PruneProcessed(t0.Add(1e6 * time.Hour)); return err }); err != nil {
		tb.Fatal(err)
	}
	pruned1 := copied("pruned.db")
	per := func(a, b int64) float64 { return float64(b-a) / float64(games) }
	return per(live0, live1), per(compact0, compact1), per(compact0, pruned1)
}

// BenchmarkFinishedGameSize reports the bytes a finished, archived 100-move game takes.
func BenchmarkFinishedGameSize(b *testing.B) {
	var live, compacted, pruned float64
	for b.Loop() {
		live, compacted, pruned = gameSizes(b, 20)
	}
	b.ReportMetric(compacted, "bytes/game")
	b.ReportMetric(pruned, "pruned-bytes/game")
	b.ReportMetric(live, "live-bytes/game")
}

// The goal from the issue: a finished 100-move game takes under 20 KB, counting the ids of
// the 100 mails that carried its moves (not yet pruned).
func TestFinishedGameSize(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: plays 10 games")
	}
	live, compacted, pruned := gameSizes(t, 10)
	t.Logf("per finished 100-move game: %.0f bytes compacted (%.0f once its mail ids are pruned), %.0f bytes in use in the live file",
		compacted, pruned, live)
	if compacted >= 20_000 {
		t.Errorf("a finished 100-move game takes %.0f bytes, want under 20 KB", compacted)
	}
}
