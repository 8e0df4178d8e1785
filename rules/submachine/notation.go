package submachine

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Format writes m in the canonical long algebraic notation of M7: the piece
// letter (none for pawns), the squares joined by "-" or "x" for a capture,
// and "=X" for a promotion: Nb1-c3, Qe1xe7, b2-b4, c4xd5, g9-g10=Q. A
// teleport is written as the plain move (M3): Nc3-i10.
func (s *State) Format(m rules.Move) string {
	if !board.Exists(m.From) || !board.Exists(m.To) || m.Piece < pawn || m.Piece > numKinds || m.Promo > numKinds {
		return fmt.Sprintf("(not a move: %+v)", m)
	}
	var b strings.Builder
	if m.Piece != pawn {
		b.WriteByte(letters[m.Piece])
	}
	b.WriteString(board.Name(m.From))
	if s.pos.cells[m.To] != 0 || m.Kind == kindEnPassant {
		b.WriteByte('x')
	} else {
		b.WriteByte('-')
	}
	b.WriteString(board.Name(m.To))
	if m.Promo != 0 {
		b.WriteByte('=')
		b.WriteByte(letters[m.Promo])
	}
	return b.String()
}

// canonical maps each legal move's canonical text to it, built once.
func (s *State) canonical() map[string]rules.Move {
	s.canonOnce.Do(func() {
		s.canon = make(map[string]rules.Move, len(s.moves))
		for _, m := range s.moves {
			s.canon[s.Format(m)] = m
		}
	})
	return s.canon
}

// Parse reads a move of the side to move: the canonical text, or the same
// leniently (any case, spaces, no "-"/"x", check marks, "=" left out, "e.p."),
// or a SAN-style shortening where it fits one move only (Nc3, Nbc3, b4,
// bxc3=Q; M7). Errors are *rules.MoveError citing the ruling.
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.GameOverError(text, s.outcome.Ruling, s.outcome, Variant.Sides())
	}
	if m, ok := s.canonical()[text]; ok {
		return m, nil // the exact canonical text: Match's first level, without building every alias
	}
	return notation.Match(text, s.spelled(), s.diagnose)
}

// notation is how Submachine Chess moves are read (M7): long algebraic,
// pawns without a letter (or with P), SAN-style shortenings, = optional
// before a promotion, e.p. read past.
var notation = rules.Notation{
	Board:      board,
	Letters:    letters[1:],
	Bare:       'P',
	NeedLetter: true,
	Promotions: letters[1:], // K and P too, so that why can say they are not allowed
	Drop:       []string{"e.p.", "ep"},
}

// spelled lists the legal moves with every part written, for
// notation.Match, built once per state.
func (s *State) spelled() []rules.Spelled {
	s.spellOnce.Do(func() {
		s.spells = make([]rules.Spelled, len(s.moves))
		for i, m := range s.moves {
			w := rules.NewWritten()
			w.Letter, w.From, w.To = letters[m.Piece], m.From, m.To
			w.Capture = s.pos.cells[m.To] != 0 || m.Kind == kindEnPassant
			if m.Promo != 0 {
				w.Promo = letters[m.Promo]
			}
			s.spells[i] = rules.Spelled{Move: m, Text: s.Format(m), Parts: []rules.Written{w}}
		}
	})
	return s.spells
}

// written is a move as a player wrote it, as why needs it.
type written struct {
	kind  uint8  // the piece letter given, 0 for none
	promo byte   // the promotion letter given, 0 for none
	input string // the text, trimmed (for why's hints)
}

// missing explains a named cell that is not a square (M1).
func missing(sq rules.Square) lang.Text {
	return lang.Msg("%s is a hole: there is no square there", board.Name(sq))
}

// pieceRule says how each kind moves and the ruling that says so.
var pieceRule = [...]struct {
	text   lang.Text
	ruling string
}{
	pawn:     {lang.Msg("a pawn steps to the next existing square straight ahead on its file, jumping holes, two such steps from its start rank, and captures one square diagonally forward without wrapping"), "M5"},
	knight:   {lang.Msg("a knight leaps to the plain knight-move square and never wraps"), "M2.4"},
	bishop:   {lang.Msg("a bishop slides diagonally, following the wraps; holes stop it"), "M2"},
	rook:     {lang.Msg("a rook slides along ranks and files, following the wraps and the one-way shift; holes stop it"), "M2"},
	queen:    {lang.Msg("a queen slides like a rook or a bishop, following the wraps; holes stop it"), "M2"},
	king:     {lang.Msg("a king steps to a neighbouring square, wraps included; there is no castling"), "M2, M4"},
	cardinal: {lang.Msg("a cardinal slides like a bishop or leaps like a knight, the leap never wrapping"), "M2, M4"},
	marshall: {lang.Msg("a marshall slides like a rook or leaps like a knight, the leap never wrapping"), "M2, M4"},
}

// diagnose explains why a text that matched no legal move is wrong: of
// its readings, one that names the square left (else the first), by why.
func (s *State) diagnose(input string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	up := strings.ToUpper(strings.Join(strings.Fields(input), ""))
	if strings.HasPrefix(up, "O-O") || strings.HasPrefix(up, "0-0") || strings.HasPrefix(up, "OO") {
		return rules.Illegal, lang.Msg("castling is not part of Submachine Chess"), "M4"
	}
	if len(readings) == 0 {
		return rules.Unreadable, lang.Msg("write a move as the piece letter, the two squares and any promotion: Nb1-c3, Qe1xe7, b2-b4, c4xd5, g9-g10=Q"), "M7"
	}
	w := readings[0]
	for _, r := range readings {
		if r.From != rules.NoSquare {
			w = r
			break
		}
	}
	if w.Promo == 'K' || w.Promo == 'P' {
		return rules.Illegal, lang.Msg("a pawn promotes to Q, R, B, N, C or M"), "M5.3"
	}
	if !board.Exists(w.To) {
		return rules.Illegal, missing(w.To), "M1"
	}
	if w.From == rules.NoSquare {
		what := "pawn"
		if w.Letter != 0 {
			what = names[kindFromLetter(w.Letter)]
		}
		return rules.Illegal, lang.Msg("no %s of yours can move to %s here; write the move in full, such as Nb1-c3, to be told why", what, board.Name(w.To)), "M7"
	}
	if !board.Exists(w.From) {
		return rules.Illegal, missing(w.From), "M1"
	}
	reason, ruling := s.why(&written{kind: kindFromLetter(w.Letter), promo: w.Promo, input: strings.TrimSpace(input)}, w.From, w.To)
	return rules.Illegal, reason, ruling
}

// blockedAt returns the first occupied square on a slider's line from
// from that would otherwise reach to, or NoSquare.
func blockedAt(p *position, from, to rules.Square, k uint8) rules.Square {
	var dirs []rules.Dir
	if isOrthSlider(k) {
		dirs = append(dirs, rules.Orthogonals...)
	}
	if isDiagSlider(k) {
		dirs = append(dirs, rules.Diagonals...)
	}
	for _, d := range dirs {
		blocker := rules.NoSquare
		for _, t := range board.Ray(from, d) {
			if t == to {
				if blocker != rules.NoSquare {
					return blocker
				}
				break
			}
			if p.cells[t] != 0 && blocker == rules.NoSquare {
				blocker = t
			}
		}
	}
	return rules.NoSquare
}
