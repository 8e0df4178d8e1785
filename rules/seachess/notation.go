package seachess

import (
	"errors"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Format writes m in S11's canonical notation, as the side to move writes
// it: a capture is marked only where that side sees a piece to take.
func (s *State) Format(m rules.Move) string {
	return s.pos.format(m)
}

func (p *position) format(m rules.Move) string {
	from, to := sqName(m.From), sqName(m.To)
	pc := kind(m.Piece)
	if pc > commando {
		pc = noPiece
	}
	switch m.Kind {
	case mvNormal:
		sep := "-"
		if brd.Exists(m.To) && p.sq[m.To].enemy(p.toMove) {
			sep = "x"
		}
		out := pc.letter() + from + sep + to
		if m.Promo != 0 && kind(m.Promo) <= commando {
			out += "=" + kind(m.Promo).letter()
		}
		return out
	case mvEnPassant:
		return "B" + from + "x" + to
	case mvCastleT:
		return "O-O"
	case mvCastleC:
		return "O-O-O"
	case mvMine:
		return "C" + from + "-M"
	case mvTorpedo:
		return "T" + from + "xt" + to
	case mvSubmerge:
		return "S" + from + "v-" + to
	case mvUnder:
		return "sS" + from + "-" + to
	case mvSurfaceMove:
		return "sS" + from + "-" + to + "^x"
	case mvSurfaceHere:
		if brd.Exists(m.From) && p.sq[m.From].enemy(p.toMove) {
			return "sS" + from + "^x"
		}
		return "sS" + from + "^"
	case mvLaunch:
		return "A" + from + "xa" + to
	case mvAirCapture:
		return "Aax" + to
	case mvReturn:
		return "Aa-A"
	}
	return "?"
}

// Parse reads a move of the side to move: the canonical form, the seed's
// spaced forms ("Ce5 - M (h)", "Tj5 xt h7"), short forms ("e4", "Cc7"),
// and the referee's record of the move ("Be4-e5-Mx", "Da1-e5>f6^xf6"),
// whose marks of what happened are read past, never checked.
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.GameOverError(text, "", s.outcome, Variant.Sides())
	}
	c := s.known()
	if t := strings.TrimSpace(text); t != "" {
		for i, f := range c.texts {
			if f == t {
				return c.moves[i], nil
			}
		}
	}
	moves := s.spelled()
	m, err := notation.Match(text, moves, s.diagnose)
	if err == nil {
		return m, nil
	}
	var me *rules.MoveError
	if errors.As(err, &me) && me.Kind != rules.Ambiguous {
		// Perhaps the referee's record of a move, with what it did: read the
		// move and ignore the rest, so that a text can never test for what
		// its writer cannot see.
		if base := stripRecord(text); base != "" && base != strings.Join(strings.Fields(text), "") {
			if m2, err2 := notation.Match(base, moves, nil); err2 == nil {
				return m2, nil
			}
		}
	}
	return rules.Move{}, err
}

// stripRecord removes from a record line (S11) what follows the move:
// automatic surfacings ("; sSf6^x"), check marks, "(h)", reload marks,
// forced surfacings (">f6^xf6"), struck mines ("-Mx", "-Mx(e6)") and a
// destroyer's catch ("xsS").
func stripRecord(text string) string {
	t := strings.Join(strings.Fields(text), "")
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	for {
		before := t
		t = strings.TrimRight(t, "+#!?")
		t = strings.TrimSuffix(t, "(h)")
		t = strings.TrimSuffix(t, "<T")
		t = strings.TrimSuffix(t, "<M")
		if i := strings.IndexByte(t, '>'); i > 0 {
			t = t[:i]
		}
		if i := strings.LastIndex(t, "-Mx"); i > 0 {
			t = t[:i]
		}
		t = strings.TrimSuffix(t, "xsS")
		if t == before {
			return t
		}
	}
}

// notation is how Seachess moves are read (S11): the letter (a boat's may
// be left out), from, - or x, to, =X; the torpedo's xt, the launch's xa
// and the dive's v as separators; the other forms by special; record marks
// (+, "(h)", e.p.) read past.
var notation = rules.Notation{
	Board:      brd,
	Letters:    letters[1:],
	Bare:       'B',
	NeedLetter: true,
	Promotions: letters[1:], // every letter, so that why can say which may not be
	Seps:       [][3]string{{"xt", "xt", "x"}, {"xa", "xa", "x"}, {"v-", "v", ""}, {"v", "v", ""}},
	Drop:       []string{"(h)", "e.p.", "ep"},
	Special:    special,
}

