package seachess

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// StartPosition is the standard start (S1.2) in the position notation.
const StartPosition = "csdakdst/bbbbbbbb/12/12/12/12/12/12/12/12/BBBBBBBB/CSDAKDST w TCtc - 0 1"

// The position notation (Options.Position, the CLI's --fen) writes the
// referee's full state in six fields and optional extras:
//
//	PLACEMENT SIDE CASTLING EP CLOCK MOVE [spent=..] [face=..] [v=..] [left=..] [air=..]
//
// PLACEMENT lists ranks 12 down to 1, separated by "/", each over its
// existing squares from left to right (c–j on ranks 1, 2, 11, 12; a–l on
// the others). A number is that many empty squares. A cell is one
// character, or several in brackets, written as the referee's board shows
// it: a piece letter (White upper case), "*" after a cruiser standing on its
// own mine, "M"/"m" a White/Black mine on an empty square, then "U"/"u" for
// a White/Black submarine submerged there. Examples: "C", "[C*]", "M",
// "[bU]", "[Uu]".
//
// SIDE is w or b; CASTLING is any of T C t c (O-O with the torpedo boat,
// O-O-O with the cruiser; upper case White) or "-"; EP is the square of a
// boat that has just made a multi-square first move, or "-"; CLOCK counts
// plies without a removal or a boat move; MOVE is the move number.
//
// Extras, each a comma-separated list, only where a piece differs from a
// fresh one: spent=c1,j5 (cruisers and torpedo boats that must reload),
// face=h1:W (a torpedo boat's forward direction N, E, S or W; fresh: toward
// the enemy), v=d1:3 (a visible submarine's count V of S5.3, 0–8),
// left=Ue5:1,ue7:2 (a submerged submarine's further turns down; 0 means it
// comes up at the start of its owner's next turn), air=f5 (a carrier whose
// aircraft is in flight), veiled=W,B (the sides that have made a hidden move
// that changed nothing on the public board, a mine or an underwater move:
// their opponents must allow for their mines (S8.3); a side with a mine on
// the board is veiled without saying so).

// placement is the board field of the position notation: the existing
// squares of each rank, a square holding more than one piece in brackets
// (Placement writes them so).
var placement = rules.Placement{Board: brd}

// formatPosition writes p in the position notation.
func (p *position) formatPosition() string {
	var b strings.Builder
	b.WriteString(placement.Format(func(sq Square) string { return p.cellText(sq, everything) }))
	b.WriteString(" " + "wb"[p.toMove:p.toMove+1] + " ")
	cs := ""
	for i, c := range "TCtc" {
		if p.castle&(1<<i) != 0 {
			cs += string(c)
		}
	}
	if cs == "" {
		cs = "-"
	}
	b.WriteString(cs + " " + sqName(p.ep))
	fmt.Fprintf(&b, " %d %d", p.clock, p.ply/2+1)
	var spent, face, vs, left, air, veiled []string
	for side, l := range [2]string{"W", "B"} {
		if p.veiled[side] {
			veiled = append(veiled, l)
		}
	}
	for _, sq := range brd.Squares() {
		c, a := p.sq[sq], p.attr[sq]
		switch c.kind() {
		case cruiser, torpedo:
			if a&attrLoaded == 0 && p.mine[sq] == 0 { // a cruiser on its mine is spent anyway
				spent = append(spent, sqName(sq))
			}
			if c.kind() == torpedo && facing(a) != facing(fresh(torpedo, c.side())) {
				face = append(face, sqName(sq)+":"+facing(a).String())
			}
		case submarine:
			if a != 0 {
				vs = append(vs, fmt.Sprintf("%s:%d", sqName(sq), a))
			}
		case carrier:
			if a&attrAirborne != 0 {
				air = append(air, sqName(sq))
			}
		}
		for side, l := range [2]string{"U", "u"} {
			if u := p.uw[side][sq]; u > 1 {
				left = append(left, fmt.Sprintf("%s%s:%d", l, sqName(sq), u-1))
			}
		}
	}
	for _, kv := range []struct {
		k string
		v []string
	}{{"spent", spent}, {"face", face}, {"v", vs}, {"left", left}, {"air", air}, {"veiled", veiled}} {
		if len(kv.v) > 0 {
			b.WriteString(" " + kv.k + "=" + strings.Join(kv.v, ","))
		}
	}
	return b.String()
}

