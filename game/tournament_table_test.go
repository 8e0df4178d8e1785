package game

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
)

// TestStandings ranks hand-worked sections (the expected points, S-B
// and places worked out on paper, in docs/tournaments.md's terms).
func TestStandings(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		games []tableGame
		// want: for each place in order, "player:points:SB:wins:rank"
		want string
	}{
		{
			// B 2; A and D 1½, A ahead on S-B (2½: B's 2 and half of C's
			// 1) against D's 2 (A's 1½ and half of C's 1); C 1.
			name: "points then Sonneborn-Berger", n: 4,
			games: []tableGame{{0, 1, "1-0", false}, {0, 2, "1/2-1/2", false}, {0, 3, "0-1", false},
				{1, 2, "1-0", false}, {1, 3, "1-0", false}, {2, 3, "1/2-1/2", false}},
			want: "1:2:2.5:2:1 0:1½:2.5:1:2 3:1½:2:1:3 2:1:1.5:0:4",
		},
		{
			// Everyone 1½ and S-B 2¼; Y (1) drew all three and has no win,
			// so is 4th; X (0), P (2) and Q (3) won once each and beat
			// each other in a circle (X–P 1-0, P–Q 1-0, Q–X 1-0): the
			// direct encounter gives each 1 point and they share 1st.
			name: "wins, then a direct encounter that does not separate", n: 4,
			games: []tableGame{{0, 1, "1/2-1/2", false}, {0, 2, "1-0", false}, {3, 0, "1-0", false},
				{1, 2, "1/2-1/2", false}, {1, 3, "1/2-1/2", false}, {2, 3, "1-0", false}},
			want: "0:1½:2.25:1:1 2:1½:2.25:1:1 3:1½:2.25:1:1 1:1½:2.25:0:4",
		},
		{
			// A double round robin counts each game: A beat B twice and
			// split with C (3 points, S-B 1+1+2 = 4); C drew B twice and
			// split with A (2, S-B 3 + ½ + ½ = 4); B 1 (S-B ½·2·2 = 2).
			name: "double round robin", n: 3,
			games: []tableGame{{0, 1, "1-0", false}, {1, 0, "0-1", false}, {1, 2, "1/2-1/2", false}, {2, 1, "1/2-1/2", false},
				{0, 2, "1-0", false}, {2, 0, "1-0", false}},
			want: "0:3:4:3:1 2:2:4:1:2 1:1:2:0:3",
		},
		{
			// Nothing finished: everyone shares 1st.
			name: "before any result", n: 3,
			games: []tableGame{{0, 1, "", false}, {1, 2, "", false}, {2, 0, "", false}},
			want:  "0:0:0:0:1 1:0:0:0:1 2:0:0:0:1",
		},
		{
			// A forfeit counts its points: 0 won one by forfeit (from 1)
			// and lost to 2, 1 drew 2; S-B: 2 has ½·½ + 1 = 1¼.
			name: "forfeits count", n: 3,
			games: []tableGame{{0, 1, "1-0", true}, {1, 2, "1/2-1/2", false}, {2, 0, "1-0", false}},
			want:  "2:1½:1.25:1:1 0:1:0.5:1:2 1:½:0.75:0:3",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range standings(tt.n, tt.games) {
				got = append(got, fmt.Sprintf("%d:%s:%s:%d:%d", s.Player, scoreText(s.Halves), sbText(s.SB), s.Wins, s.Rank))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Errorf("standings %s, want %s", g, tt.want)
			}
		})
	}
}

// TestDirectEncounter: the points among the tied players when all of them
// have met; nothing when two of them have not.
func TestDirectEncounter(t *testing.T) {
	group := []standing{{Player: 0}, {Player: 1}, {Player: 2}}
	games := []tableGame{{0, 1, "1-0", false}, {1, 2, "1/2-1/2", false}, {2, 0, "1/2-1/2", false}, {0, 3, "0-1", false}}
	if de := directEncounter(group, games); fmt.Sprint(de) != "map[0:3 1:1 2:2]" {
		t.Errorf("direct encounter %v, want 0: 1½, 1: ½, 2: 1", de)
	}
	if de := directEncounter(group, games[:2]); de != nil {
		t.Errorf("direct encounter %v where 0 and 2 have not met, want none", de)
	}
}

