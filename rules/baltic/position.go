package baltic

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// A position string (Options.Position, the CLI's --fen) is a list of fields
// separated by spaces, each optional:
//
//	BOARD            eight ranks from rank 8 down to rank 1, split by "/".
//	                 In a rank, C S L G are White's cockle, starfish, seal
//	                 and gull, c s l g Black's; "1" or "2" right after a
//	                 letter is that stack's height ("S2": a stack of two,
//	                 starfish on top); any other digit counts empty squares,
//	                 and "." is one empty square ("S.." or "S12": a
//	                 starfish and two empty squares). A stack on the board
//	                 is never more than 2 high (3 or more score, B4.1, B5).
//	                 "[Sc]" is a stack of two whose covered disc is known:
//	                 White's starfish on Black's cockle (the covered disc
//	                 is always the other side's, B3.2).
//	setup=R2/R1      White's ranks 2 and 1 (or only rank 1) of a custom
//	                 setup in the same notation, upper case; Black's is
//	                 the same turned 180° (B4.5).
//	w | b            the side to move.
//	first=white|black  who moved first (B1; default White).
//	ply=N            moves already played (sc2022 counts rounds from it).
//	points=W-B       the points already scored (B4, B5).
//
// Examples: "first=black" (standard setup, Black begins),
// "setup=3S4/GLCSSCLG first=black", "8/8/8/3s4/8/8/4G2/8 w points=2-1".
// Without a board or setup, holdorf uses the B4.5 setup and sc2022 shuffles
// its home rank from Options.Seed (B5).

// start records where a game's first position came from.
type start uint8

const (
	startStandard start = iota // B4.5's setup
	startShuffled              // sc2022's shuffled home rank (B5)
	startSetup                 // a custom setup= (B4.5)
	startBoard                 // a position given square by square
)

var startNames = [...]string{"standard", "shuffled", "setup", "board"}

func parseStart(s string) (start, bool) {
	for i, n := range startNames {
		if n == s {
			return start(i), true
		}
	}
	return 0, false
}

// standardSetup is B4.5: White's rank 1 a–h and the third starfish on d2.
const standardSetup = "3S4/GLCSSCLG"

// parseRanks reads n ranks of cells, top rank first (rank n down to rank
// 1), into cells: a position string's board field (n = 8) or a setup's
// home ranks. "." is an empty square, 3–8 count empty squares, and a 1 or
// 2 right after a letter is the height of its stack.
func parseRanks(text string, n int, cells *[64]cell) error {
	pl := placement
	pl.Ranks = n
	err := pl.Parse(text, func(sq rules.Square, tok string) error {
		c := tok[0]
		if animalOf(c) == 0 {
			return fmt.Errorf("%q is not a piece (C S L G, c s l g), a digit or \".\"", tok)
		}
		owner := rules.White
		if c >= 'a' {
			owner = rules.Black
		}
		h, under := 1, uint8(0)
		switch {
		case len(tok) == 1:
		case len(tok) == 2 && (tok[1] == '1' || tok[1] == '2'):
			h = int(tok[1] - '0')
		case len(tok) == 2 && animalOf(tok[1]) != 0 && (tok[1] >= 'a') != (c >= 'a'):
			h, under = 2, animalOf(tok[1])
		default:
			return fmt.Errorf("%q is not a piece: a stack in brackets is the top disc and the covered one, of the other side (\"[Sc]\", B3.2)", tok)
		}
		cells[sq] = mkCell(owner, animalOf(c), h).withUnder(under)
		return nil
	})
	if err == nil {
		return nil
	}
	for _, rank := range strings.Split(text, "/") {
		if heightAfterLetter(rank) {
			return fmt.Errorf("%q: %v (after a letter, 1 or 2 is the stack's height: write \".\" for empty squares there)", text, err)
		}
	}
	return fmt.Errorf("%q: %w", text, err)
}

func heightAfterLetter(rank string) bool {
	for j := 1; j < len(rank); j++ {
		if animalOf(rank[j-1]) != 0 && rank[j] >= '1' && rank[j] <= '0'+maxHeight {
			return true
		}
	}
	return false
}

// placement is the board field of position strings: "." for an empty
// square, a piece's letter followed by its stack's height when above 1.
var placement = rules.Placement{Board: board, Marks: "12", Empty: '.'}

