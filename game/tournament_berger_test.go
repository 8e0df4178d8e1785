package game

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// readPublishedBerger reads testdata/berger-fide.txt: the Berger tables as
// FIDE publishes them, by even player count.
func readPublishedBerger(t *testing.T) map[int][][]pairing {
	t.Helper()
	f, err := os.Open("testdata/berger-fide.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tables := map[int][][]pairing{}
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "players "):
			if n, err = strconv.Atoi(strings.TrimPrefix(line, "players ")); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			continue
		}
		num, rest, ok := strings.Cut(line, ". ")
		r, err := strconv.Atoi(num)
		if !ok || err != nil || n == 0 {
			t.Fatalf("line %q is not a round", line)
		}
		var row []pairing
		for p := range strings.SplitSeq(strings.TrimSuffix(rest, "."), ",") {
			var w, b int
			if _, err := fmt.Sscanf(strings.TrimSpace(p), "%d-%d", &w, &b); err != nil {
				t.Fatalf("pair %q of %q: %v", p, line, err)
			}
			row = append(row, pairing{Round: r, White: w, Black: b})
		}
		tables[n] = append(tables[n], row)
	}
	return tables
}

// TestBergerPublished compares the computed tables for 3 to 14 players with
// the tables as published, round by round and board by board (pairs and
// colours); an odd count uses the next even table, its highest number
// the bye.
func TestBergerPublished(t *testing.T) {
	published := readPublishedBerger(t)
	for n := 3; n <= 14; n++ {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			want := published[n+n%2]
			if len(want) == 0 {
				t.Fatalf("no published table for %d players", n+n%2)
			}
			got := bergerRounds(n)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("computed table\n%v\npublished\n%v", got, want)
			}
		})
	}
}

// TestBergerRules checks every size from 3 to 20 (15 to 20 have no
// transcribed table) against what the tables are: n−1 rounds (n even) in
// which everyone plays once, every pair meeting exactly once, the highest
// number alternating Black and White from round 1, every other player's
// colours differing in number by at most one; a double round robin
// meets each pair twice, once with each colour; an odd count drops the
// bye's games.
func TestBergerRules(t *testing.T) {
	for n := 3; n <= 20; n++ {
		t.Run(fmt.Sprintf("%d players", n), func(t *testing.T) {
			even := n + n%2
			rounds := bergerRounds(n)
			if len(rounds) != even-1 {
				t.Fatalf("%d rounds, want %d", len(rounds), even-1)
			}
			met := map[[2]int]int{}
			whites := make([]int, even+1)
			for r, row := range rounds {
				seen := map[int]bool{}
				for _, p := range row {
					if seen[p.White] || seen[p.Black] || p.White == p.Black {
						t.Fatalf("round %d: %v plays twice", r+1, row)
					}
					seen[p.White], seen[p.Black] = true, true
					met[[2]int{min(p.White, p.Black), max(p.White, p.Black)}]++
					whites[p.White]++
				}
				if len(seen) != even {
					t.Fatalf("round %d seats %d players, want %d", r+1, len(seen), even)
				}
				top := row[0]
				if wantWhite := r%2 == 1; (top.White == even) != wantWhite || (top.Black == even) == wantWhite {
					t.Errorf("round %d: %d does not alternate colours: %v", r+1, even, top)
				}
			}
			if len(met) != even*(even-1)/2 {
				t.Errorf("%d pairs meet, want %d", len(met), even*(even-1)/2)
			}
			for pair, k := range met {
				if k != 1 {
					t.Errorf("pair %v meets %d times", pair, k)
				}
			}
			for p := 1; p <= even; p++ {
				if d := 2*whites[p] - (even - 1); d < -1 || d > 1 {
					t.Errorf("player %d has %d Whites in %d games", p, whites[p], even-1)
				}
			}
			single, double := bergerPairings(n, false), bergerPairings(n, true)
			if len(single) != n*(n-1)/2 || len(double) != n*(n-1) {
				t.Fatalf("%d and %d games, want %d and %d", len(single), len(double), n*(n-1)/2, n*(n-1))
			}
			colours := map[[2]int]int{}
			for _, p := range double {
				if p.White > n || p.Black > n {
					t.Fatalf("the bye plays: %v", p)
				}
				colours[[2]int{p.White, p.Black}]++
			}
			for pair, k := range colours {
				if k != 1 || colours[[2]int{pair[1], pair[0]}] != 1 {
					t.Errorf("double round robin: %v plays %d times with these colours", pair, k)
				}
			}
			if last := double[len(double)-1].Round; last != 2*(even-1) {
				t.Errorf("the double round robin's last round is %d, want %d", last, 2*(even-1))
			}
		})
	}
}
