package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// The scale proof (issue "Prove it under load"): a store with many games in play and a large
// archive, where a move's commit must cost what it changes, start-up must read no game, and
// memory must not follow the number of games.
//
// buildScale makes such a store fast, straight through the store API in large transactions,
// with the records the service itself writes: players with their lists of games, real rules
// states after a few random legal moves, a log that starts with the setup record and holds
// the moves (sealed and committed to in Seachess), reply tokens, the moves' Message-IDs
// marked processed, deadlines for the games in play (computed by the service), open
// challenges listed under their terms, daily digests for one player in five, and finished
// games archived through the store's own Archive.
//
// TestScaleStructure builds a small pair of stores in every test run and checks the
// properties by counting (game records read, pages written), not by timing. The benchmarks
// (BenchmarkScale…) measure the real sizes: 100,000 games in play with an empty archive and
// with 1,000,000 archived games (see docs/performance.md). They build each store once and
// keep it under $BOTTLEPOST_SCALE_DIR (default: the system's temporary directory,
// bottlepost-scale/); delete it to rebuild. BOTTLEPOST_LONG=1 makes TestScaleLong check the
// properties at the real size.

// scaleSpec is the size of a store to build.
type scaleSpec struct {
	Active   int // games not archived: in play, and one in a hundred an open challenge
	Archived int // finished games, archived
}

func (s scaleSpec) String() string { return fmt.Sprintf("active=%d/archived=%d", s.Active, s.Archived) }

// scaleSpecs are the stores the benchmarks compare: BOTTLEPOST_SCALE="ACTIVE:ARCHIVED,…"
// overrides the default, 100,000 in play with no archive and with 1,000,000 archived.
func scaleSpecs(tb testing.TB) []scaleSpec {
	env := os.Getenv("BOTTLEPOST_SCALE")
	if env == "" {
		return []scaleSpec{{100_000, 0}, {100_000, 1_000_000}}
	}
	var out []scaleSpec
	for _, f := range strings.Split(env, ",") {
		a, r, ok := strings.Cut(strings.TrimSpace(f), ":")
		na, err1 := strconv.Atoi(a)
		nr, err2 := strconv.Atoi(r)
		if !ok || err1 != nil || err2 != nil || na < 4 || nr < 0 {
			tb.Fatalf("BOTTLEPOST_SCALE=%q: want ACTIVE:ARCHIVED,… (ACTIVE at least 4)", env)
		}
		out = append(out, scaleSpec{na, nr})
	}
	return out
}

// scaleNow is when a scale store was built: the games in play have moved in the 30 hours
// before it, so no deadline is due at it; the benchmarks' clock stands an hour later.
var scaleNow = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

const scaleAddress = "games@bottlepost.test"

// scaleInfo is what a build reports; it is kept beside a cached store.
type scaleInfo struct {
	Spec      scaleSpec
	Players   int
	Moves     int     // move records written
	Processed int     // Message-IDs marked processed (the moves of the games in play)
	Digests   int     // players with a daily digest (one in five)
	Seconds   float64 // wall time of the build
	FileBytes int64   // the database file's size after the build
	FreePages int     // pages free in it (bbolt writes their list at every commit)
	GoVersion string
}

// opening is a short random game of a variant, computed once and used by many built games.
type opening struct {
	v       rules.Variant
	ruleset string
	seed    uint64
	start   []byte        // the start state
	plies   []store.Entry // the moves as the service appends them (At set per game)
	final   rules.State   // the state after them
}

// scaleMix picks the variant of game i: three in four chess, the rest spread over the
// variants, Seachess (hidden information: sealed states and moves) most.
func scaleMix(i int) string {
	switch n := i % 100; {
	case n < 72:
		return "chess"
	case n < 87:
		return "seachess"
	case n < 91:
		return "baltic"
	case n < 94:
		return "battle"
	case n < 97:
		return "submachine"
	}
	return "transporter"
}