// boardText writes the cells as a position string's board field, with "."
// for empty squares and a stack whose covered disc is known in brackets.
func boardText(cells *[64]cell) string {
	return placement.Format(func(sq rules.Square) string {
		c := cells[sq]
		if c.height() == 2 && c.under() != 0 {
			l := animalLetter[c.under()]
			if c.owner() == rules.White {
				l |= 0x20
			}
			return c.text()[:1] + string(l)
		}
		return c.text()
	})
}

// setupCells builds a start from White's ranks (B4.5: ranks 1–2; B5: rank
// 1), Black's being the same turned 180°.
func setupCells(rs ruleset, text string) ([64]cell, error) {
	var cells [64]cell
	n := strings.Count(text, "/") + 1
	if n > 2 {
		return cells, fmt.Errorf("setup=%s: give White's rank 2 and rank 1, or rank 1 only (B4.5)", text)
	}
	var white [64]cell
	if err := parseRanks(text, n, &white); err != nil {
		return cells, fmt.Errorf("setup=%s: %v", text, err)
	}
	var count [5]int
	for _, sq := range board.Squares() {
		c := white[sq]
		if c.empty() {
			continue
		}
		if c.owner() != rules.White {
			return cells, fmt.Errorf("setup=%s: write White's pieces in upper case; Black's are placed turned 180° (B4.5)", text)
		}
		if c.height() != 1 {
			return cells, fmt.Errorf("setup=%s: a setup has single discs only, not %s on %s (B4.5; after a letter, 1 or 2 is a height, so write \".\" for an empty square)", text, c.text(), board.Name(sq))
		}
		count[c.animal()]++
		count[0]++
		f, r := board.Coords(sq)
		cells[sq] = c
		cells[board.At(7-f, 7-r)] = mkCell(rules.Black, c.animal(), 1)
	}
	want := pieceCount[rs]
	if count != want {
		return cells, fmt.Errorf("setup=%s: a side has %d gulls, %d seals, %d cockles and %d starfish (%s), not %d, %d, %d and %d",
			text, want[Gull], want[Seal], want[Cockle], want[Starfish], setupRuling(rs),
			count[Gull], count[Seal], count[Cockle], count[Starfish])
	}
	if rs == sc2022 && n != 1 {
		return cells, fmt.Errorf("setup=%s: sc2022 places all 8 pieces on the home rank (B5)", text)
	}
	return cells, nil
}

func setupRuling(rs ruleset) string {
	if rs == sc2022 {
		return "B5"
	}
	return "B4.5"
}

// shuffledCells is B5's start: the two discs of each animal in random order
// on White's home rank a1–h1, Black's the same turned 180° (the server's
// Board.generatePiecePositions). The order comes from the seed alone, with
// the standard library's PCG, so a game can be replayed from its record.
func shuffledCells(seed uint64) [64]cell {
	order := [8]uint8{Cockle, Gull, Starfish, Seal, Cockle, Gull, Starfish, Seal}
	r := rand.New(rand.NewPCG(seed, 2022))
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var cells [64]cell
	for i, a := range order {
		cells[board.At(i, 0)] = mkCell(rules.White, a, 1)
		cells[board.At(7-i, 7)] = mkCell(rules.Black, a, 1)
	}
	return cells
}

// newState starts a game from Options.Position (see above) and the seed.
func newState(rs ruleset, text string, seed uint64) (*State, error) {
	f, err := readFields(text)
	if err != nil {
		return nil, err
	}
	s := &State{rs: rs}
	if err := s.place(f, seed); err != nil {
		return nil, err
	}
	if f.board == "" && (f.havePly || f.havePoints) {
		return nil, fmt.Errorf("baltic: ply= and points= go with a board: a setup starts the game")
	}
	first, toMove, ply := f.first, f.toMove, f.ply
	switch {
	case first < 0 && toMove < 0:
		first = 0
	case first < 0:
		first = toMove ^ (ply & 1)
	case toMove >= 0 && toMove != first^(ply&1):
		return nil, fmt.Errorf("baltic: position %q: with first=%s and ply=%d it is %s's turn",
			text, sideName(rules.Side(first)), ply, sideName(rules.Side(first^(ply&1))))
	}
	s.first = rules.Side(first)
	s.ply = ply
	s.points = f.points
	s.toMove = s.first ^ rules.Side(ply&1)
	if err := s.finish(); err != nil {
		return nil, fmt.Errorf("baltic: position %q: %v", text, err)
	}
	return s, nil
}

