package game

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// The scale benchmarks run on the stores of scaleSpecs (by default 100,000 games in play,
// without an archive and with 1,000,000 archived games), built once and kept under
// scaleDir (see scale_test.go). BenchmarkScaleBuild builds them afresh and times it:
//
//	go test ./game -run '^$' -bench ScaleBuild -benchtime 1x -timeout 2h
//	go test ./game -run '^$' -bench 'Scale(Move|StoreMove|Startup|OpenChallenge|Tick|Prune)' -timeout 2h
//
// Every benchmark reports, beside the time, what it counted: game records read and pages
// written per operation (store.Stats), and the Go heap.

// BenchmarkScaleBuild builds each store of scaleSpecs afresh, replacing a kept one: the
// time of the build, the file's size and its free pages (run it with -benchtime 1x).
func BenchmarkScaleBuild(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			var info scaleInfo
			for range b.N {
				_, info = cachedScale(b, spec, true)
			}
			b.ReportMetric(info.Seconds, "build-s")
			b.ReportMetric(float64(info.FileBytes)/1e6, "file-MB")
			b.ReportMetric(float64(info.FreePages), "free-pages")
			b.ReportMetric(float64(info.Moves), "moves")
			b.ReportMetric(float64(info.Players), "players")
		})
	}
}

// scaleClock is the benchmarks' service clock: an hour after the build.
var scaleClock = scaleNow.Add(time.Hour)

// BenchmarkScaleMove is one move of a game in play through Service.Handle, as a player's
// mail: token lookup, the game loaded and decoded, the move parsed and applied, the log
// record appended (sealed and committed to for a Seachess hidden move), the state and
// deadlines written, two mails rendered and queued, the Message-ID marked processed, and
// the commit with its fsync. Moves go round 256 games picked at random. Reported beside the
// time: game records read, page writes and bytes written per move, the free pages whose
// list every commit writes, and memory, after start-up and after the moves: the Go heap in
// use over what it was before the store was opened, and the process's resident memory,
// split into the database file's pages that were read (rss-file) and the rest (rss-anon:
// the Go heap, the runtime, and what it keeps for reuse).
func BenchmarkScaleMove(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			benchMove(b, path, spec)
		})
	}
}

// BenchmarkScaleMoveCompacted is BenchmarkScaleMove on a compacted copy of each store
// (Store.Compact, as bottlepost compact makes it): no free pages, so every commit writes a
// free-page list of nothing. The copy is made once and kept beside the store.
func BenchmarkScaleMoveCompacted(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			benchMove(b, compactedScale(b, path), spec)
		})
	}
}

