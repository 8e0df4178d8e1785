package web_test

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// twins plays two Seachess games side by side from the start, up to plies
// moves. For the first prefix moves both play the same moves (secret ones
// included); after that, wherever a side makes a secret move (a mine, a
// dive, a move under water), the two games make different secret moves
// that the public cannot tell apart (the same public record line, notices
// and public board after it), and every open move is the same in both. The
// twins end where no move keeps them alike any more (a submarine coming up
// on another square shows the difference to everyone). It returns the move
// texts of each, who made each move, and how many secret moves differ.
func twins(t *testing.T, r *rand.Rand, prefix, plies int) (a, b []string, movers []rules.Side, differ int) {
	t.Helper()
	v, err := variants.Lookup("seachess")
	if err != nil {
		t.Fatal(err)
	}
	sa, err := v.New(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sb := sa
	samePublic := func(na, nb rules.State, ra, rb *rules.Report) bool {
		return ra.Record[rules.ViewPublic] == rb.Record[rules.ViewPublic] &&
			slices.Equal(ra.English(rules.ViewPublic), rb.English(rules.ViewPublic)) &&
			na.View(rules.ViewPublic).ASCII() == nb.View(rules.ViewPublic).ASCII() &&
			na.Outcome() == nb.Outcome() && !na.Outcome().Over()
	}
	for len(a) < plies {
		moves := sa.Moves()
		r.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
		// Prefer secret moves (mines first): they are what the test is about.
		slices.SortStableFunc(moves, func(x, y rules.Move) int { return secretRank(sa, y) - secretRank(sa, x) })
		progressed := false
		for i, m := range moves {
			if i > 80 {
				break
			}
			na, ra, err := sa.Apply(m)
			if err != nil {
				continue
			}
			text := sa.Format(m)
			if !ra.Secret || len(a) < prefix {
				mb, err := sb.Parse(text)
				if err != nil {
					continue
				}
				nb, rb, err := sb.Apply(mb)
				if err != nil || rb.Secret != ra.Secret || !samePublic(na, nb, ra, rb) {
					continue
				}
				a, b, movers = append(a, text), append(b, sb.Format(mb)), append(movers, sa.ToMove())
				sa, sb, progressed = na, nb, true
				break
			}
			// Of B's different secret moves that look alike to the public,
			// take the one leaving B's hidden pieces nearest A's, so that
			// the twins can come together again (a submarine moved under
			// water to the same square) and go on differing in secret.
			others := sb.Moves()
			r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
			refA := na.View(rules.ViewReferee).ASCII()
			var pick rules.State
			pickText, best := "", -1
			for _, mb := range others {
				if sb.Format(mb) == text {
					continue
				}
				nb, rb, err := sb.Apply(mb)
				if err != nil || !rb.Secret || !samePublic(na, nb, ra, rb) {
					continue
				}
				d := distance(refA, nb.View(rules.ViewReferee).ASCII())
				if best < 0 || d < best {
					pick, pickText, best = nb, sb.Format(mb), d
				}
			}
			if pick != nil {
				a, b, movers = append(a, text), append(b, pickText), append(movers, sa.ToMove())
				sa, sb, progressed = na, pick, true
				differ++
			}
			if progressed {
				break
			}
		}
		if !progressed {
			break
		}
	}
	return a, b, movers, differ
}

// distance counts the bytes in which two renderings differ.
func distance(x, y string) int {
	n := max(len(x), len(y)) - min(len(x), len(y))
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			n++
		}
	}
	return n
}

// secretRank is 2 for laying a mine (S3.2: it stays hidden longest), 1
// for another move the referee records as secret, 0 for an open move.
func secretRank(s rules.State, m rules.Move) int {
	_, rep, err := s.Apply(m)
	switch {
	case err != nil || !rep.Secret:
		return 0
	case strings.HasSuffix(s.Format(m), "-M"):
		return 2
	}
	return 1
}

// digest64 is a 64-hex digest: commitments and chain heads, which hash the
// secret moves under fresh keys (so they differ between the twins, and
// reveal nothing: S10.1 gives them to the opponent, as the observers'
// mail does).
var digest64 = regexp.MustCompile(`[0-9a-f]{64}`)

// TestNonInterference plays random Seachess twins (the same open moves,
// different secret moves that look alike to the public) by mail on two
// services, and after every move fetches every page a visitor can reach
// about the game while it is on: the front page, the game's page, its PGN
// (refused while on), a position query, the variant's page. Each must be
// byte-identical in both worlds, commitments and chain heads aside (they
// are keyed hashes of the secret moves). Under -short the twins share
// fewer moves before they part and play fewer moves in all, so that the
// pages of as many secret moves are compared in a fraction of the time.
func TestNonInterference(t *testing.T) {
	seeds, prefix, plies := 8, 20, 40
	if testing.Short() {
		seeds, prefix, plies = 6, 4, 12
	}
	total, compared := 0, 0
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 23))
		ma, mb, movers, differ := twins(t, r, 4+r.IntN(prefix), plies)
		if differ == 0 {
			continue
		}
		total += differ
		t.Logf("seed %d: %d moves, %d secret moves differ:\n%v\n%v", seed, len(ma), differ, ma, mb)
		worlds := [2]*club{newClub(t), newClub(t)}
		for _, c := range worlds {
			c.start("seachess", alice, bob)
		}
		pages := []string{"/", "/games/1", "/games/1.pgn", "/games/1?ply=1", "/variants/seachess", "/?play=0&over=5"}
		compare := func(after int) {
			t.Helper()
			for _, p := range pages {
				wa, wb := worlds[0].get(p), worlds[1].get(p)
				ba, bb := digest64.ReplaceAllString(body(wa), "DIGEST"), digest64.ReplaceAllString(body(wb), "DIGEST")
				if wa.Code != wb.Code || ba != bb || wa.Header().Get("Content-Type") != wb.Header().Get("Content-Type") {
					t.Fatalf("seed %d, after move %d: %s differs between the two histories (%d v %d):\n%s\n--- the other\n%s",
						seed, after, p, wa.Code, wb.Code, ba, bb)
				}
				compared++
			}
		}
		compare(0)
		for i := range ma {
			player := alice
			if movers[i] == rules.Black {
				player = bob
			}
			worlds[0].move(1, player, ma[i])
			worlds[1].move(1, player, mb[i])
			compare(i + 1)
		}
	}
	if total < 3 {
		t.Fatalf("only %d secret moves differed over %d seeds: the test would prove little", total, seeds)
	}
	t.Logf("%d pages compared, %d secret moves differed", compared, total)
}