// Marks of the moves outside the algebraic grammar, and of the torpedo,
// the launch and the dive, which it reads with their separators.
const (
	markCastleT     = "O-O"
	markCastleC     = "O-O-O"
	markReturn      = "Aa-A"
	markAirCapture  = "Aax"
	markMine        = "M"
	markUnder       = "sS"
	markSurfaceMove = "sS^x"
	markSurfaceHere = "sS^"
	markTorpedo     = "xt"
	markLaunch      = "xa"
	markSubmerge    = "v"
)

// special reads the forms of S11 outside the algebraic grammar: castling,
// the aircraft's return and capture (Aa-A, Aaxg1), a mine (Ce5-M) and the
// submerged submarine's moves (sSe3-f5, sSe3-f5^x, sSc7xd9, sSf5^, sSf5^x).
func special(t string) []rules.Written {
	w := rules.NewWritten()
	u := strings.ToUpper(t)
	switch strings.ReplaceAll(u, "0", "O") {
	case "O-O", "OO":
		w.Mark = markCastleT
		return []rules.Written{w}
	case "O-O-O", "OOO":
		w.Mark = markCastleC
		return []rules.Written{w}
	case "AA-A", "AAA":
		w.Mark = markReturn
		return []rules.Written{w}
	}
	if rest, ok := strings.CutPrefix(u, "AA"); ok {
		rest = strings.TrimPrefix(rest, "X")
		if sq, n := brd.ParsePrefix(rest); n > 0 && n == len(rest) {
			w.Mark, w.To = markAirCapture, sq
			return []rules.Written{w}
		}
	}
	if rest, ok := strings.CutPrefix(u, "SS"); ok {
		return underwater(rest)
	}
	if rest, ok := strings.CutPrefix(u, "C"); ok {
		if sq, n := brd.ParsePrefix(rest); n > 0 && (rest[n:] == "-M" || rest[n:] == "M") {
			w.Mark, w.From, w.To = markMine, sq, sq
			return []rules.Written{w}
		}
	}
	return nil
}

// underwater reads a submerged submarine's move after its "sS": the
// square, then ^ (surfacing there, ^x taking), or - and the square reached
// (^ or ^x after it, or x before it, surfacing there to capture).
func underwater(u string) []rules.Written {
	w := rules.NewWritten()
	from, n := brd.ParsePrefix(u)
	if n == 0 {
		return nil
	}
	w.From, u = from, u[n:]
	if u == "^" || u == "^X" {
		w.Mark, w.To, w.Capture = markSurfaceHere, from, u == "^X"
		return []rules.Written{w}
	}
	capture := strings.HasPrefix(u, "X")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "-"), "X")
	to, n := brd.ParsePrefix(u)
	if n == 0 {
		return nil
	}
	w.To, w.Mark = to, markUnder
	switch u[n:] {
	case "":
		if capture {
			w.Mark, w.Capture = markSurfaceMove, true // sSc7xd9 names the capture, not the dive under the piece
		}
	case "^", "^X":
		w.Mark, w.Capture = markSurfaceMove, true
	default:
		return nil
	}
	return []rules.Written{w}
}

// marks are the Marks of the move kinds.
var marks = map[uint8]string{
	mvCastleT: markCastleT, mvCastleC: markCastleC, mvReturn: markReturn, mvAirCapture: markAirCapture,
	mvMine: markMine, mvUnder: markUnder, mvSurfaceMove: markSurfaceMove, mvSurfaceHere: markSurfaceHere,
	mvTorpedo: markTorpedo, mvLaunch: markLaunch, mvSubmerge: markSubmerge,
}

// spell is a move the side to move may submit with every part written,
// as the readings of notation have them.
func (s *State) spell(m rules.Move) rules.Written {
	w := rules.NewWritten()
	w.Mark = marks[m.Kind]
	switch m.Kind {
	case mvCastleT, mvCastleC, mvReturn:
		return w
	case mvAirCapture:
		w.To = m.To
		return w
	case mvMine, mvUnder, mvSurfaceMove, mvSurfaceHere:
		w.From, w.To = m.From, m.To
		return w
	}
	w.Letter = kind(m.Piece).letter()[0]
	w.From, w.To = m.From, m.To
	w.Capture = m.Kind != mvSubmerge && (m.Kind == mvEnPassant || s.pos.sq[m.To].enemy(s.pos.toMove))
	if m.Promo != 0 {
		w.Promo = kind(m.Promo).letter()[0]
	}
	return w
}

