package battle

// An independent, slow reference of the rules, written from C1–C4 with plain
// coordinates and none of the engine's tables, board links or attack
// lookups: a square is attacked when some enemy move (capture or shot) would
// take it. Perft and move lists of the engine are checked against it.

import (
	"fmt"
	"sort"
)

type refPiece struct {
	side int  // 0 White, 1 Red
	kind byte // 'H', 'B', 'T', 'G', 'M', 'C', 'S'; 0 for an empty square
}

// refPosition is the reference generator's position, written apart from
// the engine's position type.
type refPosition struct {
	b    [12][12]refPiece // [file][rank], zero-based
	side int
}

type refMove struct {
	f0, r0, f1, r1 int
	shot           bool
	af, ar         int // the removed piece at the far end; -1 for none
}

// refExists is C1.1: ranks 3–10 on every file, ranks 1–2 and 11–12 on c–j.
func refExists(f, r int) bool {
	if f < 0 || f > 11 || r < 0 || r > 11 {
		return false
	}
	if r <= 1 || r >= 10 {
		return f >= 2 && f <= 9
	}
	return true
}

// refLight is C1.2 with 1-based file and rank: dark when the sum is even.
func refLight(f, r int) bool { return ((f+1)+(r+1))%2 == 1 }

func refForward(side int) int {
	if side == 0 {
		return 1
	}
	return -1
}

var refKing = [][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}
var refRook = [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}
var refCavalry = [][2]int{
	{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1},
	{1, 3}, {3, 1}, {-1, 3}, {-3, 1}, {1, -3}, {3, -1}, {-1, -3}, {-3, -1},
	{2, 3}, {3, 2}, {-2, 3}, {-3, 2}, {2, -3}, {3, -2}, {-2, -3}, {-3, -2},
}

// pseudo lists side's moves by the piece rules alone.
func (p *refPosition) pseudo(side int) []refMove {
	var out []refMove
	add := func(f0, r0, f1, r1 int, shot bool) {
		out = append(out, refMove{f0, r0, f1, r1, shot, -1, -1})
	}
	for f := range 12 {
		for r := range 12 {
			if pc := p.b[f][r]; pc.kind != 0 && pc.side == side {
				p.pieceMoves(f, r, add)
			}
		}
	}
	return out
}

// refAdd is how the reference's move makers hand on a move.
type refAdd func(f0, r0, f1, r1 int, shot bool)

func (p *refPosition) enemy(f, r, side int) bool {
	return p.b[f][r].kind != 0 && p.b[f][r].side != side
}
func (p *refPosition) empty(f, r int) bool { return p.b[f][r].kind == 0 }

// pieceMoves gives add the moves of the piece on (f, r) by its rule (C2, C3).
func (p *refPosition) pieceMoves(f, r int, add refAdd) {
	pc := p.b[f][r]
	side := pc.side
	enemy := func(f, r int) bool { return p.enemy(f, r, side) }
	empty := p.empty
	switch pc.kind {
	case 'H':
		for _, d := range refKing {
			if x, y := f+d[0], r+d[1]; refExists(x, y) && (empty(x, y) || enemy(x, y)) {
				add(f, r, x, y, false)
			}
		}
	case 'B':
		p.bomberMoves(f, r, add)
	case 'T':
		p.tankMoves(f, r, add)
	case 'G', 'M':
		p.gunMoves(f, r, add)
	case 'C':
		for _, d := range refCavalry {
			x, y := f+d[0], r+d[1]
			if refExists(x, y) && (empty(x, y) || (enemy(x, y) && p.b[x][y].kind != 'T')) {
				add(f, r, x, y, false)
			}
		}
	case 'S':
		p.soldierMoves(f, r, add)
	}
}

// bomberMoves: like a queen, over at most one friendly piece, never an enemy.
func (p *refPosition) bomberMoves(f, r int, add refAdd) {
	side := p.b[f][r].side
	enemy := func(f, r int) bool { return p.enemy(f, r, side) }
	empty := p.empty
	for _, d := range refKing {
		over := 0
		for k := 1; ; k++ {
			x, y := f+k*d[0], r+k*d[1]
			if !refExists(x, y) {
				break
			}
			if empty(x, y) {
				add(f, r, x, y, false)
				continue
			}
			if enemy(x, y) {
				add(f, r, x, y, false)
				break
			}
			over++
			if over == 2 {
				break
			}
		}
	}
}

// tankMoves: one or two squares along a rank or file.
func (p *refPosition) tankMoves(f, r int, add refAdd) {
	side := p.b[f][r].side
	enemy := func(f, r int) bool { return p.enemy(f, r, side) }
	empty := p.empty
	for _, d := range refRook {
		x, y := f+d[0], r+d[1]
		if !refExists(x, y) {
			continue
		}
		if enemy(x, y) {
			add(f, r, x, y, false)
		}
		if !empty(x, y) {
			continue
		}
		add(f, r, x, y, false)
		x2, y2 := x+d[0], y+d[1]
		if refExists(x2, y2) && (empty(x2, y2) || enemy(x2, y2)) {
			add(f, r, x2, y2, false)
		}
	}
}

