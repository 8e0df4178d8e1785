package game

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
)

// The crosstable of a round-robin section (docs/tournaments.md). Scores
// are counted in half points and Sonneborn-Berger in quarter points, so
// that every comparison is exact. The order (FIDE tie-break regulations):
// points; then Sonneborn-Berger (the sum of the points of the opponents a
// player beat and half the points of those they drew, each game counted,
// so that a double round robin counts each opponent once per game); then
// the number of wins; then the direct encounter: when every one of the
// players still tied has met every other in a finished game, the points
// they scored in the games among themselves order them, and players equal
// on these too stay tied. When some of them have not met, the direct
// encounter is not applied. Players still tied share their place. A forfeit
// counts as a win and a loss (its points count, and its opponent's points
// for Sonneborn-Berger) and is shown + and −; it is not rated.

// tableGame is one game of a section as the crosstable reads it: the
// players' numbers (0-based, in the draw order), its result ("1-0",
// "0-1", "1/2-1/2", or "" while it is being played) and whether it was
// decided by a forfeit (a withdrawal).
type tableGame struct {
	White, Black int
	Result       string
	Forfeit      bool
}

// standing is one player's line of a crosstable.
type standing struct {
	Player int // the player's number (0-based)
	// Halves is their score in half points, SB their Sonneborn-Berger in
	// quarter points; Wins their wins, forfeits included; Games how many
	// of their games have ended.
	Halves, SB, Wins, Games int
	Rank                    int // 1-based; players tied share a rank
}

// halves is the score of White and of Black in half points for a result;
// ok is false while the game has none.
func halves(result string) (w, b int, ok bool) {
	switch result {
	case "1-0":
		return 2, 0, true
	case "0-1":
		return 0, 2, true
	case "1/2-1/2":
		return 1, 1, true
	}
	return 0, 0, false
}

// standings ranks n players over the games of their section.
func standings(n int, games []tableGame) []standing {
	st := make([]standing, n)
	for i := range st {
		st[i].Player = i
	}
	for _, g := range games {
		w, b, ok := halves(g.Result)
		if !ok {
			continue
		}
		st[g.White].Halves += w
		st[g.Black].Halves += b
		st[g.White].Games++
		st[g.Black].Games++
		if w == 2 {
			st[g.White].Wins++
		}
		if b == 2 {
			st[g.Black].Wins++
		}
	}
	for _, g := range games {
		w, b, ok := halves(g.Result)
		if !ok {
			continue
		}
		st[g.White].SB += w * st[g.Black].Halves
		st[g.Black].SB += b * st[g.White].Halves
	}
	order := make([]standing, n)
	copy(order, st)
	slices.SortStableFunc(order, func(a, b standing) int {
		switch {
		case a.Halves != b.Halves:
			return b.Halves - a.Halves
		case a.SB != b.SB:
			return b.SB - a.SB
		}
		return b.Wins - a.Wins
	})
	// The groups tied on points, SB and wins, then the direct encounter
	// within each.
	for i := 0; i < n; {
		j := i + 1
		for j < n && order[j].Halves == order[i].Halves && order[j].SB == order[i].SB && order[j].Wins == order[i].Wins {
			j++
		}
		group := order[i:j]
		de := directEncounter(group, games)
		if de != nil {
			slices.SortStableFunc(group, func(a, b standing) int { return de[b.Player] - de[a.Player] })
		}
		for k := range group {
			if k > 0 && (de == nil || de[group[k].Player] == de[group[k-1].Player]) {
				group[k].Rank = group[k-1].Rank
			} else {
				group[k].Rank = i + k + 1
			}
		}
		i = j
	}
	return order
}

// directEncounter is the points (in halves) each player of a tied group
// scored against the others of the group, or nil when the group has one
// player or when two of them have not met in a finished game.
func directEncounter(group []standing, games []tableGame) map[int]int {
	if len(group) < 2 {
		return nil
	}
	in := map[int]bool{}
	for _, s := range group {
		in[s.Player] = true
	}
	met := map[[2]int]bool{}
	pts := map[int]int{}
	for _, g := range games {
		w, b, ok := halves(g.Result)
		if !ok || !in[g.White] || !in[g.Black] {
			continue
		}
		pts[g.White] += w
		pts[g.Black] += b
		met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}] = true
	}
	if len(met) != len(group)*(len(group)-1)/2 {
		return nil
	}
	return pts
}

