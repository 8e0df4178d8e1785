package seachess

import (
	"errors"
	"strings"

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
		return rules.Move{}, &rules.MoveError{Input: text, Kind: rules.GameOver,
			Reason: "the game is over: " + s.outcome.Describe(Variant.Sides())}
	}
	c := s.known()
	if t := strings.TrimSpace(text); t != "" {
		for i, f := range c.texts {
			if f == t {
				return c.moves[i], nil
			}
		}
	}
	cands := s.candidates()
	m, err := rules.Match(text, cands, s.diagnose)
	if err == nil {
		return m, nil
	}
	var me *rules.MoveError
	if errors.As(err, &me) && me.Kind != rules.Ambiguous {
		// Perhaps the referee's record of a move, with what it did: read the
		// move and ignore the rest, so that a text can never test for what
		// its writer cannot see.
		if base := stripRecord(text); base != "" && base != strings.Join(strings.Fields(text), "") {
			if m2, err2 := rules.Match(base, cands, nil); err2 == nil {
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

// candidates lists the moves with the texts that name them.
func (s *State) candidates() []rules.Candidate {
	c := s.known()
	out := make([]rules.Candidate, len(c.moves))
	for i, m := range c.moves {
		canon := c.texts[i]
		forms := []string{canon}
		switch m.Kind {
		case mvNormal:
			if m.Piece == uint8(boat) {
				forms = append(forms, canon[1:])
			}
		case mvEnPassant:
			forms = append(forms, canon[1:], canon+"ep", canon+"e.p.", canon[1:]+"ep", canon[1:]+"e.p.")
		case mvSurfaceMove:
			// "sSc7xd9" names the capture, not the dive under the piece.
			from, to := sqName(m.From), sqName(m.To)
			forms = append(forms, "sS"+from+"x"+to, "sS"+from+"x"+to+"^", "sS"+from+"-"+to+"^")
		case mvCastleT:
			forms = append(forms, "0-0")
		case mvCastleC:
			forms = append(forms, "0-0-0")
		}
		if hidden(m.Kind) {
			forms = append(forms, canon+" (h)")
		}
		out[i] = rules.Candidate{Move: m, Forms: forms}
	}
	// SAN-style shortenings ("e4", "dxe3", "Cc7") for ordinary moves only.
	var plain []rules.Candidate
	var at []int
	for i := range out {
		if k := out[i].Move.Kind; k == mvNormal || k == mvEnPassant {
			plain = append(plain, out[i])
			at = append(at, i)
		}
	}
	rules.Shortenings(plain, brd,
		func(m rules.Move) string {
			if m.Piece == uint8(boat) {
				return ""
			}
			return kind(m.Piece).letter()
		},
		func(m rules.Move) bool { return m.Kind == mvEnPassant || s.pos.sq[m.To].enemy(s.pos.toMove) },
		func(m rules.Move) string {
			if m.Promo != 0 {
				return "=" + kind(m.Promo).letter()
			}
			return ""
		})
	for j, i := range at {
		out[i] = plain[j]
	}
	return out
}

// intent is what a move text asks for, read without the position: the
// base of Diagnose's explanations.
type intent struct {
	kind     uint8
	piece    kind
	from, to Square
	promo    kind
	capture  bool
}

// scan reads a move text's shape (S11). Trailing record marks ("+", "(h)",
// reload and mine marks) are ignored.
func scan(text string) (in intent, ok bool) {
	t := strings.Join(strings.Fields(text), "")
	t = strings.TrimSuffix(t, "(h)")
	t = strings.TrimRight(t, "+#!?")
	in = intent{from: noSq, to: noSq}
	switch strings.ToUpper(t) {
	case "O-O", "0-0", "OO", "00":
		in.kind, in.piece = mvCastleT, commando
		return in, true
	case "O-O-O", "0-0-0", "OOO", "000":
		in.kind, in.piece = mvCastleC, commando
		return in, true
	case "AA-A", "AAA":
		in.kind, in.piece = mvReturn, carrier
		return in, true
	}
	square := func() (Square, bool) {
		sq, n := brd.ParsePrefix(t)
		if n == 0 {
			return noSq, false
		}
		t = t[n:]
		return sq, true
	}
	eat := func(p string) bool {
		if strings.HasPrefix(t, p) {
			t = t[len(p):]
			return true
		}
		return false
	}
	switch {
	case strings.HasPrefix(t, "Aax") || strings.HasPrefix(t, "Aa") && len(t) > 2 && t[2] >= 'a' && t[2] <= 'l':
		t = t[2:]
		eat("x")
		in.kind, in.piece, in.capture = mvAirCapture, carrier, true
		if in.to, ok = square(); !ok {
			return in, false
		}
		return in, true
	case strings.HasPrefix(t, "sS") || strings.HasPrefix(t, "ss"):
		t = t[2:]
		in.piece = submarine
		if in.from, ok = square(); !ok {
			return in, false
		}
		if eat("^") {
			in.kind, in.to = mvSurfaceHere, in.from
			in.capture = eat("x")
			return in, true
		}
		eat("-")
		if in.to, ok = square(); !ok {
			return in, false
		}
		in.kind = mvUnder
		if eat("^") {
			in.kind, in.capture = mvSurfaceMove, true
		}
		return in, true
	}
	if len(t) > 0 && strings.IndexByte("BCTSDAK", t[0]) >= 0 {
		in.piece = kind(strings.IndexByte(letters, t[0]))
		t = t[1:]
	} else {
		in.piece = boat
	}
	if in.from, ok = square(); !ok {
		return in, false
	}
	switch {
	case in.piece == cruiser && (eat("-M") || eat("M")):
		in.kind, in.to = mvMine, in.from
		return in, true
	case in.piece == submarine && eat("v"):
		eat("-")
		in.kind = mvSubmerge
	case in.piece == torpedo && eat("xt"):
		in.kind, in.capture = mvTorpedo, true
	case in.piece == carrier && eat("xa"):
		in.kind, in.capture = mvLaunch, true
	default:
		in.kind = mvNormal
		if eat("x") {
			in.capture = true
		} else {
			eat("-")
		}
	}
	if in.to, ok = square(); !ok {
		return in, false
	}
	if in.kind == mvNormal && eat("=") {
		if len(t) == 0 {
			return in, false
		}
		k := strings.IndexByte(letters, t[0]&^0x20)
		if k <= 0 {
			return in, false
		}
		in.promo = kind(k)
	}
	return in, true
}

// pieceRule is how each piece moves, for players, with its ruling.
var pieceRule = [...]struct{ text, ruling string }{
	boat:      {"a boat moves one square straight forward (2, 3 or 4 from its starting square) and captures one square diagonally forward", "S2.1, S2.2"},
	cruiser:   {"a cruiser moves like a rook", "S3.1"},
	torpedo:   {"a torpedo boat moves like a rook", "S4.1"},
	submarine: {"a submarine moves like a knight", "S5.1"},
	destroyer: {"a destroyer moves like a bishop", "S6.1"},
	carrier:   {"an aircraft carrier moves one or two squares in any direction, or by a horse move whose two-square leg is empty", "S7.1"},
	commando:  {"a commando ship moves one square in any direction", "S8.1"},
}

// diagnose explains, for the player, why a text names no legal move: an
// unreadable text here, anything else by why.
func (s *State) diagnose(input string) (rules.ErrorKind, string, string) {
	in, ok := scan(input)
	if !ok {
		return rules.Unreadable, "write a move like Be2-e4, Cc1xc7, Ce5-M, Sd1v-e3, sSe3-f5, sSf5^x, Tj5xth7, Ad4xag7, Aaxg1, Aa-A or O-O", "S11"
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