// cellText is what a viewer who sees the mines and submerged submarines of
// the sides for which sees is true finds on sq: the piece letter, "*" for a
// cruiser on its own mine or "M"/"m" for a mine on an empty square, then
// "U"/"u" for submerged submarines.
func (p *position) cellText(sq Square, sees func(rules.Side) bool) string {
	t := ""
	c := p.sq[sq]
	if c != 0 {
		t = c.letter()
	}
	if m := p.mine[sq]; m != 0 && sees(rules.Side(m-1)) {
		switch {
		case c != 0:
			t += "*"
		case m == mineOf(rules.White):
			t += "M"
		default:
			t += "m"
		}
	}
	if p.uw[rules.White][sq] != 0 && sees(rules.White) {
		t += "U"
	}
	if p.uw[rules.Black][sq] != 0 && sees(rules.Black) {
		t += "u"
	}
	return t
}

// cellPieces is what cellText writes, in structured form for the piece
// list (rules.Piece), from the top down: what floats, the mine, the
// submerged submarines; a mine and a submerged submarine are Hidden, as
// only their owner (and the referee) sees them.
func (p *position) cellPieces(sq Square, sees func(rules.Side) bool) []rules.Piece {
	var out []rules.Piece
	if c := p.sq[sq]; c != 0 {
		out = append(out, rules.Piece{Side: c.side(), Kind: c.kind().String()})
	}
	if m := p.mine[sq]; m != 0 && sees(rules.Side(m-1)) {
		out = append(out, rules.Piece{Side: rules.Side(m - 1), Kind: "mine", Hidden: true})
	}
	for side := rules.White; side <= rules.Black; side++ {
		if p.uw[side][sq] != 0 && sees(side) {
			out = append(out, rules.Piece{Side: side, Kind: "submerged submarine", Hidden: true})
		}
	}
	return out
}

// everything is the referee's sight.
func everything(rules.Side) bool { return true }

