package game

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/rating"
	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// loadGame reads a game as the service keeps it.
func (f *fixture) loadGame(id uint64) *loaded {
	f.t.Helper()
	var l *loaded
	if err := f.st.View(func(tx *store.Tx) (err error) { l, err = load(tx, id); return err }); err != nil {
		f.t.Fatal(err)
	}
	return l
}

// standingOf is a player's stored standing in a pool.
func (f *fixture) standingOf(addr, pool string) poolRating {
	f.t.Helper()
	var pr poolRating
	err := f.st.View(func(tx *store.Tx) error {
		p, err := tx.PlayerByAddress(addr)
		if err != nil {
			return err
		}
		pr = decodePlayerMeta(p).standing(pool)
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return pr
}

// rebuild runs RebuildRatings on the fixture's store and fails the test on
// any difference.
func (f *fixture) rebuild() *RatingsRebuild {
	f.t.Helper()
	var res *RatingsRebuild
	if err := f.st.View(func(tx *store.Tx) (err error) { res, err = RebuildRatings(tx); return err }); err != nil {
		f.t.Fatal(err)
	}
	for _, d := range res.Differences {
		f.t.Errorf("rebuild: %s", d)
	}
	return res
}

// TestEveryEndIsRated ends a game of chess in every way a game ends, and
// checks which ends are rated (issue 31: every end with a result once each
// side has moved; none before, none of a casual game): the game's record
// of how it counted, both players' standings, the lines of the final mails,
// and the recomputation from the archive. Victory points and a bare
// Admiral end a game by a move, as checkmate does (move.go → finish).
func TestEveryEndIsRated(t *testing.T) {
	moves := func(f *fixture, ms ...string) {
		for i, m := range ms {
			f.reply([]string{alice, bob}[i%2], m)
		}
	}
	tests := []struct {
		name   string
		cfg    Config
		casual bool
		end    func(f *fixture)
		score  float64 // White's; -1: not rated
		why    string
	}{
		{"checkmate", Config{}, false, func(f *fixture) { moves(f, "f3", "e5", "g4", "Qh4#") }, 0, ""},
		{"resignation", Config{}, false, func(f *fixture) { moves(f, "e4", "e5"); f.reply(alice, "resign") }, 0, ""},
		{"draw agreed", Config{}, false, func(f *fixture) { moves(f, "e4", "e5"); f.reply(alice, "draw"); f.reply(bob, "draw") }, 0.5, ""},
		{"threefold repetition", Config{}, false, func(f *fixture) {
			moves(f, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
		}, 0.5, ""},
		{"lost on time", Config{}, false, func(f *fixture) {
			moves(f, "e4", "e5")
			f.now = f.now.Add(4 * timing.Day)
			f.tick()
		}, 0, ""},
		{"claimed on time", Config{TimeoutPolicy: TimeoutNotify}, false, func(f *fixture) {
			moves(f, "e4", "e5", "d4")
			f.now = f.now.Add(4 * timing.Day)
			f.tick()
			f.reply(alice, "claim")
		}, 1, ""},
		{"adjudicated", Config{}, false, func(f *fixture) {
			moves(f, "e4", "e5")
			f.cfgReferee(ref)
			f.send(ref, f.personal(ref), "adjudicate", "adjudicate 1 1-0 Black left the club")
		}, 1, ""},
		{"resigned before any move", Config{}, false, func(f *fixture) { f.reply(bob, "resign") }, -1, whyNoMoves},
		{"resigned after one move", Config{}, false, func(f *fixture) { moves(f, "e4"); f.reply(bob, "resign") }, -1, whyNoMoves},
		{"casual", Config{}, true, func(f *fixture) { moves(f, "f3", "e5", "g4", "Qh4#") }, -1, whyCasual},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.cfg)
			casual := ""
			if tt.casual {
				casual = " casual"
			}
			f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white time 3d"+casual)
			f.reply(bob, "accept")
			tt.end(f)
			l := f.loadGame(1)
			e := l.meta.Rated
			if l.meta.Phase != phaseOver || e == nil {
				t.Fatalf("the game did not end with a rating record: phase %s, %+v", l.meta.Phase, e)
			}
			a, b := f.standingOf(alice, "chess"), f.standingOf(bob, "chess")
			final := f.last(alice)
			if tt.score < 0 {
				if e.Seq != 0 || e.Why != tt.why || a.Games != 0 || b.Games != 0 {
					t.Errorf("rated, or for another reason: %+v; standings %+v, %+v", e, a, b)
				}
				if strings.Contains(final.Text, "Your rating") {
					t.Errorf("the final mail shows a change:\n%s", final.Text)
				}
				if tt.casual == strings.Contains(final.Text, "Not rated") {
					t.Errorf("the final mail should say why the game is not rated unless it is casual:\n%s", final.Text)
				}
				f.rebuild()
				return
			}
			if e.Seq != 1 || e.Why != "" || e.Pool != "chess" {
				t.Fatalf("not rated as the first update of the chess pool: %+v", e)
			}
			// From 1500/350/0.06 each: one period, each against the other.
			start := rating.New()
			wantA := rating.Period(start, []rating.Game{{Opponent: start, Score: tt.score}})
			wantB := rating.Period(start, []rating.Game{{Opponent: start, Score: 1 - tt.score}})
			if a.Rating != wantA || b.Rating != wantB || a.Games != 1 || b.Games != 1 {
				t.Errorf("standings %+v and %+v, want %+v and %+v after one game", a, b, wantA, wantB)
			}
			won := map[float64][3]int{1: {1, 0, 0}, 0.5: {0, 1, 0}, 0: {0, 0, 1}}[tt.score]
			if got := [3]int{a.Wins, a.Draws, a.Losses}; got != won {
				t.Errorf("alice's record %v, want %v", got, won)
			}
			if !a.Last.Equal(f.now) || !b.Last.Equal(f.now) || a.Seq != 1 {
				t.Errorf("last rated game %v (update %d), want %v (update 1)", a.Last, a.Seq, f.now)
			}
			f.mustContain(final, fmt.Sprintf("Your rating: 1500? → %s (%s)", wantA, rating.Change(start, wantA)),
				fmt.Sprintf("player 2: 1500? → %s (%s)", wantB, rating.Change(start, wantB)))
			f.mustContain(f.last(bob), fmt.Sprintf("Your rating: 1500? → %s (%s)", wantB, rating.Change(start, wantB)))
			if res := f.rebuild(); res.Games != 1 || res.Standings != 2 {
				t.Errorf("the rebuild replayed %d games and compared %d standings, want 1 and 2", res.Games, res.Standings)
			}
		})
	}
}