// spelled lists the moves the side to move may submit, for notation.Match.
func (s *State) spelled() []rules.Spelled {
	c := s.known()
	out := make([]rules.Spelled, len(c.moves))
	for i, m := range c.moves {
		out[i] = rules.Spelled{Move: m, Text: c.texts[i], Parts: []rules.Written{s.spell(m)}}
	}
	return out
}

// intent is what a move text asks for, read without the position: the
// base of why's explanations.
type intent struct {
	kind     uint8
	piece    kind
	from, to Square
	promo    kind
	capture  bool
}

// kindOfMark maps a reading's Mark back to its move kind and piece.
var kindOfMark = map[string]struct {
	kind  uint8
	piece kind
}{
	"": {mvNormal, 0}, markCastleT: {mvCastleT, commando}, markCastleC: {mvCastleC, commando},
	markReturn: {mvReturn, carrier}, markAirCapture: {mvAirCapture, carrier}, markMine: {mvMine, cruiser},
	markUnder: {mvUnder, submarine}, markSurfaceMove: {mvSurfaceMove, submarine}, markSurfaceHere: {mvSurfaceHere, submarine},
	markTorpedo: {mvTorpedo, 0}, markLaunch: {mvLaunch, 0}, markSubmerge: {mvSubmerge, 0},
}

// intentOf is a reading as why reads it: a move of a boat when no letter
// was written.
func intentOf(w rules.Written) intent {
	k := kindOfMark[w.Mark]
	in := intent{kind: k.kind, piece: k.piece, from: w.From, to: w.To, capture: w.Capture}
	if in.piece == 0 {
		in.piece = boat
		if w.Letter != 0 {
			in.piece = kind(strings.IndexByte(letters, w.Letter))
		}
	}
	if w.Promo != 0 {
		in.promo = kind(strings.IndexByte(letters, w.Promo))
	}
	return in
}

// pieceRule is how each piece moves, for players, with its ruling.
var pieceRule = [...]struct {
	text   lang.Text
	ruling string
}{
	boat:      {lang.Msg("a boat moves one square straight forward (2, 3 or 4 from its starting square) and captures one square diagonally forward"), "S2.1, S2.2"},
	cruiser:   {lang.Msg("a cruiser moves like a rook"), "S3.1"},
	torpedo:   {lang.Msg("a torpedo boat moves like a rook"), "S4.1"},
	submarine: {lang.Msg("a submarine moves like a knight"), "S5.1"},
	destroyer: {lang.Msg("a destroyer moves like a bishop"), "S6.1"},
	carrier:   {lang.Msg("an aircraft carrier moves one or two squares in any direction, or by a horse move whose two-square leg is empty"), "S7.1"},
	commando:  {lang.Msg("a commando ship moves one square in any direction"), "S8.1"},
}

// diagnose explains, for the player, why a text names no legal move: an
// unreadable text here, anything else by why, of the text's readings the
// first of the forms outside the grammar, else the first that names the
// square left.
func (s *State) diagnose(input string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	if len(readings) == 0 {
		return rules.Unreadable, lang.Msg("write a move like Be2-e4, Cc1xc7, Ce5-M, Sd1v-e3, sSe3-f5, sSf5^x, Tj5xth7, Ad4xag7, Aaxg1, Aa-A or O-O"), "S11"
	}
	w := readings[0]
	for _, r := range readings {
		if r.From != noSq || r.Mark != "" {
			w = r
			break
		}
	}
	in := intentOf(w)
	for _, sq := range []Square{in.from, in.to} {
		if sq != noSq && !brd.Exists(sq) {
			return rules.Illegal, lang.Msg("%s is not a square of the board: ranks 1, 2, 11 and 12 have only the files c to j", sqName(sq)), "S1.1"
		}
	}
	if in.kind == mvNormal && in.from == noSq {
		return rules.Illegal, lang.Msg("no %s of yours can move to %s here; write the move in full, such as Be2-e4, to be told why", in.piece.String(), sqName(in.to)), "S11"
	}
	reason, ruling := s.why(in)
	return rules.Illegal, reason, ruling
}

func knightLeap(a, b Square) bool {
	for _, t := range knightTo[a] {
		if t == b {
			return true
		}
	}
	return false
}

func onOutline(a, b Square) bool {
	for _, t := range outline[a] {
		if t == b {
			return true
		}
	}
	return false
}

// movesLike reports whether a slider of kind k could go from a to b on an
// empty board.
func movesLike(k kind, a, b Square) bool {
	d, ok := lineDir(a, b)
	if !ok {
		return false
	}
	switch k {
	case cruiser, torpedo:
		return !d.Diagonal()
	case destroyer:
		return d.Diagonal()
	}
	return false
}