// compactedScale returns the path of a compacted copy of the store at path, making it
// (with its key) when there is none.
func compactedScale(b *testing.B, path string) string {
	compact := path + ".compact.db"
	if _, err := os.Stat(compact); err == nil {
		return compact
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	err = st.Compact(compact)
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	key, err := os.ReadFile(path + ".key")
	if err == nil {
		err = os.WriteFile(compact+".key", key, 0o600)
	}
	if err != nil {
		os.Remove(compact)
		b.Fatal(err)
	}
	return compact
}

func benchMove(b *testing.B, path string, spec scaleSpec) {
	heap0 := heapInUse()
	st, svc := openScale(b, path, scaleClock)
	defer st.Close()
	heapOpen := heapOver(heap0)
	_, fileOpen, anonOpen := rss()
	p := newScalePlayer(b, st, svc, spec, 256)
	plan := p.plan(b, b.N)
	s1 := st.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for _, m := range plan {
		res, err := svc.Handle(m.in)
		if err != nil || res.Mails != 2 || res.Refused != "" {
			b.Fatalf("move %s in game %d: %+v, %v", m.text, m.game, res, err)
		}
	}
	b.StopTimer()
	s2 := st.Stats()
	reportScale(b, s1, s2)
	_, fileAfter, anonAfter := rss()
	b.ReportMetric(float64(heapOpen)/1e6, "heap-open-MB")
	b.ReportMetric(float64(heapOver(heap0))/1e6, "heap-after-MB")
	b.ReportMetric(float64(fileOpen)/1e6, "rss-file-open-MB")
	b.ReportMetric(float64(fileAfter)/1e6, "rss-file-after-MB")
	b.ReportMetric(float64(anonOpen)/1e6, "rss-anon-open-MB")
	b.ReportMetric(float64(anonAfter)/1e6, "rss-anon-after-MB")
	drainOutbox(b, st, scaleClock)
}

// reportScale reports the store's counts between s1 and s2 per operation.
func reportScale(b *testing.B, s1, s2 store.Stats) {
	n := float64(b.N)
	b.ReportMetric(float64(s2.GamesRead-s1.GamesRead)/n, "games-read/op")
	b.ReportMetric(float64(s2.PagesWritten-s1.PagesWritten)/n, "page-writes/op")
	b.ReportMetric(float64(s2.PageBytesWritten-s1.PageBytesWritten)/n/1e3, "KB-written/op")
	b.ReportMetric(float64(s2.FreePages), "free-pages")
	b.ReportMetric(b.Elapsed().Seconds()*1e3/n, "ms/op")
}

// BenchmarkScaleStoreMove is the store's part of a move, as the service does it, without
// reading the mail or rendering the replies: in one transaction the Message-ID marked
// processed, the game loaded, the move applied (log record, state, deadlines: the service's
// own move), and two mails of a real reply's size queued.
func BenchmarkScaleStoreMove(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			benchStoreMove(b, path, spec)
		})
	}
}

// BenchmarkScaleStoreMoveCompacted is BenchmarkScaleStoreMove on the compacted copy of
// each store (see BenchmarkScaleMoveCompacted).
func BenchmarkScaleStoreMoveCompacted(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			benchStoreMove(b, compactedScale(b, path), spec)
		})
	}
}

func benchStoreMove(b *testing.B, path string, spec scaleSpec) {
	st, svc := openScale(b, path, scaleClock)
	defer st.Close()
	p := newScalePlayer(b, st, svc, spec, 256)
	plan := p.plan(b, b.N+1)
	// One move through Handle gives the replies' real size.
	if res, err := svc.Handle(plan[0].in); err != nil || res.Mails != 2 {
		b.Fatalf("first move: %+v, %v", res, err)
	}
	var replies [][]byte
	st.View(func(tx *store.Tx) error {
		ms, err := tx.PendingMail(scaleClock.Add(time.Hour), 0)
		for _, m := range ms[max(0, len(ms)-2):] {
			replies = append(replies, m.Data)
		}
		return err
	})
	if len(replies) != 2 {
		b.Fatalf("%d replies queued", len(replies))
	}
	s1 := st.Stats()
	b.ReportAllocs()
	b.ResetTimer()
	for _, m := range plan[1:] {
		err := st.Update(func(tx *store.Tx) error {
			if err := tx.MarkProcessed(mailfmt.Key(m.in.From)+" "+m.in.MessageID, scaleClock); err != nil {
				return err
			}
			h := svc.internal(tx, scaleClock)
			h.from = mailfmt.Key(m.in.From)
			l, err := h.game(m.game)
			if err != nil {
				return err
			}
			if err := h.move(l, m.side, m.text, "", h.draft(h.from, l, "update")); err != nil {
				return err
			}
			for i, data := range replies {
				if err := tx.Enqueue(&store.Mail{Game: m.game, From: scaleAddress, To: []string{l.seats[i].Address},
					Data: data, Created: scaleClock}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatalf("move %s in game %d: %v", m.text, m.game, err)
		}
	}
	b.StopTimer()
	reportScale(b, s1, st.Stats())
	drainOutbox(b, st, scaleClock)
}

// BenchmarkScaleStartup is what the daemon does on the database before it serves
// (daemon.New and Run): store.Open, game.New, Service.Recover, Service.Heartbeat; then
// Close. "warm": the file's pages are in the page cache (the benchmark opened it before);
// "cold": they are dropped from it before every start (posix_fadvise DONTNEED), so what
// start-up reads comes from the disk.
func BenchmarkScaleStartup(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		for _, cold := range []bool{false, true} {
			name := spec.String() + "/warm"
			if cold {
				name = spec.String() + "/cold"
			}
			b.Run(name, func(b *testing.B) {
				path, _ := cachedScale(b, spec, false)
				if cold {
					if err := evict(path); errors.Is(err, errNoEvict) {
						b.Skip(err)
					}
				}
				var games int64
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if cold {
						b.StopTimer()
						if err := evict(path); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
					st, _ := openScale(b, path, scaleClock)
					games += st.Stats().GamesRead
					if err := st.Close(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(games)/float64(b.N), "games-read/op")
				b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/op")
			})
		}
	}
}

// BenchmarkScaleOpenChallenge is "new chess time 5d" from a player without an opponent:
// every other one is matched with the challenge the one before left (or one the build
// left), the others wait. The match index finds the challenges with the same terms; no
// other game is read.
func BenchmarkScaleOpenChallenge(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			st, svc := openScale(b, path, scaleClock)
			defer st.Close()
			nonce := time.Now().UnixNano()
			s1 := st.Stats()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				from := fmt.Sprintf("challenger%d.%d@players.example", nonce, i)
				res, err := svc.Handle(&Incoming{MessageID: fmt.Sprintf("open%d.%d@players.example", nonce, i), From: from,
					Recipients: []string{svc.replyAddress(svc.accountToken(from))}, Lines: []string{"new chess time 5d"}})
				if err != nil || res.Refused != "" || res.Mails == 0 {
					b.Fatalf("new chess: %+v, %v", res, err)
				}
			}
			b.StopTimer()
			reportScale(b, s1, st.Stats())
			drainOutbox(b, st, scaleClock)
		})
	}
}