// TestCasualChangesNothing: a casual game says so in its invitation and
// start mails, changes no rating, and an open challenge is matched only
// with one of the same choice.
func TestCasualChangesNothing(t *testing.T) {
	f := newFixture(t, Config{})
	const carol = "carol@example.com"
	pa, pb, pc := f.personal(alice), f.personal(bob), f.personal(carol)
	f.send(alice, pa, "open", "new chess casual")
	f.mustContain(f.last(alice), "Casual game: not rated.")
	f.send(bob, pb, "open", "new chess") // rated: not alice's
	f.mustContain(f.last(bob), "Rated game: player 2 (1500?) v whoever takes the challenge.")
	f.send(carol, pc, "open", "new chess casual") // casual: alice's
	for _, who := range []string{alice, carol} {
		f.mustContain(f.last(who), "The game has begun", "Casual game: not rated.")
	}
	l := f.loadGame(1)
	if !l.meta.Casual || l.meta.Phase != phasePlay || l.side(3) < 0 {
		t.Fatalf("carol was not matched with alice's casual challenge: %+v", l.meta)
	}
	if g2 := f.loadGame(2); g2.meta.Casual || g2.meta.Phase != phaseOpen {
		t.Fatalf("bob's rated challenge was matched or made casual: %+v", g2.meta)
	}
	// The casual game, played to mate: nothing changes.
	for i, m := range []string{"f3", "e5", "g4", "Qh4#"} {
		f.reply(l.seats[i%2].Address, m)
	}
	if l := f.loadGame(1); l.meta.Phase != phaseOver || l.meta.Rated == nil || l.meta.Rated.Seq != 0 {
		t.Fatalf("the casual game did not end unrated: %+v", l.meta.Rated)
	}
	for _, who := range []string{alice, carol} {
		if pr := f.standingOf(who, "chess"); pr.Games != 0 {
			t.Errorf("%s's standing changed: %+v", who, pr)
		}
		if m := f.last(who); strings.Contains(m.Text, "Your rating") || strings.Contains(m.Text, "Not rated") {
			t.Errorf("the final mail of a casual game speaks of ratings:\n%s", m.Text)
		}
	}
	f.send(alice, pa, "r", "ratings")
	f.mustContain(f.last(alice), "You have no rated game yet")
	if err := f.st.View(func(tx *store.Tx) error {
		n, err := ratingSeq(tx)
		if n != 0 {
			t.Errorf("a casual game took rating update %d", n)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	f.rebuild()
}

// TestIdleDaysGrowTheRD: before a game, each player's RD grows by one empty
// period per whole day since their last rated game in the pool (capped at
// 350), and not for the part of a day; a game in another pool does not
// count.
func TestIdleDaysGrowTheRD(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	play := func(variant, rules string) uint64 {
		f.send(alice, pa, "new", "new "+variant+" vs "+bob+" as white time 30d"+rules)
		f.reply(bob, "accept")
		id := f.lastGameID()
		f.reply(alice, f.anyMove(id))
		f.reply(bob, f.anyMove(id))
		f.reply(alice, "resign")
		return id
	}
	play("chess", "")
	first := f.standingOf(alice, "chess")
	f.now = f.now.Add(10*timing.Day + 23*time.Hour)
	play("baltic", " rules sc2022") // another pool: its own standing
	if pr := f.standingOf(alice, "baltic/sc2022"); pr.Games != 1 || f.standingOf(alice, "baltic").Games != 0 {
		t.Errorf("the sc2022 game was not rated in its own pool: %+v", pr)
	}
	id := play("chess", "")
	e := f.loadGame(id).meta.Rated
	want := first.Rating.Idle(10)
	if e.Start[0] != want {
		t.Errorf("rated from %+v after 10 days and 23 hours, want %+v (ten idle days)", e.Start[0], want)
	}
	if e.Start[0].RD <= first.RD || e.Start[0].Rating != first.Rating.Rating {
		t.Errorf("the RD did not grow, or the rating moved: %+v → %+v", first.Rating, e.Start[0])
	}
	f.rebuild()
}

// lastGameID is the newest game's id.
func (f *fixture) lastGameID() uint64 {
	f.t.Helper()
	var id uint64
	if err := f.st.View(func(tx *store.Tx) error {
		ids, err := tx.GameIDs(false, 0, true, 1)
		if len(ids) > 0 {
			id = ids[0]
		}
		return err
	}); err != nil || id == 0 {
		f.t.Fatalf("no game: %v", err)
	}
	return id
}

// anyMove is the first legal move of the side to move in game id, as the
// variant writes it.
func (f *fixture) anyMove(id uint64) string {
	f.t.Helper()
	l := f.loadGame(id)
	for _, m := range l.state.Moves() {
		if _, _, err := l.state.Apply(m); err == nil {
			return l.state.Format(m)
		}
	}
	f.t.Fatalf("game %d: no legal move", id)
	return ""
}

// TestRatingsEqualRecomputation plays a few hundred seeded random games
// through Service.Handle, four at a time from as many goroutines (so that
// games end in the same group commit, at the same instant of the clock):
// eight players, chess, Baltic under both rulesets and Battle; a few
// moves, then a resignation, a draw agreed, a referee's adjudication, or
// no end; some casual, some given up before each side moved; the clock
// standing still or jumping hours or days between games. At the end the
// stored standings equal an independent recomputation (this test's own,
// from package rating, in the order of the update numbers, which must
// follow each goroutine's own order of ends) and RebuildRatings finds no
// difference. -short plays 60 games.
func TestRatingsEqualRecomputation(t *testing.T) {
	games := 320
	if testing.Short() {
		games = 60
	}
	f := newFixture(t, Config{Referees: []string{ref}, Limits: Limits{ChallengesPerHour: 10000, ChallengesPerDay: 10000}})
	var clock sync.Mutex
	now := f.now
	f.svc.now = func() time.Time { clock.Lock(); defer clock.Unlock(); return now }
	advance := func(d time.Duration) { clock.Lock(); now = now.Add(d); clock.Unlock() }
	players := make([]string, 8)
	for i := range players {
		players[i] = fmt.Sprintf("p%d@club.test", i)
	}
	var msg atomic.Int64
	send := func(from string, subject string, lines ...string) {
		t.Helper()
		in := &Incoming{MessageID: fmt.Sprintf("r%d@club.test", msg.Add(1)), From: from,
			Recipients: []string{f.svc.replyAddress(f.svc.accountToken(from))}, Subject: subject, Lines: lines}
		if _, err := f.svc.Handle(in); err != nil {
			t.Error(err)
		}
	}
	var creating sync.Mutex // one challenge at a time, so that the newest game is the one just made
	type ended struct {
		id     uint64
		rated  bool
		seated [2]string
	}
	const lanes = 4
	results := make([][]ended, lanes)
	var wg sync.WaitGroup
	for lane := range lanes {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(31, uint64(lane)))
			for range games / lanes {
				w, b := rnd.IntN(len(players)), rnd.IntN(len(players)-1)
				if b >= w {
					b++
				}
				variant := []string{"chess", "chess", "baltic", "baltic rules sc2022", "battle"}[rnd.IntN(5)]
				casual := rnd.IntN(10) == 0
				cmd := "new " + variant + " vs " + players[b] + " as white time 30d"
				if casual {
					cmd += " casual"
				}
				creating.Lock()
				send(players[w], "new", cmd)
				id := f.lastGameID()
				creating.Unlock()
				send(players[b], "accept", fmt.Sprintf("accept %d", id))
				l := f.loadGame(id)
				if l.meta.Phase != phasePlay {
					t.Errorf("game %d did not start: %s", id, l.meta.Phase)
					return
				}
				st := l.state
				tag := fmt.Sprintf("[bp-%d]", id)
				plies := rnd.IntN(7)
				for range plies {
					if st.Outcome().Over() {
						break
					}
					ms := st.Moves()
					for _, k := range rnd.Perm(len(ms)) {
						next, _, err := st.Apply(ms[k])
						if err == nil {
							send([]string{players[w], players[b]}[st.ToMove()], tag, "move "+st.Format(ms[k]))
							st = next
							break
						}
					}
				}
				seated := [2]string{players[w], players[b]}
				switch end := rnd.IntN(10); {
				case st.Outcome().Over():
				case end < 5:
					send(seated[rnd.IntN(2)], tag, fmt.Sprintf("resign %d", id))
				case end < 7:
					offer := rnd.IntN(2)
					send(seated[offer], tag, "draw")
					send(seated[1-offer], tag, "draw")
				case end < 9:
					send(ref, "adjudicate", fmt.Sprintf("adjudicate %d %s on the arbiter's judgement", id, []string{"1-0", "0-1", "1/2-1/2"}[rnd.IntN(3)]))
				default:
					continue // left in play
				}
				if l := f.loadGame(id); l.meta.Phase != phaseOver {
					t.Errorf("game %d did not end: %s", id, l.meta.Phase)
					continue
				}
				results[lane] = append(results[lane], ended{id: id, rated: !casual && st.Ply() >= 2, seated: seated})
				switch k := rnd.IntN(6); k {
				case 0:
					advance(time.Duration(rnd.IntN(5)+1) * timing.Day)
				case 1:
					advance(time.Duration(rnd.IntN(20)) * time.Hour)
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}

	// Each goroutine's ends were rated in its order; the update numbers are
	// 1 to N, each once.
	var seqs []uint64
	rated := 0
	for lane, list := range results {
		var prev uint64
		for _, e := range list {
			l := f.loadGame(e.id)
			if got := l.meta.Rated.Seq != 0; got != e.rated {
				t.Errorf("game %d rated %v, want %v (%+v)", e.id, got, e.rated, l.meta.Rated)
			}
			if !e.rated {
				continue
			}
			rated++
			if s := l.meta.Rated.Seq; s <= prev {
				t.Errorf("lane %d: game %d was rated by update %d, after update %d of an earlier end", lane, e.id, s, prev)
			}
			prev = l.meta.Rated.Seq
			seqs = append(seqs, prev)
		}
	}
	slices.Sort(seqs)
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("update numbers %v…: not 1 to %d, each once", seqs[:min(i+1, len(seqs))], len(seqs))
		}
	}
	t.Logf("%d games, %d ended and rated", games, rated)
	if rated < games/3 {
		t.Fatalf("only %d of %d games rated", rated, games)
	}

	// The recomputation: from package rating alone, in update order.
	type key struct {
		pool   string
		player uint64
	}
	want := map[key]poolRating{}
	byseq := map[uint64]*loaded{}
	for _, list := range results {
		for _, e := range list {
			if l := f.loadGame(e.id); e.rated {
				byseq[l.meta.Rated.Seq] = l
			}
		}
	}
	for s := uint64(1); s <= uint64(rated); s++ {
		l := byseq[s]
		pool := "chess"
		switch {
		case l.g.Variant == "baltic" && l.g.Ruleset == "sc2022":
			pool = "baltic/sc2022"
		case l.g.Variant != "chess":
			pool = l.g.Variant
		}
		score := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[l.g.Result]
		var cur [2]poolRating
		var from [2]rating.Rating
		for i, seat := range l.g.Seats {
			cur[i] = want[key{pool, seat.Player}]
			from[i] = rating.New()
			if cur[i].Games > 0 {
				days := int64(l.meta.Finished.Sub(cur[i].Last) / (24 * time.Hour))
				from[i] = cur[i].Rating.Idle(days)
			}
		}
		for i, seat := range l.g.Seats {
			s := []float64{score, 1 - score}[i]
			p := cur[i]
			p.Rating = rating.Period(from[i], []rating.Game{{Opponent: from[1-i], Score: s}})
			p.Games++
			p.Wins += int(s)
			p.Losses += int(1 - s)
			if s == 0.5 {
				p.Draws++
			}
			p.Last, p.Seq = l.meta.Finished, l.meta.Rated.Seq
			want[key{pool, seat.Player}] = p
		}
	}
	err := f.st.View(func(tx *store.Tx) error {
		return tx.EachPlayer(func(p *store.Player) error {
			m := decodePlayerMeta(p)
			for _, pool := range RatingPools() {
				got, w := m.standing(pool), want[key{pool, p.ID}]
				if !sameStanding(got, w) {
					t.Errorf("%s, %s: stored %s, recomputed %s", p.Address, pool, standingText(got), standingText(w))
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if res := f.rebuild(); res.Games != rated {
		t.Errorf("the rebuild replayed %d games, want %d", res.Games, rated)
	}
}

// TestRebuildFindsDifferences: the recomputation compares for real. A
// store with rated games passes; then, each on a copy of what was stored,
// a player's rating one bit off, an update dropped from a player, a game's
// rating record dropped, and the sequence moved on each show as a
// difference.
func TestRebuildFindsDifferences(t *testing.T) {
	setUp := func(t *testing.T) *fixture {
		f := newFixture(t, Config{})
		pa := f.personal(alice)
		for range 3 {
			f.send(alice, pa, "new", "new chess vs "+bob+" as white")
			f.reply(bob, "accept")
			f.reply(alice, "e4")
			f.reply(bob, "e5")
			f.reply(bob, "resign")
			f.now = f.now.Add(2 * timing.Day)
		}
		if res := f.rebuild(); res.Games != 3 {
			t.Fatalf("%d games replayed, want 3", res.Games)
		}
		return f
	}
	changePlayer := func(f *fixture, addr string, change func(*playerMeta)) {
		if err := f.st.Update(func(tx *store.Tx) error {
			p, err := tx.PlayerByAddress(addr)
			if err != nil {
				return err
			}
			m := decodePlayerMeta(p)
			change(m)
			p.Meta = m.encode()
			return tx.PutPlayer(p)
		}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		damage func(f *fixture)
		want   string
	}{
		{"a rating one bit off", func(f *fixture) {
			changePlayer(f, alice, func(m *playerMeta) {
				r := m.Ratings["chess"]
				r.Rating.Rating = math.Nextafter(r.Rating.Rating, math.Inf(1))
			})
		}, "player 1 (alice@example.org), chess: stored"},
		{"an update lost by a player", func(f *fixture) {
			changePlayer(f, bob, func(m *playerMeta) { m.Ratings["chess"].Games-- })
		}, "player 2 (bob@example.net), chess: stored"},
		{"a standing in no pool", func(f *fixture) {
			changePlayer(f, bob, func(m *playerMeta) { m.Ratings["go"] = &poolRating{Games: 1} })
		}, `has a standing in "go"`},
		{"a game's rating record dropped", func(f *fixture) {
			if err := f.st.Update(func(tx *store.Tx) error {
				g, err := tx.Game(2)
				if err != nil {
					return err
				}
				m, err := decodeGameMeta(g)
				if err != nil {
					return err
				}
				m.Rated.Seq, m.Rated.Why = 0, "lost"
				return tx.PutMeta(2, m.encode())
			}); err != nil {
				t.Fatal(err)
			}
		}, "game 2 (chess) should have been rated"},
		{"the sequence moved on", func(f *fixture) {
			if err := f.st.Update(func(tx *store.Tx) error {
				return tx.PutSetting(settingRatingSeq, binary.BigEndian.AppendUint64(nil, 4))
			}); err != nil {
				t.Fatal(err)
			}
		}, "the rating sequence stands at 4, but the archive's last update is 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := setUp(t)
			tt.damage(f)
			var res *RatingsRebuild
			if err := f.st.View(func(tx *store.Tx) (err error) { res, err = RebuildRatings(tx); return err }); err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(res.Differences, func(d string) bool { return strings.Contains(d, tt.want) }) {
				t.Errorf("no difference %q among %q", tt.want, res.Differences)
			}
		})
	}
}

// TestRatingsCommand: ratings answers with a pool's top 20, the sender's
// rating and rank, every pool the sender plays in when no variant is
// named, and refuses a pool that does not exist; help ratings explains;
// games shows each opponent's rating.
func TestRatingsCommand(t *testing.T) {
	f := newFixture(t, Config{Limits: Limits{ChallengesPerHour: 1000, ChallengesPerDay: 1000, InvitationsPerDay: 1000}})
	pa := f.personal(alice)
	// 22 players lose to alice, once each, in chess; bob also plays
	// Battle.
	for i := range 22 {
		opp := fmt.Sprintf("p%d@club.test", i)
		f.send(alice, pa, "new", "new chess vs "+opp+" as white")
		f.reply(opp, "accept")
		f.reply(alice, "e4")
		f.reply(opp, "e5")
		f.reply(opp, "resign")
	}
	f.send(alice, pa, "new", "new battle vs "+bob+" as white")
	f.reply(bob, "accept")
	id := f.lastGameID()
	f.reply(alice, f.anyMove(id))
	f.reply(bob, f.anyMove(id))
	f.reply(bob, "draw")
	f.reply(alice, "draw")

	f.send(alice, pa, "r", "ratings chess")
	m := f.last(alice)
	if m.Subject != "bottlepost: ratings chess" {
		t.Errorf("subject %q", m.Subject)
	}
	f.mustContain(m, "Chess: 23 rated players.", "  1. player 1 ", "Your Chess rating: ", "1st of 23; 22 games: 22 won, 0 drawn, 0 lost.")
	if rows := len(regexp.MustCompile(`(?m)^ *\d+\. `).FindAllString(m.Text, -1)); rows != 20 {
		t.Errorf("%d rows, want the top 20:\n%s", rows, m.Text)
	}
	for _, line := range strings.Split(m.Text, "\n") {
		if strings.Contains(line, "@") && !strings.Contains(line, "games@bottlepost.test") {
			t.Errorf("a ratings list shows an address: %q", line)
		}
	}
	f.send(alice, pa, "r", "ratings")
	f.mustContain(f.last(alice), "Chess: 23 rated players.", "Chess-Battle: 2 rated players.", "Your Chess-Battle rating: ", "1 game: 0 won, 1 drawn, 0 lost.")
	f.send(bob, f.personal(bob), "r", "ratings baltic sc2022")
	f.mustContain(f.last(bob), "Baltic Sea Chess, sc2022: 0 rated players.", "You have no rated Baltic Sea Chess, sc2022 game")
	f.send(bob, f.personal(bob), "r", "ratings go")
	f.mustContain(f.last(bob), `there is no rating pool "go"; the pools are chess, seachess, submachine, baltic, baltic/sc2022, battle, transporter`)
	f.send(bob, f.personal(bob), "r", "help ratings")
	f.mustContain(f.last(bob), "Glicko-2", "provisional", "new chess vs bob@example.org casual")
	f.send(alice, pa, "new", "new chess vs p3@club.test as white")
	f.send(alice, pa, "g", "games")
	// p3 has no name: games shows the shown name (player N) and p3's rating,
	// no longer a new player's after the game p3 lost.
	games := f.last(alice).Text
	if m := regexp.MustCompile(`Chess v player \d+ \((\d+\??)\) as White: challenge`).FindStringSubmatch(games); m == nil || m[1] == "1500?" {
		t.Errorf("games does not show p3 with a rating other than a new player's:\n%s", games)
	}
	f.rebuild()
}

// TestPoolNames: a pool is a variant, and its ruleset when not the first.
func TestPoolNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"chess", "chess"}, {"Chess", "chess"}, {"baltic", "baltic"}, {"baltic/holdorf", "baltic"},
		{"baltic sc2022", "baltic/sc2022"}, {"BALTIC/SC2022", "baltic/sc2022"}, {"go", ""}, {"baltic/xx", ""}, {"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := LookupPool(tt.in)
			if got != tt.want || (err != nil) != (tt.want == "") {
				t.Errorf("LookupPool(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
	if got := poolOf("baltic", "holdorf"); got != "baltic" {
		t.Errorf("poolOf(baltic, holdorf) = %q", got)
	}
	if got := RatingPools(); strings.Join(got, " ") != "chess seachess submachine baltic baltic/sc2022 battle transporter" {
		t.Errorf("RatingPools() = %v", got)
	}
}