// makeOpenings plays, per variant, k short random games of up to maxPlies moves that do not
// end the game.
func makeOpenings(tb testing.TB, k, maxPlies int, r *rand.Rand) map[string][]*opening {
	out := map[string][]*opening{}
	for _, id := range variants.IDs {
		v, err := variants.Lookup(id)
		if err != nil {
			tb.Fatal(err)
		}
		for range k {
			o := &opening{v: v, ruleset: v.Rulesets()[0], seed: r.Uint64()}
			st, err := v.New(rules.Options{Ruleset: o.ruleset, Seed: o.seed})
			if err != nil {
				tb.Fatal(err)
			}
			if o.start, err = st.MarshalBinary(); err != nil {
				tb.Fatal(err)
			}
			n := 1 + r.IntN(maxPlies)
			for len(o.plies) < n {
				next, e, ok := randomMove(st, r)
				if !ok {
					break
				}
				o.plies = append(o.plies, e)
				st = next
			}
			o.final = st
			out[id] = append(out[id], o)
		}
	}
	return out
}

// randomMove plays a random move of st that the referee accepts and that does not end the
// game, and returns the new state with the log entry the service would append.
func randomMove(st rules.State, r *rand.Rand) (rules.State, store.Entry, bool) {
	moves := st.Moves()
	for _, k := range r.Perm(len(moves)) {
		next, rep, err := st.Apply(moves[k])
		if err != nil || next.Outcome().Over() {
			continue
		}
		return next, moveEntry(st, rep), true
	}
	return nil, store.Entry{}, false
}

// moveEntry is the log entry of a move, as the service's move writes it (At left unset).
func moveEntry(st rules.State, rep *rules.Report) store.Entry {
	return store.Entry{Kind: store.KindMove, Ply: uint32(st.Ply()), Side: store.Side(st.ToMove()),
		Text: rep.Text, Secret: rep.Secret, Public: rep.Record[rules.ViewPublic],
		Lines: [2]string{rep.Record[rules.ViewWhite], rep.Record[rules.ViewBlack]}}
}

// scaleBuilder writes the games of one store.
type scaleBuilder struct {
	tb        testing.TB
	svc       *Service
	st        *store.Store
	r         *rand.Rand
	openings  map[string][]*opening
	players   []*store.Player // index i is player id i+1
	lists     map[uint64][]uint64
	moves     int // move records written
	processed int // Message-IDs marked processed
	digests   int // players with a daily digest
}

// buildScale builds a store of spec at path (which must not exist) and reports on it.
func buildScale(tb testing.TB, path string, spec scaleSpec) scaleInfo {
	tb.Helper()
	start := time.Now()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	seed := [32]byte{byte(spec.Active), byte(spec.Active >> 8), byte(spec.Archived), byte(spec.Archived >> 8)}
	svc, err := New(Config{Address: scaleAddress}, Options{Store: st, Clock: func() time.Time { return scaleNow },
		Rand: rand.NewChaCha8(seed)})
	if err != nil {
		tb.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(spec.Active), uint64(spec.Archived)))
	b := &scaleBuilder{tb: tb, svc: svc, st: st, r: r, openings: makeOpenings(tb, 64, 12, r), lists: map[uint64][]uint64{}}

	// Players: a pool for the games in play (four games each) and more who played only
	// games now archived.
	pool := max(2, spec.Active/2)
	total := pool + spec.Archived/5
	b.batch(total, 20_000, func(tx *store.Tx, i int) error {
		p := &store.Player{Name: fmt.Sprintf("Player %d", i+1), Address: fmt.Sprintf("p%d@players.example", i+1),
			Created: scaleNow.Add(-3 * 365 * timing.Day)}
		b.players = append(b.players, p)
		return tx.PutPlayer(p)
	})
	// Archived games first (they are the older ones), then the games in play.
	b.batch(spec.Archived, 5_000, func(tx *store.Tx, i int) error {
		w := pool + r.IntN(total-pool)
		bl := r.IntN(total)
		if bl == w {
			bl = (w + 1) % total
		}
		return b.archived(tx, i, b.players[w], b.players[bl])
	})
	b.batch(spec.Active, 5_000, func(tx *store.Tx, i int) error {
		w, bl := b.players[2*i%pool], b.players[(2*i+1)%pool]
		if i%100 == 99 {
			return b.open(tx, i, w)
		}
		return b.active(tx, i, w, bl)
	})
	// The players' lists of games not archived, as the service keeps them, and a daily
	// digest for one player in five, at a random time of day: due in the day after the
	// benchmarks' clock (scaleNow plus an hour), so a tick then finds none due.
	b.batch(total, 20_000, func(tx *store.Tx, i int) error {
		p := b.players[i]
		list, digest := b.lists[p.ID], i%5 == 0
		if len(list) == 0 && !digest {
			return nil
		}
		p, err := tx.Player(p.ID)
		if err != nil {
			return err
		}
		m := decodePlayerMeta(p)
		m.Games = list
		if digest {
			m.Digest = &digestSchedule{Spec: fmt.Sprintf("CRON_TZ=UTC %d %d * * *", r.IntN(60), r.IntN(24))}
			sched, err := timing.ParseSchedule(m.Digest.Spec)
			if err != nil {
				return err
			}
			p.Due = sched.Next(scaleNow.Add(time.Hour)).UTC()
			b.digests++
		}
		p.Meta = m.encode()
		return tx.PutPlayer(p)
	})
	err = st.Update(func(tx *store.Tx) error {
		hb, _ := scaleNow.MarshalText()
		if err := tx.PutSetting(settingHeartbeat, hb); err != nil {
			return err
		}
		// Every open challenge was written with its match key.
		return tx.PutSetting(settingOpenListed, []byte("1"))
	})
	if err != nil {
		tb.Fatal(err)
	}
	stats := st.Stats()
	info := scaleInfo{Spec: spec, Players: total, Moves: b.moves, Processed: b.processed, Digests: b.digests, Seconds: time.Since(start).Seconds(),
		FreePages: stats.FreePages, GoVersion: runtime.Version()}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	info.FileBytes = fi.Size()
	return info
}