// parsePosition reads the position notation and validates the result.
func parsePosition(text string) (position, error) {
	var p position
	p.king = [2]Square{noSq, noSq}
	p.ep = noSq
	fields := strings.Fields(text)
	if len(fields) < 6 {
		return p, errors.New("seachess: a position needs six fields: placement, side, castling, en passant, clock and move number")
	}
	err := placement.Parse(fields[0], func(sq Square, tok string) error {
		if err := p.setCell(sq, tok); err != nil {
			return fmt.Errorf("%s: %v", sqName(sq), err)
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("seachess: %w", err)
	}
	switch fields[1] {
	case "w":
		p.toMove = rules.White
	case "b":
		p.toMove = rules.Black
	default:
		return p, fmt.Errorf("seachess: side to move %q: want w or b", fields[1])
	}
	if fields[2] != "-" {
		for _, c := range fields[2] {
			i := strings.IndexRune("TCtc", c)
			if i < 0 || p.castle&(1<<i) != 0 {
				return p, fmt.Errorf("seachess: castling rights %q: want some of T C t c, or -", fields[2])
			}
			p.castle |= 1 << i
		}
	}
	if fields[3] != "-" {
		sq, err := brd.Parse(fields[3])
		if err != nil {
			return p, fmt.Errorf("seachess: en passant: %v", err)
		}
		p.ep = sq
	}
	clock, err := strconv.Atoi(fields[4])
	if err != nil || clock < 0 || clock > drawClock {
		return p, fmt.Errorf("seachess: clock %q: want 0 to %d", fields[4], drawClock)
	}
	p.clock = clock
	move, err := strconv.Atoi(fields[5])
	if err != nil || move < 1 || move > 100000 {
		return p, fmt.Errorf("seachess: move number %q: want a whole number from 1", fields[5])
	}
	p.ply = 2*(move-1) + int(p.toMove)
	// Fresh attributes first, then the extras.
	for _, sq := range brd.Squares() {
		if c := p.sq[sq]; c != 0 {
			p.attr[sq] = fresh(c.kind(), c.side())
			if c.is(cruiser) && p.mine[sq] != 0 {
				p.attr[sq] = 0 // a cruiser on its own mine has laid it
			}
		}
		for side := range 2 {
			if p.uw[side][sq] != 0 {
				p.uw[side][sq] = 1
			}
		}
	}
	seen := map[string]bool{}
	for _, f := range fields[6:] {
		k, v, ok := strings.Cut(f, "=")
		if !ok || seen[k] || v == "" {
			return p, fmt.Errorf("seachess: extra %q: want key=value once each", f)
		}
		seen[k] = true
		for _, item := range strings.Split(v, ",") {
			set := p.setExtra
			if k == "veiled" {
				set = func(_, item string) error { return p.setVeiled(item) }
			}
			if err := set(k, item); err != nil {
				return p, fmt.Errorf("seachess: %s=%s: %v", k, item, err)
			}
		}
	}
	// A side whose mines lie on the board has laid them by hidden moves.
	for _, sq := range brd.Squares() {
		if m := p.mine[sq]; m != 0 {
			p.veiled[m-1] = true
		}
	}
	if err := p.validate(); err != nil {
		return p, err
	}
	return p, nil
}

// setCell fills sq from a cell token.
func (p *position) setCell(sq Square, tok string) error {
	if tok == "" {
		return errors.New("empty cell")
	}
	i := 0
	if k := strings.IndexByte(letters, tok[0]&^0x20); k > 0 && tok[0] != 'M' && tok[0] != 'm' && tok[0] != 'U' && tok[0] != 'u' {
		side := rules.White
		if tok[0]&0x20 != 0 {
			side = rules.Black
		}
		p.place(sq, mk(kind(k), side), 0)
		i = 1
	}
	for ; i < len(tok); i++ {
		switch tok[i] {
		case '*':
			if p.sq[sq] == 0 || p.mine[sq] != 0 {
				return errors.New("'*' follows a piece standing on its own mine")
			}
			p.mine[sq] = mineOf(p.sq[sq].side())
		case 'M', 'm':
			if p.sq[sq] != 0 || p.mine[sq] != 0 {
				return errors.New("'M'/'m' is a mine on an empty square; a cruiser on its mine is written C* or c*")
			}
			p.mine[sq] = 1 + uint8(tok[i]>>5&1)
		case 'U', 'u':
			side := tok[i] >> 5 & 1
			if p.uw[side][sq] != 0 {
				return errors.New("two submerged submarines of one side")
			}
			p.uw[side][sq] = 1
			p.nuw[side]++
		default:
			return fmt.Errorf("unknown symbol %q", tok[i])
		}
	}
	return nil
}

func (p *position) setExtra(key, item string) error {
	name, val, hasVal := strings.Cut(item, ":")
	side := -1
	if key == "left" && name != "" {
		switch name[0] {
		case 'U':
			side = 0
		case 'u':
			side = 1
		default:
			return errors.New("write U or u (the submarine's side) before the square")
		}
		name = name[1:]
	}
	sq, err := brd.Parse(name)
	if err != nil {
		return err
	}
	c := p.sq[sq]
	switch key {
	case "spent":
		if hasVal || (!c.is(cruiser) && !c.is(torpedo)) {
			return errors.New("not a cruiser or torpedo boat")
		}
		p.attr[sq] &^= attrLoaded
	case "face":
		d := strings.Index("N E S W", val)
		if !c.is(torpedo) || len(val) != 1 || d < 0 {
			return errors.New("want a torpedo boat's square and N, E, S or W")
		}
		p.attr[sq] = withFacing(p.attr[sq], rules.Dir(d))
	case "v":
		n, err := strconv.Atoi(val)
		if !c.is(submarine) || err != nil || n < 0 || n > vMax {
			return errors.New("want a visible submarine's square and a count from 0 to 8")
		}
		p.attr[sq] = uint8(n)
	case "left":
		n, err := strconv.Atoi(val)
		if p.uw[side][sq] == 0 || err != nil || n < 0 || n > 3 {
			return errors.New("want a submerged submarine and 0 to 3 further turns")
		}
		p.uw[side][sq] = uint8(n + 1)
	case "air":
		if hasVal || !c.is(carrier) {
			return errors.New("not a carrier")
		}
		p.attr[sq] |= attrAirborne
	default:
		return errors.New("unknown extra")
	}
	return nil
}

// setVeiled reads one side of the veiled extra: W or B.
func (p *position) setVeiled(item string) error {
	switch item {
	case "W":
		p.veiled[rules.White] = true
	case "B":
		p.veiled[rules.Black] = true
	default:
		return errors.New("want W or B")
	}
	return nil
}

// initial counts per kind (S1.2), for the promotion bound.
var initial = [...]int{boat: 8, cruiser: 1, torpedo: 1, submarine: 2, destroyer: 2, carrier: 1, commando: 1}

// attrValid says which attributes a piece of each kind may carry.
var attrValid = [...]func(a uint8) bool{
	boat:      func(a uint8) bool { return a == 0 },
	cruiser:   func(a uint8) bool { return a&^attrLoaded == 0 },
	torpedo:   func(a uint8) bool { return a < 8 },
	submarine: func(a uint8) bool { return a <= vMax },
	carrier:   func(a uint8) bool { return a&^attrAirborne == 0 },
	destroyer: func(a uint8) bool { return a == 0 },
	commando:  func(a uint8) bool { return a == 0 },
}

// tally is what validate counts on its way over the squares.
type tally struct {
	count    [2][8]int
	air, nuw [2]int
	kings    [2]Square
}

// validate checks the invariants every reachable position keeps: each
// square's (validSquare), each side's (validSides), then the check, the
// castling rights, the en passant square and the counters.
func (p *position) validate() error {
	t := tally{kings: [2]Square{noSq, noSq}}
	for sq := range Square(nSq) {
		if err := p.validSquare(sq, &t); err != nil {
			return err
		}
	}
	if err := p.validSides(&t); err != nil {
		return err
	}
	return p.validRest(&t)
}

// validSquare checks what floats on sq, is mined there and submerged
// there, and counts it in t.
func (p *position) validSquare(sq Square, t *tally) error {
	if !brd.Exists(sq) {
		if p.sq[sq] != 0 || p.attr[sq] != 0 || p.mine[sq] != 0 || p.uw[0][sq] != 0 || p.uw[1][sq] != 0 {
			return fmt.Errorf("seachess: something on the missing cell %d", sq)
		}
		return nil
	}
	name := sqName(sq)
	c, a := p.sq[sq], p.attr[sq]
	if c&^15 != 0 || (c != 0 && (c.kind() == noPiece)) {
		return fmt.Errorf("seachess: bad piece code on %s", name)
	}
	if c != 0 {
		if err := p.validPiece(sq, c, a, t); err != nil {
			return err
		}
	}
	if m := p.mine[sq]; m > 2 {
		return fmt.Errorf("seachess: bad mine on %s", name)
	} else if m != 0 && !p.veiled[m-1] {
		return fmt.Errorf("seachess: a mine on %s, but its side has made no hidden move that could lay it", name)
	} else if m != 0 && c != 0 && (c != mk(cruiser, rules.Side(m-1)) || a&attrLoaded != 0) {
		return fmt.Errorf("seachess: only the cruiser that laid it may float on a mine (%s)", name)
	}
	for side := rules.White; side <= rules.Black; side++ {
		if err := p.validSubmerged(sq, side, t); err != nil {
			return err
		}
	}
	return nil
}

// validPiece checks the piece c with attributes a on sq, and counts it.
func (p *position) validPiece(sq Square, c cell, a uint8, t *tally) error {
	name := sqName(sq)
	x, k := c.side(), c.kind()
	t.count[x][k]++
	if r := brd.Rank(sq); k == boat && (r == 0 || r == 11 || r == lastRank(x)) {
		return fmt.Errorf("seachess: a boat cannot stand on %s", name)
	}
	if k == carrier && a&attrAirborne != 0 {
		t.air[x]++
	}
	if k == commando {
		if t.kings[x] != noSq {
			return fmt.Errorf("seachess: %s has two commando ships", sideNames[x])
		}
		t.kings[x] = sq
	}
	if !attrValid[k](a) {
		return fmt.Errorf("seachess: bad attributes for the piece on %s", name)
	}
	return nil
}

// validSubmerged checks side's submerged submarine on sq, if any, and
// counts it.
func (p *position) validSubmerged(sq Square, side rules.Side, t *tally) error {
	u := p.uw[side][sq]
	if u == 0 {
		return nil
	}
	name := sqName(sq)
	if u > 4 {
		return fmt.Errorf("seachess: bad submerged submarine on %s", name)
	}
	t.count[side][submarine]++
	t.nuw[side]++
	if p.sq[sq] == mk(destroyer, side.Other()) {
		return fmt.Errorf("seachess: a submarine cannot be submerged under an enemy destroyer (%s, S5.4)", name)
	}
	for _, n := range orthAdj[sq] {
		if p.sq[n] == mk(destroyer, side.Other()) {
			return fmt.Errorf("seachess: a submarine submerged on %s next to an enemy destroyer would have surfaced (S6.2)", name)
		}
	}
	return nil
}

// validSides checks each side's counts against promotion, its submerged
// submarines, its aircraft and its commando ship.
func (p *position) validSides(t *tally) error {
	for side := rules.White; side <= rules.Black; side++ {
		extra, total := 0, 0
		for k := boat; k <= commando; k++ {
			total += t.count[side][k]
			if k != boat && t.count[side][k] > initial[k] {
				extra += t.count[side][k] - initial[k]
			}
		}
		if t.count[side][boat]+extra > 8 || total > 16 {
			return fmt.Errorf("seachess: %s has more pieces than promotion allows", sideNames[side])
		}
		if t.nuw[side] != int(p.nuw[side]) {
			return fmt.Errorf("seachess: %s's submerged submarines are miscounted", sideNames[side])
		}
		if t.air[side] > 1 {
			return fmt.Errorf("seachess: %s has two aircraft in flight", sideNames[side])
		}
		if t.kings[side] != p.king[side] {
			return fmt.Errorf("seachess: %s's commando ship is not where it is recorded", sideNames[side])
		}
	}
	return nil
}

// validRest checks the check, the castling rights, the en passant square
// and the counters.
func (p *position) validRest(t *tally) error {
	y := p.toMove.Other()
	switch {
	case t.kings[p.toMove] == noSq:
		return fmt.Errorf("seachess: %s, to move, has no commando ship", sideNames[p.toMove])
	case t.kings[y] == noSq:
		// The side that just moved lost its commando ship to a mine (S3.5).
	case p.attacked(t.kings[y], p.toMove):
		return fmt.Errorf("seachess: %s, not to move, is in check", sideNames[y])
	}
	for side := rules.White; side <= rules.Black; side++ {
		for i := range castlings[side] {
			cs := &castlings[side][i]
			if p.castle&castleBit(side, cs.partner == torpedo) != 0 &&
				(p.sq[cs.king] != mk(commando, side) || p.sq[cs.from] != mk(cs.partner, side)) {
				return fmt.Errorf("seachess: %s cannot keep that castling right: a piece is not at home (S8.2)", sideNames[side])
			}
		}
	}
	if p.ep != noSq {
		r := brd.Rank(p.ep) - startRank(y)
		if y == rules.Black {
			r = -r
		}
		if !brd.Exists(p.ep) || p.sq[p.ep] != mk(boat, y) || r < 2 || r > 4 {
			return fmt.Errorf("seachess: en passant square %s: want a %s boat that has just moved 2–4 squares", sqName(p.ep), sideNames[y])
		}
	}
	if p.clock < 0 || p.clock > drawClock || p.ply < 0 || p.ply%2 != int(p.toMove) {
		return errors.New("seachess: bad clock, ply or side to move")
	}
	return nil
}

// The serialised state (MarshalBinary): JSON, version 2, fields in this
// order. Version 2 added the position's veiled extra; a version 1 state,
// written before it, is read as if both sides were veiled: their
// opponents allow for mines, which is never wrong (S8.3).
type wire struct {
	V        int      `json:"v"`
	Ruleset  string   `json:"ruleset"`
	Position string   `json:"position"`
	History  []string `json:"history"`
}

// MarshalBinary writes the full state: the position notation and the
// repetition history, versioned.
func (s *State) MarshalBinary() ([]byte, error) {
	// Written by hand (the fields of wire, in order): the ruleset name and
	// the position notation use no character JSON would escape, and this
	// runs after every move.
	c := s.cache
	c.notationOnce.Do(func() { c.notation = s.pos.formatPosition() })
	b := make([]byte, 0, 64+len(c.notation)+19*len(s.hist))
	b = append(b, `{"v":2,"ruleset":"`...)
	b = append(b, s.ruleset...)
	b = append(b, `","position":"`...)
	b = append(b, c.notation...)
	b = append(b, `","history":[`...)
	for i, h := range s.hist {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		for sh := 60; sh >= 0; sh -= 4 {
			b = append(b, "0123456789abcdef"[h>>uint(sh)&15])
		}
		b = append(b, '"')
	}
	return append(b, "]}"...), nil
}

func unmarshal(data []byte) (*State, error) {
	var w wire
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("seachess: decode state: %v", err)
	}
	if dec.More() {
		return nil, errors.New("seachess: decode state: trailing data")
	}
	if w.V != 1 && w.V != 2 {
		return nil, fmt.Errorf("seachess: state format version %d is not known", w.V)
	}
	if w.Ruleset != "standard" {
		return nil, fmt.Errorf("seachess: unknown ruleset %q", w.Ruleset)
	}
	p, err := parsePosition(w.Position)
	if err != nil {
		return nil, err
	}
	if w.V == 1 {
		p.veiled = [2]bool{true, true}
	}
	if len(w.History) == 0 || len(w.History) > p.clock+1 {
		return nil, errors.New("seachess: the history does not fit the clock")
	}
	hist := make([]uint64, len(w.History))
	for i, h := range w.History {
		if len(h) != 16 {
			return nil, fmt.Errorf("seachess: bad history entry %q", h)
		}
		if hist[i], err = strconv.ParseUint(h, 16, 64); err != nil {
			return nil, fmt.Errorf("seachess: bad history entry %q", h)
		}
	}
	if hist[len(hist)-1] != p.hash() {
		return nil, errors.New("seachess: the history does not end with this position")
	}
	return fromParts(p, w.Ruleset, hist), nil
}

// fromParts builds a state from a position and its history as given.
func fromParts(p position, ruleset string, hist []uint64) *State {
	s := &State{pos: p, ruleset: ruleset, hist: hist, cache: &moveCache{}}
	s.inCheck, s.subCheck = p.check(p.toMove)
	s.outcome = s.computeOutcome()
	return s
}

// Check verifies the state's invariants: the position's (pieces, counts,
// mines under their own cruisers only, submarines clear of enemy
// destroyers, castling and en passant rights, the side not to move not in
// check), the history's, and that the outcome follows from them.
func (s *State) Check() error {
	if err := s.pos.validate(); err != nil {
		return err
	}
	if len(s.hist) == 0 || len(s.hist) > s.pos.clock+1 || s.hist[len(s.hist)-1] != s.pos.hash() {
		return errors.New("seachess: the repetition history does not match the position")
	}
	if c, sub := s.pos.check(s.pos.toMove); c != s.inCheck || sub != s.subCheck {
		return errors.New("seachess: the recorded check does not match the position")
	}
	if s.outcome != s.computeOutcome() {
		return errors.New("seachess: the outcome does not follow from the position")
	}
	if !s.outcome.Over() && (s.pos.king[0] == noSq || s.pos.king[1] == noSq) {
		return errors.New("seachess: a commando ship is missing while the game goes on")
	}
	return nil
}