// fields are the fields of a position string, read but not yet checked
// against each other.
type fields struct {
	board, setup        string
	toMove, first       int // -1 when not given
	ply                 int
	points              [2]int
	havePly, havePoints bool
}

// sideField reads w, white, b or black; -1 for anything else.
func sideField(v string) int {
	switch strings.ToLower(v) {
	case "w", "white":
		return 0
	case "b", "black":
		return 1
	}
	return -1
}

// readFields reads a position string's fields, each at most once.
func readFields(text string) (fields, error) {
	f := fields{toMove: -1, first: -1}
	for _, field := range strings.Fields(text) {
		if err := f.read(text, field); err != nil {
			return f, err
		}
	}
	if f.board != "" && f.setup != "" {
		return f, fmt.Errorf("baltic: position %q gives both a board and a setup", text)
	}
	return f, nil
}

// read reads one field of the position string text.
func (f *fields) read(text, field string) error {
	key, val, isKV := strings.Cut(field, "=")
	switch {
	case !isKV && strings.Contains(field, "/"):
		if f.board != "" {
			return fmt.Errorf("baltic: position %q gives two boards", text)
		}
		f.board = field
	case !isKV && sideField(field) >= 0:
		if f.toMove >= 0 {
			return fmt.Errorf("baltic: position %q names the side to move twice", text)
		}
		f.toMove = sideField(field)
	case isKV && strings.EqualFold(key, "first"):
		if f.first = sideField(val); f.first < 0 {
			return fmt.Errorf("baltic: first=%s: say first=white or first=black (B1)", val)
		}
	case isKV && strings.EqualFold(key, "setup"):
		f.setup = val
	case isKV && strings.EqualFold(key, "ply"):
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 || n > 100000 {
			return fmt.Errorf("baltic: ply=%s is not a move count", val)
		}
		f.ply, f.havePly = n, true
	case isKV && strings.EqualFold(key, "points"):
		w, b, ok := strings.Cut(val, "-")
		pw, err1 := strconv.Atoi(w)
		pb, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || pw < 0 || pb < 0 || pw > 99 || pb > 99 {
			return fmt.Errorf("baltic: points=%s: write White's and Black's points as points=1-0", val)
		}
		f.points, f.havePoints = [2]int{pw, pb}, true
	default:
		return fmt.Errorf("baltic: position field %q is not a board, w or b, first=, setup=, ply= or points=", field)
	}
	return nil
}

// place sets the pieces: the board given, the setup given, sc2022's
// shuffle of seed, or B4.5's setup.
func (s *State) place(f fields, seed uint64) error {
	switch {
	case f.board != "":
		s.start = startBoard
		if err := parseRanks(f.board, 8, &s.cells); err != nil {
			return fmt.Errorf("baltic: board %v", err)
		}
	case f.setup != "":
		s.start = startSetup
		cells, err := setupCells(s.rs, f.setup)
		if err != nil {
			return fmt.Errorf("baltic: %v", err)
		}
		s.cells = cells
	case s.rs == sc2022:
		s.start, s.seed = startShuffled, seed
		s.cells = shuffledCells(seed)
	default:
		s.start = startStandard
		cells, err := setupCells(s.rs, standardSetup)
		if err != nil {
			panic(err) // static data
		}
		s.cells = cells
	}
	return nil
}

func sideName(s rules.Side) string { return Variant.Sides()[s] }

// finish recounts the pieces, validates and settles the outcome of a state
// built from parts.
func (s *State) finish() error {
	s.count = [2]int{}
	for _, sq := range board.Squares() {
		if c := s.cells[sq]; !c.empty() {
			s.count[c.owner()]++
		}
	}
	if err := s.validate(); err != nil {
		return err
	}
	s.outcome = s.judge()
	return nil
}

