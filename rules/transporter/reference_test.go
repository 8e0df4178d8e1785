package transporter

// An independent, slow reference move generator written straight from the
// rulings, used to check the engine's move lists and perft counts. It
// shares nothing with the engine: its own board shape, coordinates instead
// of tables, a map of pieces, and a check test that generates every enemy
// capture instead of looking along lines from the Admiral.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

type refPiece struct {
	white    bool
	kind     byte // A C R B M D F S I
	promoted bool
	fresh    bool
}

type refSq [2]int // file, rank (0-based)

// refPosition is the reference generator's position, written apart from
// the engine's position type.
type refPosition struct {
	cells map[refSq]refPiece
	white bool // White to move
}

type refMove struct {
	from, to refSq
	dest     *refSq // transporter destination
	capture  bool
	promo    byte
}

// T1.1: ranks 1 and 10 on d–g, 2 and 9 on b–i, the rest a–j.
func refExists(s refSq) bool {
	f, r := s[0], s[1]
	if f < 0 || f > 9 || r < 0 || r > 9 {
		return false
	}
	switch r {
	case 0, 9:
		return f >= 3 && f <= 6
	case 1, 8:
		return f >= 1 && f <= 8
	}
	return true
}

func refTransporter(s refSq) bool { return (s[0] == 0 || s[0] == 9) && (s[1] == 2 || s[1] == 7) }

func refName(s refSq) string { return string(rune('a'+s[0])) + strconv.Itoa(s[1]+1) }

// refParse reads the position notation (documented in StartPosition).
func refParse(text string) refPosition {
	f := strings.Fields(text)
	p := refPosition{cells: map[refSq]refPiece{}, white: f[1] == "w"}
	for i, row := range strings.Split(f[0], "/") {
		r := 9 - i
		var files []int
		for x := 0; x < 10; x++ {
			if refExists(refSq{x, r}) {
				files = append(files, x)
			}
		}
		k := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			if ch >= '0' && ch <= '9' {
				n := int(ch - '0')
				if j+1 < len(row) && row[j+1] == '0' {
					n, j = 10, j+1
				}
				k += n
				continue
			}
			pc := refPiece{white: ch < 'a', kind: ch &^ 0x20}
			pc.fresh = pc.kind == 'F'
			for j+1 < len(row) && (row[j+1] == '\'' || row[j+1] == '+') {
				j++
				if row[j] == '\'' {
					pc.fresh = false
				} else {
					pc.promoted = true
				}
			}
			p.cells[refSq{files[k], r}] = pc
			k++
		}
	}
	return p
}

func (p refPosition) enemy(s refSq, white bool) bool {
	c, ok := p.cells[s]
	return ok && c.white != white && c.kind != 'I'
}

func (p refPosition) free(s refSq) bool {
	_, ok := p.cells[s]
	return refExists(s) && !ok
}

// pseudo lists the moves of side white, legal or not.
func (p refPosition) pseudo(white bool) []refMove {
	g := &refGen{p: p, white: white, fwd: 1}
	if !white {
		g.fwd = -1
	}
	for from, pc := range p.cells {
		if pc.white == white {
			g.piece(pc, from)
		}
	}
	return g.out
}

// refGen collects the reference's moves of one side.
type refGen struct {
	p     refPosition
	white bool
	fwd   int // the side's forward rank step
	out   []refMove
}

