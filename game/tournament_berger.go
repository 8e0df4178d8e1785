package game

// The Berger tables (FIDE Handbook C.05, Annex 1), computed. Players are
// numbered 1…n by their draw number; an odd count is made even by a bye,
// the number n+1, and whoever meets the bye sits out that round. With n
// even there are n−1 rounds of n/2 boards. In round 1, board 1 is 1–n,
// board 2 is 2–(n−1), and so on; the players 1…n−1 then move on by n/2
// places on the circle 1…n−1 each round, while n stays on board 1 and
// alternates colours: n plays Black in the odd rounds and White in the
// even ones. The first-named player of each pair has White.
//
// In round r (counted from 0), let b = r·n/2 mod (n−1). Board 1 is player
// b+1 against n, b+1 with White when r is even; board k+1 (k = 1…n/2−1)
// is player (b+k mod n−1)+1 with White against (b−k mod n−1)+1. This is
// the published table row for row (tournament_berger_test.go compares it
// with the tables as FIDE prints them, transcribed in testdata).
//
// A double round robin plays the table twice: rounds n…2n−2 are rounds
// 1…n−1 again with the colours reversed. bottlepost starts every game of
// a section at once, so the rounds are only labels (the PGN Round tag):
// FIDE's advice to swap the last two rounds of the first cycle, which is
// about colour sequences in time, does not apply and is not followed.

// pairing is one game of a round-robin table: the draw numbers (1-based)
// of White and Black, and its round (1-based).
type pairing struct {
	Round, White, Black int
}

// bergerRounds is the Berger table for n players (3 ≤ n): the rounds in
// order, each its pairs as printed (White first), the bye's pair included
// when n is odd (its number is n+1).
func bergerRounds(n int) [][]pairing {
	if n%2 == 1 {
		n++
	}
	m := n - 1
	half := n / 2
	rounds := make([][]pairing, m)
	for r := range m {
		b := r * half % m
		first := pairing{Round: r + 1, White: b + 1, Black: n}
		if r%2 == 1 {
			first.White, first.Black = n, b+1
		}
		row := []pairing{first}
		for k := 1; k < half; k++ {
			row = append(row, pairing{Round: r + 1, White: (b+k)%m + 1, Black: ((b-k)%m+m)%m + 1})
		}
		rounds[r] = row
	}
	return rounds
}

// bergerPairings lists the games of a round robin of n players (3 ≤ n),
// twice with the colours swapped when double: every pair of the Berger
// table but the bye's, round by round.
func bergerPairings(n int, double bool) []pairing {
	rounds := bergerRounds(n)
	var out []pairing
	for _, row := range rounds {
		for _, p := range row {
			if p.White <= n && p.Black <= n {
				out = append(out, p)
			}
		}
	}
	if double {
		first := len(out)
		for _, p := range out[:first] {
			out = append(out, pairing{Round: p.Round + len(rounds), White: p.Black, Black: p.White})
		}
	}
	return out
}