// BenchmarkScaleMatchScanBefore is what looking for an open challenge cost before the match
// index: every game not archived read and decoded (the service's load: record, state,
// players), as matchOpen did on every "new" without an opponent. Read-only; for comparison.
func BenchmarkScaleMatchScanBefore(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			st, _ := openScale(b, path, scaleClock)
			defer st.Close()
			s1 := st.Stats()
			b.ResetTimer()
			for range b.N {
				err := st.View(func(tx *store.Tx) error {
					ids, err := tx.Games()
					if err != nil {
						return err
					}
					for _, id := range ids {
						if _, err := load(tx, id); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportScale(b, s1, st.Stats())
		})
	}
}

// BenchmarkScaleTick is the sweep with nothing due (the daemon runs it every minute): the
// deadline index read up to now, the digests, the heartbeat.
func BenchmarkScaleTick(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, _ := cachedScale(b, spec, false)
			st, svc := openScale(b, path, scaleClock)
			defer st.Close()
			s1 := st.Stats()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				res, err := svc.Tick(scaleClock)
				if err != nil || res.Games != 0 {
					b.Fatalf("tick: %+v, %v", res, err)
				}
			}
			b.StopTimer()
			reportScale(b, s1, st.Stats())
		})
	}
}

// BenchmarkScalePruneProcessed is the daemon's hourly pruning of processed Message-IDs with
// none old enough to go (the default retention is 90 days): one write transaction that
// reads every processed id. Reports the ids read per operation.
func BenchmarkScalePruneProcessed(b *testing.B) {
	for _, spec := range scaleSpecs(b) {
		b.Run(spec.String(), func(b *testing.B) {
			path, info := cachedScale(b, spec, false)
			st, _ := openScale(b, path, scaleClock)
			defer st.Close()
			s1 := st.Stats()
			b.ResetTimer()
			for range b.N {
				err := st.Update(func(tx *store.Tx) error {
					n, err := tx.PruneProcessed(scaleClock.Add(-90 * timing.Day))
					if err == nil && n != 0 {
						err = fmt.Errorf("pruned %d ids", n)
					}
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			reportScale(b, s1, st.Stats())
			b.ReportMetric(float64(info.Processed), "ids-built")
		})
	}
}