// TestStandingLine: the line that ends every tournament game mail, in
// English and in German (DESIGN.md: "2½/4, 2. von 7").
func TestStandingLine(t *testing.T) {
	games := []tableGame{{0, 1, "1-0", false}, {0, 2, "1/2-1/2", false}, {0, 3, "0-1", false},
		{1, 2, "1-0", false}, {1, 3, "1-0", false}, {2, 3, "", false}}
	tests := []struct {
		name   string
		lang   lang.Lang
		n      int
		games  []tableGame
		player int
		want   string
	}{
		{"en second", lang.English, 4, games, 0, "Club championship: 1½/3, 2nd of 4"},
		{"en first", lang.English, 4, games, 1, "Club championship: 2/3, 1st of 4"},
		{"en fourth", lang.English, 4, games, 2, "Club championship: ½/2, 4th of 4"},
		{"en third", lang.English, 4, games, 3, "Club championship: 1/2, 3rd of 4"},
		{"en shared, before any result", lang.English, 3, nil, 1, "Club championship: 0/0, =1st of 3"},
		{"de second", lang.German, 4, games, 0, "Club championship: 1½/3, 2. von 4"},
		{"de first", lang.German, 4, games, 1, "Club championship: 2/3, 1. von 4"},
		{"de fourth", lang.German, 4, games, 2, "Club championship: ½/2, 4. von 4"},
		{"de shared, before any result", lang.German, 3, nil, 1, "Club championship: 0/0, =1. von 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := standingLine(tt.lang, "Club championship", tt.n, tt.games, tt.player); got != tt.want {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
	noMisses(t)
}

// TestCrosstable: the layout of a small section (Bob: S-B ½ + 1 for
// Carol and Dave; Alice: 2 for Bob and ½·½ for Carol; Dave: 1½ for the
// forfeit Alice gave), and the width of the
// largest (20 players, double round robin) within 78 columns.
func TestCrosstable(t *testing.T) {
	names := []string{"Alice", "Bob Smith", "Carol", "Dave"}
	games := []tableGame{{0, 1, "1-0", false}, {0, 2, "1/2-1/2", false}, {3, 0, "1-0", true},
		{1, 2, "1-0", false}, {1, 3, "1-0", false}, {2, 3, "", false}}
	want := `Pl.  No. Name       Pts  S-B     Wins
1      2 Bob Smith  2    1.5     2
2      1 Alice      1½   2.25    1
3      4 Dave       1    1.5     1
4      3 Carol      ½    0.75    0

     1 2 3 4
  1  × 1 ½ −
  2  0 × 1 1
  3  ½ 0 × ·
  4  + 0 · ×`
	if got := strings.Join(crosstable(lang.English, names, games, false), "\n"); got != want {
		t.Errorf("crosstable:\n%s\nwant:\n%s", got, want)
	}
	// German: the heading in German, every column where it was.
	wantDE := strings.Replace(want, "Pl.  No. Name       Pts  S-B     Wins", "Pl.  Nr. Name       Pkt  SB      Siege", 1)
	if got := strings.Join(crosstable(lang.German, names, games, false), "\n"); got != wantDE {
		t.Errorf("German crosstable:\n%s\nwant:\n%s", got, wantDE)
	}

	var big []string
	for i := range 20 {
		big = append(big, fmt.Sprintf("Player with a long name %d", i+1))
	}
	var all []tableGame
	for _, p := range bergerPairings(20, true) {
		all = append(all, tableGame{White: p.White - 1, Black: p.Black - 1, Result: "1/2-1/2"})
	}
	lines := crosstable(lang.German, big, all, true)
	if len(lines) != 1+20+2+20 {
		t.Errorf("%d lines, want %d", len(lines), 43)
	}
	for _, l := range lines {
		if w := utf8.RuneCountInString(l); w > 78 {
			t.Errorf("line of %d columns: %q", w, l)
		}
	}
	if !strings.Contains(lines[1], "19   ") || !strings.Contains(lines[len(lines)-1], "½½  ×") {
		t.Errorf("a full double round robin of draws:\n%s", strings.Join(lines, "\n"))
	}
}