// batch runs fn for 0 ≤ i < n, per transactions of size calls.
func (b *scaleBuilder) batch(n, size int, fn func(tx *store.Tx, i int) error) {
	for from := 0; from < n; from += size {
		to := min(n, from+size)
		err := b.st.Update(func(tx *store.Tx) error {
			for i := from; i < to; i++ {
				if err := fn(tx, i); err != nil {
					return fmt.Errorf("item %d: %w", i, err)
				}
			}
			return nil
		})
		if err != nil {
			b.tb.Fatal(err)
		}
	}
}

// newGame is what create writes: a game between white and black with the moves of o, the
// first at created+step, the others step apart.
type newGame struct {
	white, black *store.Player
	o            *opening
	tc           string
	openSeat     bool // an open challenge: the second seat has no token yet
	old          bool // the Message-IDs of its moves were pruned long ago
	created      time.Time
	step         time.Duration
}

// create writes a new game as the service would have: the game, its setup record, the
// reply tokens (the challenger's only for an open challenge), every move with its
// Message-ID marked processed (unless the game is old). It returns the game loaded, with
// the time of the last move.
func (b *scaleBuilder) create(tx *store.Tx, i int, n newGame) (*loaded, time.Time, error) {
	white, black, o, tc, created := n.white, n.black, n.o, n.tc, n.created
	g := &store.Game{Variant: o.v.ID(), Ruleset: o.ruleset, TimeControl: tc, Status: store.StatusActive,
		Hidden: o.v.Hidden(), State: o.start, Created: created, Updated: created,
		Seats: [2]store.Seat{{Player: white.ID, Address: white.Address}, {Player: black.ID, Address: black.Address}}}
	parsed, err := timing.ParseTimeControl(tc)
	if err != nil {
		return nil, time.Time{}, err
	}
	meta := &gameMeta{Phase: phasePlay, Challenger: i % 2, Time: tc, DrawOffer: -1, TimedOut: -1, Seed: o.seed,
		Clocks: [2]timing.Clock{parsed.NewClock(), parsed.NewClock()}}
	g.Meta = meta.encode()
	if err := tx.CreateGame(g); err != nil {
		return nil, time.Time{}, err
	}
	text := record.Start{Variant: g.Variant, Ruleset: o.ruleset, Seed: o.seed, Time: g.TimeControl}.Text()
	if _, err := tx.Append(g, store.Entry{Kind: store.KindEvent, Side: store.Side(meta.Challenger), Text: text, Public: text, At: created}); err != nil {
		return nil, time.Time{}, err
	}
	if meta.Root, err = b.svc.messageID("game-" + strconv.FormatUint(g.ID, 10)); err != nil {
		return nil, time.Time{}, err
	}
	seats := [2]*store.Player{white, black}
	for side := range 2 {
		if n.openSeat && side != meta.Challenger {
			continue // the open seat gets its token when someone takes it
		}
		if err := tx.PutToken(b.svc.seatToken(g.ID, side, seats[side].ID), store.TokenRef{Game: g.ID, Player: seats[side].ID, Side: store.Side(side)}); err != nil {
			return nil, time.Time{}, err
		}
	}
	at := created
	for k, e := range o.plies {
		at = at.Add(n.step)
		e.At = at
		if _, err := tx.Append(g, e); err != nil {
			return nil, time.Time{}, err
		}
		b.moves++
		if n.old {
			continue
		}
		id := fmt.Sprintf("%s m%d.%d@players.example", seats[e.Side].Address, g.ID, k)
		if err := tx.MarkProcessed(id, at); err != nil {
			return nil, time.Time{}, err
		}
		b.processed++
	}
	meta.TurnStart = at
	return &loaded{g: g, meta: meta, v: o.v, state: o.final, seats: seats}, at, nil
}