// scoreText writes a score in half points: "2½", "½", "3".
func scoreText(h int) string {
	switch {
	case h == 1:
		return "½"
	case h%2 == 1:
		return fmt.Sprintf("%d½", h/2)
	}
	return fmt.Sprint(h / 2)
}

// sbText writes a Sonneborn-Berger score in quarter points: "6.25".
func sbText(q int) string {
	s := fmt.Sprintf("%d.%02d", q/4, q%4*25)
	return strings.TrimSuffix(strings.TrimSuffix(s, "0"), ".0")
}

// standingLine is the line ending every mail of a tournament game to a
// player, in language l: "Club championship: 2½/4, 2nd of 7" (the score
// over the games ended, the place, "=2nd" when shared; in German "2½/4,
// 2. von 7").
func standingLine(l lang.Lang, name string, n int, games []tableGame, player int) string {
	st := standings(n, games)
	for i, s := range st {
		if s.Player != player {
			continue
		}
		place := ordinalIn(l, s.Rank)
		if i > 0 && st[i-1].Rank == s.Rank || i+1 < len(st) && st[i+1].Rank == s.Rank {
			place = "=" + place
		}
		return l.Tr("%s: %s/%d, %s of %d", name, scoreText(s.Halves), s.Games, place, n)
	}
	return ""
}

// cellText is what a crosstable shows for one game from one player's
// side: 1, ½, 0, + or − for a forfeit, · while it goes on.
func cellText(g tableGame, player int) string {
	w, b, ok := halves(g.Result)
	if !ok {
		return "·"
	}
	mine := w
	if g.Black == player {
		mine = b
	}
	switch {
	case g.Forfeit && mine == 2:
		return "+"
	case g.Forfeit:
		return "−"
	case mine == 2:
		return "1"
	case mine == 1:
		return "½"
	}
	return "0"
}

// maxTableName is the most of a player's name a crosstable shows.
const maxTableName = 24

// crosstable lays out a section's standings and its grid, in at most 78
// columns for up to 20 players: first the players in the order of the
// standings, with their number, points, Sonneborn-Berger and wins; then
// the grid, a row and a numbered column per player (in a double round
// robin each cell holds the game with White first, then with Black). Its
// heading is in language l (the web page's is English).
func crosstable(l lang.Lang, names []string, games []tableGame, double bool) []string {
	n := len(names)
	st := standings(n, games)
	width := 4
	for _, name := range names {
		width = max(width, min(utf8.RuneCountInString(name), maxTableName))
	}
	// The columns keep their widths in every language; "Name" is German too.
	lines := []string{l.Tr("Pl.  No. %-*s  Pts  S-B     Wins", width, "Name")}
	for i, s := range st {
		place := fmt.Sprint(s.Rank)
		if i > 0 && st[i-1].Rank == s.Rank || i+1 < len(st) && st[i+1].Rank == s.Rank {
			place += "="
		}
		lines = append(lines, fmt.Sprintf("%-4s %3d %s  %-4s %-7s %d", place, s.Player+1, pad(cut(names[s.Player], maxTableName), width),
			scoreText(s.Halves), sbText(s.SB), s.Wins))
	}
	cell := 2
	if double {
		cell = 3
	}
	head := "    "
	for j := range n {
		head += fmt.Sprintf("%*d", cell, j+1)
	}
	lines = append(lines, "", strings.TrimRight(head, " "))
	for i, cells := range grid(n, games) {
		row := fmt.Sprintf("%3d ", i+1)
		for _, text := range cells {
			row += strings.Repeat(" ", cell-utf8.RuneCountInString(text)) + text
		}
		lines = append(lines, row)
	}
	return lines
}

// grid is the crosstable's cells: row i, column j holds player i's
// results against player j (cellText), the game with White first; × on
// the diagonal.
func grid(n int, games []tableGame) [][]string {
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = make([]string, n)
		rows[i][i] = "×"
	}
	for _, white := range []bool{true, false} {
		for _, g := range games {
			if white {
				rows[g.White][g.Black] += cellText(g, g.White)
			} else {
				rows[g.Black][g.White] += cellText(g, g.Black)
			}
		}
	}
	return rows
}

// cut shortens a name to at most n runes, with … for what it leaves out.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// pad fills a name with spaces to width runes.
func pad(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
