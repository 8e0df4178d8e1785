package battle

import (
	"github.com/bottlepost/bottlepost/rules"
)

// Perft counts the leaves of the game tree to depth plies, as rules.Perft
// does, without building states: positions are copied by value and the
// repetition history is a stack. A position drawn by repetition or by the
// 50-move rule (C5) has no moves, as in Moves.
func (s *State) Perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.outcome.Over() {
		return 0
	}
	if depth == 1 {
		return uint64(len(s.moves))
	}
	var keys []uint64
	for e := s.hist; e != nil; e = e.prev {
		keys = append(keys, e.hash)
	}
	for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
		keys[i], keys[j] = keys[j], keys[i]
	}
	var n uint64
	for _, m := range s.moves {
		n += s.pos.perftChild(m, depth-1, keys, 0)
	}
	return n
}

// perftChild plays m from p and counts the leaves below it; keys[base:] are
// the keys of the positions since the last change of material, p's last.
func (p *position) perftChild(m rules.Move, depth int, keys []uint64, base int) uint64 {
	n, material := p.play(m)
	if material {
		base = len(keys)
	}
	keys = append(keys, n.hash)
	reps := 0
	for _, k := range keys[base:] {
		if k == n.hash {
			reps++
		}
	}
	if reps >= 3 || n.quiet >= 100 {
		return 0
	}
	if depth == 1 {
		return uint64(n.countLegal())
	}
	var buf [256]rules.Move
	var total uint64
	checked := n.inCheck()
	for _, c := range n.pseudo(buf[:0]) {
		if n.allows(c, checked) {
			total += n.perftChild(c, depth-1, keys, base)
		}
	}
	return total
}