// gunMoves: a step to an empty square, or a shot.
func (p *refPosition) gunMoves(f, r int, add refAdd) {
	pc := p.b[f][r]
	side, fw := pc.side, refForward(pc.side)
	enemy := func(f, r int) bool { return p.enemy(f, r, side) }
	empty := p.empty
	for _, d := range refKing {
		if x, y := f+d[0], r+d[1]; refExists(x, y) && empty(x, y) {
			add(f, r, x, y, false)
		}
	}
	dirs, reach := [][2]int{{-1, 0}, {1, 0}, {0, fw}, {-1, fw}, {1, fw}}, 5
	if pc.kind == 'M' {
		dirs, reach = refKing, 3
	}
	for _, d := range dirs {
		for k := 1; k <= reach; k++ {
			x, y := f+k*d[0], r+k*d[1]
			if !refExists(x, y) {
				break
			}
			if empty(x, y) {
				continue
			}
			if enemy(x, y) && !(pc.kind == 'M' && p.b[x][y].kind == 'T') {
				add(f, r, x, y, true)
			}
			break
		}
	}
}

// soldierMoves: a step, a capture forward or sideways, or two from a light square.
func (p *refPosition) soldierMoves(f, r int, add refAdd) {
	side, fw := p.b[f][r].side, refForward(p.b[f][r].side)
	enemy := func(f, r int) bool { return p.enemy(f, r, side) }
	empty := p.empty
	for _, d := range refKing {
		x, y := f+d[0], r+d[1]
		if !refExists(x, y) {
			continue
		}
		capturing := d[1] == fw || d[1] == 0 // forward, diagonally forward, sideways
		if empty(x, y) || (capturing && enemy(x, y) && p.b[x][y].kind != 'T') {
			add(f, r, x, y, false)
		}
		x2, y2 := f+2*d[0], r+2*d[1]
		if refLight(f, r) && empty(x, y) && refExists(x2, y2) && empty(x2, y2) {
			add(f, r, x2, y2, false)
		}
	}
}

// expand gives each arrival of a soldier at the far end its removal
// choices (C4); pseudo moves from p with side to move.
func (p *refPosition) expand(out []refMove, side int) []refMove {
	far := 11
	if side == 1 {
		far = 0
	}
	var final []refMove
	for _, m := range out {
		if p.b[m.f0][m.r0].kind != 'S' || m.r1 != far {
			final = append(final, m)
			continue
		}
		n := 0
		for x := range 12 {
			for y := range 12 {
				if q := p.b[x][y]; q.kind != 0 && q.kind != 'H' && q.side != side && !(x == m.f1 && y == m.r1) {
					mm := m
					mm.af, mm.ar = x, y
					final = append(final, mm)
					n++
				}
			}
		}
		if n == 0 {
			final = append(final, m)
		}
	}
	return final
}

func (p *refPosition) play(m refMove) refPosition {
	n := *p
	if m.shot {
		n.b[m.f1][m.r1] = refPiece{}
	} else {
		n.b[m.f1][m.r1] = n.b[m.f0][m.r0]
		n.b[m.f0][m.r0] = refPiece{}
		far := 11
		if p.side == 1 {
			far = 0
		}
		if n.b[m.f1][m.r1].kind == 'S' && m.r1 == far {
			n.b[m.f1][m.r1] = refPiece{}
			if m.af >= 0 {
				n.b[m.af][m.ar] = refPiece{}
			}
		}
	}
	n.side = 1 - p.side
	return n
}

// hqAttacked reports whether side's headquarter could be taken or shot by
// the other side.
func (p *refPosition) hqAttacked(side int) bool {
	for _, m := range p.pseudo(1 - side) {
		if q := p.b[m.f1][m.r1]; q.kind == 'H' && q.side == side {
			return true
		}
	}
	return false
}

func (p *refPosition) legal() []refMove {
	var out []refMove
	for _, m := range p.expand(p.pseudo(p.side), p.side) {
		if n := p.play(m); !n.hqAttacked(p.side) {
			out = append(out, m)
		}
	}
	return out
}

func (p *refPosition) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.legal() {
		if depth == 1 {
			n++
			continue
		}
		c := p.play(m)
		n += c.perft(depth - 1)
	}
	return n
}

func refName(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }

// texts writes the reference's moves as sorted "from-to^aux" / "from!to".
func refTexts(ms []refMove) []string {
	var out []string
	for _, m := range ms {
		sep := "-"
		if m.shot {
			sep = "!"
		}
		t := refName(m.f0, m.r0) + sep + refName(m.f1, m.r1)
		if m.af >= 0 {
			t += "^" + refName(m.af, m.ar)
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// refFromEngine copies an engine position into the reference's form.
func refFromEngine(p *position) refPosition {
	var rp refPosition
	for _, sq := range board.Squares() {
		if c := p.cells[sq]; c != 0 {
			f, r := board.Coords(sq)
			rp.b[f][r] = refPiece{side: int(sideOf(c)), kind: letters[typeOf(c)]}
		}
	}
	rp.side = int(p.side)
	return rp
}

// engineTexts writes the engine's legal moves the same way.
func engineTexts(s *State) []string {
	var out []string
	for _, m := range s.moves {
		sep := "-"
		if m.Kind == kindShot {
			sep = "!"
		}
		t := board.Name(m.From) + sep + board.Name(m.To)
		if m.Aux != -1 {
			t += "^" + board.Name(m.Aux)
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