// validate checks what any reachable position satisfies: heights, no piece
// left standing where it would have scored, disc counts, points and the
// turn. Check adds the counters.
func (s *State) validate() error {
	if s.rs > sc2022 {
		return fmt.Errorf("unknown ruleset %d", s.rs)
	}
	if s.start > startBoard {
		return fmt.Errorf("unknown start %d", s.start)
	}
	if s.first > rules.Black || s.toMove != s.first^rules.Side(s.ply&1) {
		return fmt.Errorf("side to move %d does not follow from first=%d and ply=%d", s.toMove, s.first, s.ply)
	}
	if s.ply < 0 {
		return fmt.Errorf("negative ply %d", s.ply)
	}
	var discs [2]int
	var tops [2][5]int
	var all [2][5]int // tops and the covered discs that are known
	for _, sq := range board.Squares() {
		c := s.cells[sq]
		if c.empty() {
			if c != 0 {
				return fmt.Errorf("stray bits on empty %s", board.Name(sq))
			}
			continue
		}
		a, o, h := c.animal(), c.owner(), c.height()
		if a < Cockle || a > Gull || c&^(underMask|0x3f) != 0 || c.under() > Gull || (c.under() != 0 && h != 2) {
			return fmt.Errorf("bad piece code on %s", board.Name(sq))
		}
		if h > maxHeight {
			return fmt.Errorf("%s on %s: a stack of 3 or more leaves the board (B4.1, B5)", c.text(), board.Name(sq))
		}
		if board.Rank(sq) == homeRank[o.Other()] && (s.rs == holdorf || light(a)) {
			rule := "B4.2"
			if s.rs == sc2022 {
				rule = "B5"
			}
			return fmt.Errorf("%s on %s stands on %s's home rank, where it would have scored and left the board (%s)",
				c.text(), board.Name(sq), sideName(o.Other()), rule)
		}
		tops[o][a]++
		discs[o]++
		if h == 2 {
			// B3.2: nobody moves onto an own piece, so the disc under a top
			// is the opponent's.
			discs[o.Other()]++
			if u := c.under(); u != 0 {
				all[o.Other()][u]++
			}
		}
		all[o][a]++
	}
	for side := range 2 {
		for a := Cockle; a <= Gull; a++ {
			if tops[side][a] > pieceCount[s.rs][a] {
				return fmt.Errorf("%s has %d %s on top of the board; a side has only %d (%s)",
					sideName(rules.Side(side)), tops[side][a], plural(a), pieceCount[s.rs][a], setupRuling(s.rs))
			}
		}
		for a := Cockle; a <= Gull; a++ {
			if all[side][a] > pieceCount[s.rs][a] {
				return fmt.Errorf("%s has %d %s on the board; a side has only %d (%s)",
					sideName(rules.Side(side)), all[side][a], plural(a), pieceCount[s.rs][a], setupRuling(s.rs))
			}
		}
		if discs[side] > pieceCount[s.rs][0] {
			return fmt.Errorf("%s has %d discs on the board; a side has only %d (%s)",
				sideName(rules.Side(side)), discs[side], pieceCount[s.rs][0], setupRuling(s.rs))
		}
		if s.points[side] < 0 {
			return fmt.Errorf("negative points")
		}
	}
	switch s.rs {
	case holdorf:
		if s.points[0] > holdorfTarget || s.points[1] > holdorfTarget || (s.points[0] >= holdorfTarget && s.points[1] >= holdorfTarget) {
			return fmt.Errorf("points %d-%d: the game ends when one side reaches %d (B4.4)", s.points[0], s.points[1], holdorfTarget)
		}
		for side := range 2 {
			// Every point took at least one of the scorer's own discs off
			// the board (B4.1, B4.2).
			if discs[side]+s.points[side] > pieceCount[holdorf][0] {
				return fmt.Errorf("%s has %d discs on the board and %d points: each point took at least one of its discs off (B4.1, B4.2)",
					sideName(rules.Side(side)), discs[side], s.points[side])
			}
		}
	case sc2022:
		if s.ply > 2*sc2022Rounds {
			return fmt.Errorf("ply %d: the game ends after round %d (B5)", s.ply, sc2022Rounds)
		}
		for side := range 2 {
			if s.points[side] > 2*pieceCount[sc2022][0] {
				return fmt.Errorf("%s has %d points, more than its discs could score (B5)", sideName(rules.Side(side)), s.points[side])
			}
		}
	}
	return nil
}

func plural(a uint8) string {
	if a == Starfish {
		return "starfish"
	}
	return animalName[a] + "s"
}