func (b *scaleBuilder) opening(i int) *opening {
	all := b.openings[scaleMix(i)]
	return all[b.r.IntN(len(all))]
}

// active writes game i in play, its last move in the 30 hours before scaleNow.
func (b *scaleBuilder) active(tx *store.Tx, i int, white, black *store.Player) error {
	o := b.opening(i)
	last := scaleNow.Add(-time.Duration(b.r.Int64N(int64(30 * time.Hour))))
	step := time.Duration(1+b.r.IntN(20)) * time.Hour
	l, _, err := b.create(tx, i, newGame{white: white, black: black, o: o, tc: "3d",
		created: last.Add(-time.Duration(len(o.plies)) * step), step: step})
	if err != nil {
		return err
	}
	if err := b.svc.internal(tx, scaleNow).save(l); err != nil {
		return err
	}
	b.lists[white.ID] = append(b.lists[white.ID], l.g.ID)
	b.lists[black.ID] = append(b.lists[black.ID], l.g.ID)
	return nil
}

// open writes an open challenge by p, listed under its terms, as newGame does.
func (b *scaleBuilder) open(tx *store.Tx, i int, p *store.Player) error {
	o := &opening{v: b.opening(i).v}
	o.ruleset, o.seed = o.v.Rulesets()[0], b.r.Uint64()
	st, err := o.v.New(rules.Options{Ruleset: o.ruleset, Seed: o.seed})
	if err != nil {
		return err
	}
	if o.start, err = st.MarshalBinary(); err != nil {
		return err
	}
	o.final = st
	tc := []string{"3d", "5d", "7d", "10d"}[i/100%4]
	l, _, err := b.create(tx, i, newGame{white: p, black: p, o: o, tc: tc, openSeat: true,
		created: scaleNow.Add(-time.Duration(b.r.IntN(72)) * time.Hour), step: time.Hour})
	if err != nil {
		return err
	}
	l.meta.Phase = phaseOpen
	l.meta.TurnStart = time.Time{}
	l.g.Match = openMatch(o.v.ID(), o.ruleset, tc, false)
	if err := b.svc.internal(tx, scaleNow).save(l); err != nil {
		return err
	}
	b.lists[p.ID] = append(b.lists[p.ID], l.g.ID)
	return nil
}

// archived writes a game that ended by resignation between 100 days and three years ago,
// and archives it. The Message-IDs of its moves are gone: the daemon prunes them after 90
// days.
func (b *scaleBuilder) archived(tx *store.Tx, i int, white, black *store.Player) error {
	o := b.opening(i)
	created := scaleNow.Add(-100*timing.Day - time.Duration(b.r.Int64N(int64(1000*timing.Day))))
	l, last, err := b.create(tx, i, newGame{white: white, black: black, o: o, tc: "3d", old: true,
		created: created, step: time.Duration(1+b.r.IntN(40)) * time.Hour})
	if err != nil {
		return err
	}
	loser := int(l.state.ToMove())
	out := rules.Outcome{Status: rules.Win, Winner: rules.Side(1 - loser), Reason: l.sides()[loser] + " resigned"}
	end := last.Add(time.Hour)
	l.meta.Phase, l.meta.Reason, l.meta.Finished = phaseOver, out.Describe(l.sides()), end
	l.g.Status, l.g.Result = store.StatusFinished, out.Result()
	text := out.Result() + " " + l.meta.Reason
	if _, err := tx.Append(l.g, store.Entry{Kind: store.KindEvent, Ply: uint32(l.state.Ply()), Side: store.Side(loser),
		Text: text, Public: text, At: end}); err != nil {
		return err
	}
	h := b.svc.internal(tx, end)
	if err := h.save(l); err != nil {
		return err
	}
	return tx.Archive(l.g.ID)
}