var refKings = [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// add adds the move of pc from → to: with its promotion in the enemy camp,
// or once per free transporter destination (none: a plain move).
func (g *refGen) add(pc refPiece, from, to refSq, capture bool) {
	if !refTransporter(to) {
		m := refMove{from: from, to: to, capture: capture}
		camp := (g.white && to[1] >= 8) || (!g.white && to[1] <= 1)
		if camp && !pc.promoted {
			m.promo = map[byte]byte{'F': 'S', 'S': 'M', 'M': 'D'}[pc.kind]
		}
		g.out = append(g.out, m)
		return
	}
	n := 0
	for _, t := range []refSq{{0, 2}, {0, 7}, {9, 2}, {9, 7}} {
		if t != to && (t[0] == to[0] || t[1] == to[1]) && t != from && g.p.free(t) {
			d := t
			g.out = append(g.out, refMove{from: from, to: to, capture: capture, dest: &d})
			n++
		}
	}
	if n == 0 {
		g.out = append(g.out, refMove{from: from, to: to, capture: capture})
	}
}

// try adds a quiet move or a capture onto to; it reports whether to was empty.
func (g *refGen) try(pc refPiece, from, to refSq, mayCapture bool) bool {
	if !refExists(to) {
		return false
	}
	if g.p.free(to) {
		g.add(pc, from, to, false)
		return true
	}
	if mayCapture && g.p.enemy(to, g.white) {
		g.add(pc, from, to, true)
	}
	return false
}

// piece adds the moves of pc on from.
func (g *refGen) piece(pc refPiece, from refSq) {
	f, r := from[0], from[1]
	switch pc.kind {
	case 'A', 'D':
		for _, d := range refKings {
			if g.try(pc, from, refSq{f + d[0], r + d[1]}, true) {
				diag := d[0] != 0 && d[1] != 0
				if diag == (pc.kind == 'D') {
					g.try(pc, from, refSq{f + 2*d[0], r + 2*d[1]}, true)
				}
			}
		}
	case 'M':
		for _, d := range refKings {
			g.try(pc, from, refSq{f + d[0], r + d[1]}, d[1] != 0)
		}
	case 'R', 'B', 'C':
		g.lines(pc, from)
	case 'F':
		g.fighter(pc, from)
	case 'S':
		for _, d := range refKings {
			t := refSq{f + d[0], r + d[1]}
			if d[0] != 0 && d[1] != 0 {
				if g.p.free(t) {
					g.add(pc, from, t, false)
				}
			} else if d[1] != -g.fwd && g.p.enemy(t, g.white) {
				g.add(pc, from, t, true)
			}
		}
	case 'I':
		for x := 0; x < 10; x++ {
			if t := (refSq{x, r}); g.p.free(t) && !refTransporter(t) {
				g.add(pc, from, t, false)
			}
		}
	}
}

// lines adds a Commander's (R), Assistant's (B) or Commodore's (C) moves.
func (g *refGen) lines(pc refPiece, from refSq) {
	f, r := from[0], from[1]
	for _, d := range refKings {
		diag := d[0] != 0 && d[1] != 0
		if (pc.kind == 'R' && diag) || (pc.kind == 'B' && !diag) {
			continue
		}
		if pc.kind == 'C' && !diag {
			g.cannon(pc, from, d)
			continue
		}
		for k := 1; ; k++ {
			if !g.try(pc, from, refSq{f + k*d[0], r + k*d[1]}, pc.kind != 'C') {
				break
			}
		}
	}
}

// cannon adds the Commodore's capture along d: one screen, never an
// Interference.
func (g *refGen) cannon(pc refPiece, from refSq, d [2]int) {
	screen := false
	for k := 1; ; k++ {
		t := refSq{from[0] + k*d[0], from[1] + k*d[1]}
		if !refExists(t) {
			return
		}
		c, ok := g.p.cells[t]
		if !ok {
			continue
		}
		if c.kind == 'I' {
			return
		}
		if !screen {
			screen = true
			continue
		}
		if c.white != g.white {
			g.add(pc, from, t, true)
		}
		return
	}
}

// fighter adds a Fighter's diagonal steps (two from the start) and its
// straight capture.
func (g *refGen) fighter(pc refPiece, from refSq) {
	f, r := from[0], from[1]
	for _, df := range []int{-1, 1} {
		t := refSq{f + df, r + g.fwd}
		if g.p.free(t) {
			g.add(pc, from, t, false)
			if t2 := (refSq{f + 2*df, r + 2*g.fwd}); pc.fresh && g.p.free(t2) {
				g.add(pc, from, t2, false)
			}
		}
	}
	if t := (refSq{f, r + g.fwd}); g.p.enemy(t, g.white) {
		g.add(pc, from, t, true)
	}
}

func (p refPosition) apply(m refMove) refPosition {
	q := refPosition{cells: make(map[refSq]refPiece, len(p.cells)), white: !p.white}
	for k, v := range p.cells {
		q.cells[k] = v
	}
	pc := q.cells[m.from]
	delete(q.cells, m.from)
	delete(q.cells, m.to)
	pc.fresh = false
	if m.promo != 0 {
		pc.kind, pc.promoted = m.promo, true
	}
	at := m.to
	if m.dest != nil {
		at = *m.dest
	}
	q.cells[at] = pc
	return q
}

// legal keeps the moves after which no enemy move could capture the
// mover's Admiral.
func (p refPosition) legal() []refMove {
	var out []refMove
	for _, m := range p.pseudo(p.white) {
		q := p.apply(m)
		var adm refSq
		for s, c := range q.cells {
			if c.kind == 'A' && c.white == p.white {
				adm = s
			}
		}
		safe := true
		for _, r := range q.pseudo(!p.white) {
			if r.capture && r.to == adm {
				safe = false
				break
			}
		}
		if safe {
			out = append(out, m)
		}
	}
	return out
}

func (p refPosition) format(m refMove) string {
	s := fmt.Sprintf("%c%s-%s", p.cells[m.from].kind, refName(m.from), refName(m.to))
	if m.capture {
		s = strings.Replace(s, "-", "x", 1)
	}
	if m.dest != nil {
		s += "@" + refName(*m.dest)
	}
	if m.promo != 0 {
		s += "=" + string(m.promo)
	}
	return s
}

func (p refPosition) texts() []string {
	var out []string
	for _, m := range p.legal() {
		out = append(out, p.format(m))
	}
	sort.Strings(out)
	return out
}

func (p refPosition) perft(depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := p.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += p.apply(m).perft(depth - 1)
	}
	return n
}