// ---- cached stores for the benchmarks

// scaleDir is where the benchmarks keep their stores.
func scaleDir() string {
	if d := os.Getenv("BOTTLEPOST_SCALE_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "bottlepost-scale")
}

// scaleBuildVersion names the builder's output: a change to what it writes raises it, so
// that no store of an older builder is used.
const scaleBuildVersion = 2

func scalePath(spec scaleSpec) string {
	return filepath.Join(scaleDir(), fmt.Sprintf("v%d-a%d-r%d.db", scaleBuildVersion, spec.Active, spec.Archived))
}

// cachedScale returns the path of a built store of spec and its build report, building it
// when there is none (or when rebuild is set).
func cachedScale(tb testing.TB, spec scaleSpec, rebuild bool) (string, scaleInfo) {
	tb.Helper()
	path := scalePath(spec)
	var info scaleInfo
	if b, err := os.ReadFile(path + ".json"); err == nil && !rebuild {
		if err := json.Unmarshal(b, &info); err == nil {
			if _, err := os.Stat(path); err == nil {
				return path, info
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		tb.Fatal(err)
	}
	for _, p := range []string{path + ".json", path, path + ".key"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			tb.Fatal(err)
		}
	}
	tb.Logf("building a store of %v in %s (once; delete it to rebuild)", spec, path)
	info = buildScale(tb, path, spec)
	b, _ := json.MarshalIndent(info, "", "  ")
	if err := os.WriteFile(path+".json", b, 0o600); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("built %v in %.1f s: %d players, %d moves, %.0f MB, %d free pages",
		spec, info.Seconds, info.Players, info.Moves, float64(info.FileBytes)/1e6, info.FreePages)
	return path, info
}

// ---- playing on a built store

// scalePlayer plans real moves in games of a store, keeping each game's state in memory.
type scalePlayer struct {
	svc   *Service
	games []*loaded
	r     *rand.Rand
	nonce string
	n     int
}

// newScalePlayer picks up to n games in play at random among the games of spec, by id:
// it reads only those games (the benchmarks' resident memory is not the set-up's).
func newScalePlayer(tb testing.TB, st *store.Store, svc *Service, spec scaleSpec, n int) *scalePlayer {
	tb.Helper()
	p := &scalePlayer{svc: svc, r: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1)),
		nonce: strconv.FormatInt(time.Now().UnixNano(), 36)}
	last := uint64(spec.Active + spec.Archived) // the builder's ids are 1 to last
	seen := map[uint64]bool{}
	err := st.View(func(tx *store.Tx) error {
		for tries := 0; len(p.games) < n && tries < 1000*n; tries++ {
			id := 1 + p.r.Uint64N(last)
			if seen[id] {
				continue
			}
			seen[id] = true
			l, err := load(tx, id)
			if err != nil {
				return err
			}
			if !l.g.Archived && l.meta.Phase == phasePlay && len(l.state.Moves()) > 0 {
				p.games = append(p.games, l)
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(p.games) == 0 {
		tb.Fatal("no game in play")
	}
	return p
}

// scaleMove is a planned move: the mail carrying it, and its game.
type scaleMove struct {
	in   *Incoming
	game uint64
	side int
	text string
}

// plan returns the next n moves, round the games, as mails from the side to move to its
// seat's reply address: each a legal move the referee accepts and that does not end the game.
func (p *scalePlayer) plan(tb testing.TB, n int) []scaleMove {
	tb.Helper()
	out := make([]scaleMove, 0, n)
	for tries := 0; len(out) < n; tries++ {
		if tries > 10*n+len(p.games) {
			tb.Fatal("the games have no moves left")
		}
		l := p.games[p.n%len(p.games)]
		p.n++
		side := int(l.state.ToMove())
		next, e, ok := randomMove(l.state, p.r)
		if !ok {
			continue
		}
		l.state = next
		in := &Incoming{MessageID: fmt.Sprintf("scale-%s-%d@players.example", p.nonce, p.n),
			From: l.seats[side].Address, Recipients: []string{p.svc.replyAddress(p.svc.seatToken(l.g.ID, side, l.g.Seats[side].Player))},
			Subject: fmt.Sprintf("Re: [bp-%d] your move", l.g.ID), Lines: []string{e.Text}}
		out = append(out, scaleMove{in: in, game: l.g.ID, side: side, text: e.Text})
	}
	return out
}

// openScale opens a built store and starts the service on it the way the daemon does at
// start-up (daemon.New and Run): store.Open, game.New, Recover, Heartbeat.
func openScale(tb testing.TB, path string, now time.Time) (*store.Store, *Service) {
	tb.Helper()
	st, err := store.Open(path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	svc, err := New(Config{Address: scaleAddress}, Options{Store: st, Clock: func() time.Time { return now }})
	if err != nil {
		st.Close()
		tb.Fatal(err)
	}
	if _, err := svc.Recover(now, 5*time.Minute); err != nil {
		st.Close()
		tb.Fatal(err)
	}
	if err := svc.Heartbeat(now); err != nil {
		st.Close()
		tb.Fatal(err)
	}
	return st, svc
}

// drainOutbox marks every queued mail sent, as the outbox does once the server took them.
func drainOutbox(tb testing.TB, st *store.Store, now time.Time) {
	tb.Helper()
	err := st.Update(func(tx *store.Tx) error {
		ms, err := tx.PendingMail(now.Add(time.Hour), 0)
		for _, m := range ms {
			if err == nil {
				err = tx.MarkSent(m.ID)
			}
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// heapInUse is the Go heap in use after a collection, in bytes.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// heapOver is the Go heap in use now over base, in bytes (0 when it shrank).
func heapOver(base uint64) uint64 {
	if h := heapInUse(); h > base {
		return h - base
	}
	return 0
}

// rss is the process's resident memory in bytes (VmRSS), and of it the pages of mapped
// files (RssFile: the database's pages that were read, which the kernel may drop at any
// time) and the rest (RssAnon: the Go heap and runtime, and what the runtime keeps for
// reuse); zeros where /proc is missing.
func rss() (total, file, anon uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		switch name {
		case "VmRSS":
			total = kb << 10
		case "RssFile":
			file = kb << 10
		case "RssAnon":
			anon = kb << 10
		}
	}
	return total, file, anon
}

// scaleCosts are the counted costs of some operations on a store.
type scaleCosts struct {
	startupGames   int64 // game records read by store.Open, New, Recover, Heartbeat
	moveGames      int64 // game records read per move through Handle
	movePages      int64 // page writes per move commit
	moveBytes      int64 // bytes of pages written per move commit
	openGames      int64 // game records read by an open challenge that finds no match
	matchGames     int64 // game records read by an open challenge that is matched
	tickGames      int64 // game records read by a Tick with nothing due
	freePages      int
	heapOpen       uint64 // Go heap in use after start-up, over what it was before
	heapAfterMoves uint64 // the same after the moves
	moves          int
}

// measureScale starts the service on a built store and counts the costs of moves (through
// Handle, as mail), open challenges and a tick.
func measureScale(tb testing.TB, path string, spec scaleSpec, moves int) scaleCosts {
	tb.Helper()
	var c scaleCosts
	heap0 := heapInUse()
	now := scaleNow.Add(time.Hour)
	st, svc := openScale(tb, path, now)
	defer st.Close()
	s0 := st.Stats()
	c.startupGames = s0.GamesRead
	c.heapOpen = heapOver(heap0)

	p := newScalePlayer(tb, st, svc, spec, 64)
	plan := p.plan(tb, moves)
	s1 := st.Stats()
	for _, m := range plan {
		res, err := svc.Handle(m.in)
		if err != nil || res.Mails != 2 || res.Refused != "" {
			tb.Fatalf("move %s in game %d: %+v, %v", m.text, m.game, res, err)
		}
	}
	s2 := st.Stats()
	c.moves = len(plan)
	c.moveGames = (s2.GamesRead - s1.GamesRead) / int64(len(plan))
	c.movePages = (s2.PagesWritten - s1.PagesWritten) / int64(len(plan))
	c.moveBytes = (s2.PageBytesWritten - s1.PageBytesWritten) / int64(len(plan))
	c.freePages = s2.FreePages
	drainOutbox(tb, st, now)
	c.heapAfterMoves = heapOver(heap0)

	// An open challenge with terms nobody waits for reads no game; one that is matched
	// reads the challenge it takes.
	newcomer := func(n int) string { return fmt.Sprintf("newcomer%s.%d@players.example", p.nonce, n) }
	challenge := func(from string) {
		res, err := svc.Handle(&Incoming{MessageID: "open-" + from, From: from,
			Recipients: []string{svc.replyAddress(svc.accountToken(from))}, Lines: []string{"new chess time 99d"}})
		if err != nil || res.Refused != "" {
			tb.Fatalf("new chess: %+v, %v", res, err)
		}
	}
	s3 := st.Stats()
	challenge(newcomer(1))
	s4 := st.Stats()
	challenge(newcomer(2))
	s5 := st.Stats()
	c.openGames, c.matchGames = s4.GamesRead-s3.GamesRead, s5.GamesRead-s4.GamesRead
	drainOutbox(tb, st, now)

	s6 := st.Stats()
	if _, err := svc.Tick(now); err != nil {
		tb.Fatal(err)
	}
	c.tickGames = st.Stats().GamesRead - s6.GamesRead
	return c
}

// TestScaleStructure builds a store of 2,000 games in play without an archive and one with
// 20,000 archived games more, and checks by counting, not timing, that the archive costs a
// move nothing it would notice, that start-up and a tick read no game, that an open
// challenge reads only the challenges with its terms, and that the Go heap does not hold
// the games.
func TestScaleStructure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two stores of 2,000 and 22,000 games")
	}
	dir := t.TempDir()
	var costs [2]scaleCosts
	for i, spec := range []scaleSpec{{2000, 0}, {2000, 20_000}} {
		path := filepath.Join(dir, fmt.Sprintf("scale%d.db", i))
		info := buildScale(t, path, spec)
		t.Logf("%v: built in %.1f s, %.1f MB, %d moves", spec, info.Seconds, float64(info.FileBytes)/1e6, info.Moves)
		costs[i] = measureScale(t, path, spec, 50)
		t.Logf("%v: %+v", spec, costs[i])
	}
	checkScaleCosts(t, costs[0], costs[1])
}

// checkScaleCosts compares the counted costs on a store without an archive (small) with
// those on a store with one (big).
func checkScaleCosts(t *testing.T, small, big scaleCosts) {
	t.Helper()
	for _, c := range []scaleCosts{small, big} {
		if c.startupGames != 0 {
			t.Errorf("start-up read %d game records, want none", c.startupGames)
		}
		if c.tickGames != 0 {
			t.Errorf("a tick with nothing due read %d game records, want none", c.tickGames)
		}
		if c.openGames > 6 {
			t.Errorf("an open challenge nobody waits for read %d game records, want a handful (its own)", c.openGames)
		}
		if c.matchGames > 6 {
			t.Errorf("a matched open challenge read %d game records, want a handful", c.matchGames)
		}
		if c.moveGames > 6 {
			t.Errorf("a move read %d game records, want a handful", c.moveGames)
		}
	}
	if big.moveGames != small.moveGames {
		t.Errorf("a move read %d game records with the archive, %d without", big.moveGames, small.moveGames)
	}
	// The archive makes some B+trees one level deeper (the log, the tokens): a page or
	// two more per commit, not pages in proportion to the archive.
	if big.movePages > small.movePages+4 {
		t.Errorf("a move's commit wrote %d pages with the archive, %d without", big.movePages, small.movePages)
	}
	if big.heapOpen > small.heapOpen+8<<20 || big.heapAfterMoves > small.heapAfterMoves+8<<20 {
		t.Errorf("Go heap after start-up %d / after the moves %d bytes with the archive, %d / %d without",
			big.heapOpen, big.heapAfterMoves, small.heapOpen, small.heapAfterMoves)
	}
}

// TestScaleLong checks the same at the real size (BOTTLEPOST_LONG=1; builds or reuses the
// benchmarks' stores).
func TestScaleLong(t *testing.T) {
	if os.Getenv("BOTTLEPOST_LONG") == "" {
		t.Skip("BOTTLEPOST_LONG=1 builds (once) stores of 100,000 games in play and 1,000,000 archived")
	}
	specs := scaleSpecs(t)
	costs := make([]scaleCosts, len(specs))
	for i, spec := range specs {
		path, info := cachedScale(t, spec, false)
		t.Logf("%v: %+v", spec, info)
		costs[i] = measureScale(t, path, spec, 200)
		t.Logf("%v: %+v", spec, costs[i])
	}
	for _, c := range costs[1:] {
		checkScaleCosts(t, costs[0], c)
	}
}
