package submachine

import (
	"fmt"
	"strings"

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
		return rules.Move{}, &rules.MoveError{Input: text, Kind: rules.GameOver,
			Reason: "the game is over: " + s.outcome.Describe(Variant.Sides()), Ruling: s.outcome.Ruling}
	}
	if m, ok := s.canonical()[text]; ok {
		return m, nil // the exact canonical text: Match's first level, without building every alias
	}
	return rules.Match(text, s.candidates(), s.diagnose)
}

// candidates lists every legal move with the texts that name it.
func (s *State) candidates() []rules.Candidate {
	cands := make([]rules.Candidate, len(s.moves))
	for i, m := range s.moves {
		f := s.Format(m)
		cands[i] = rules.Candidate{Move: m, Forms: []string{f}}
		if m.Piece == pawn {
			cands[i].Forms = append(cands[i].Forms, "P"+f) // Pb2-b4
		}
		if m.Kind == kindEnPassant {
			cands[i].Forms = append(cands[i].Forms, f+"e.p.")
		}
	}
	rules.Shortenings(cands, board,
		func(m rules.Move) string {
			if m.Piece == pawn {
				return ""
			}
			return letters[m.Piece : m.Piece+1]
		},
		func(m rules.Move) bool { return s.pos.cells[m.To] != 0 || m.Kind == kindEnPassant },
		func(m rules.Move) string {
			if m.Promo == 0 {
				return ""
			}
			return "=" + letters[m.Promo:m.Promo+1]
		})
	for i := range cands {
		if cands[i].Move.Promo == 0 {
			continue
		}
		for _, f := range cands[i].Forms {
			cands[i].Forms = append(cands[i].Forms, strings.Replace(f, "=", "", 1)) // g9-g10Q
		}
	}
	return cands
}

// written is a move as a player wrote it, read loosely for diagnosis.
type written struct {
	kind     uint8 // the piece letter given, 0 for none
	from, to [2]int
	hasFrom  bool
	promo    byte   // the promotion letter given, 0 for none
	input    string // the text, trimmed (for why's hints)
}

// readCoords reads a file a–k and a rank 1–12 at the start of s, whether or
// not the square exists; n is the bytes used, 0 when there is none.
func readCoords(s string) (fr [2]int, n int) {
	if len(s) < 2 {
		return fr, 0
	}
	c := s[0] | 0x20
	if c < 'a' || c > 'k' || s[1] < '1' || s[1] > '9' {
		return fr, 0
	}
	rank, n := int(s[1]-'0'), 2
	if len(s) > 2 && s[2] >= '0' && s[2] <= '9' && rank*10+int(s[2]-'0') <= 12 {
		rank, n = rank*10+int(s[2]-'0'), 3
	}
	return [2]int{int(c - 'a'), rank - 1}, n
}

// readWritten reads "[letter][from][-x:]to[=promo]" or the shortened
// "[letter]…to[=promo]"; ok is false when the text is not shaped like a move.
func readWritten(text string) (w written, ok bool) {
	t := strings.Join(strings.Fields(text), "")
	t = strings.TrimRight(t, "+#!?")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "e.p."), "ep")
	if t == "" {
		return w, false
	}
	// A piece letter comes first unless the text starts with a square; a
	// lower-case b, c or k is a letter only before a square ("kg12-h11"),
	// else a file ("bxc3").
	if _, n := readCoords(t); n == 0 {
		_, next := readCoords(t[1:])
		if k := kindFromLetter(t[0] &^ 0x20); k != 0 && (t[0] < 'a' || !strings.ContainsRune("bck", rune(t[0])) || next > 0) {
			w.kind = k
			t = t[1:]
		}
	}
	t = strings.TrimSuffix(t, ")")
	if i := strings.LastIndexAny(t, "0123456789"); i >= 0 && i < len(t)-1 {
		rest := strings.TrimLeft(t[i+1:], "=(")
		if len(rest) != 1 {
			return w, false
		}
		w.promo = rest[0] &^ 0x20
		t = t[:i+1]
	}
	first, n := readCoords(t)
	if n > 0 {
		rest := strings.TrimLeft(t[n:], "-x:X")
		if second, m := readCoords(rest); m > 0 && m == len(rest) {
			return written{kind: w.kind, from: first, to: second, hasFrom: true, promo: w.promo}, true
		}
		if n == len(t) {
			w.to = first
			return w, true
		}
	}
	// Shortened with a disambiguator: "bxc3", "Nbc3", "N1c3".
	for i := 1; i < len(t); i++ {
		if sq, m := readCoords(t[i:]); m > 0 && i+m == len(t) {
			w.to = sq
			return w, true
		}
	}
	return w, false
}

func coordName(fr [2]int) string { return rules.FileName(fr[0]) + fmt.Sprint(fr[1]+1) }

// missing explains a named cell that is not a square (M1).
func missing(fr [2]int) string {
	return coordName(fr) + " is a hole: there is no square there"
}

// pieceRule says how each kind moves and the ruling that says so.
var pieceRule = [...][2]string{
	pawn:     {"a pawn steps to the next existing square straight ahead on its file, jumping holes, two such steps from its start rank, and captures one square diagonally forward without wrapping", "M5"},
	knight:   {"a knight leaps to the plain knight-move square and never wraps", "M2.4"},
	bishop:   {"a bishop slides diagonally, following the wraps; holes stop it", "M2"},
	rook:     {"a rook slides along ranks and files, following the wraps and the one-way shift; holes stop it", "M2"},
	queen:    {"a queen slides like a rook or a bishop, following the wraps; holes stop it", "M2"},
	king:     {"a king steps to a neighbouring square, wraps included; there is no castling", "M2, M4"},
	cardinal: {"a cardinal slides like a bishop or leaps like a knight, the leap never wrapping", "M2, M4"},
	marshall: {"a marshall slides like a rook or leaps like a knight, the leap never wrapping", "M2, M4"},
}

// diagnose explains why a text that matched no legal move is wrong.
func (s *State) diagnose(input string) (rules.ErrorKind, string, string) {
	up := strings.ToUpper(strings.Join(strings.Fields(input), ""))
	if strings.HasPrefix(up, "O-O") || strings.HasPrefix(up, "0-0") || strings.HasPrefix(up, "OO") {
		return rules.Illegal, "castling is not part of Submachine Chess", "M4"
	}
	w, ok := readWritten(input)
	if !ok {
		return rules.Unreadable, "write a move as the piece letter, the two squares and any promotion: Nb1-c3, Qe1xe7, b2-b4, c4xd5, g9-g10=Q", "M7"
	}
	if w.promo != 0 && kindFromLetter(w.promo) == 0 || w.promo == 'K' || w.promo == 'P' {
		return rules.Illegal, "a pawn promotes to Q, R, B, N, C or M", "M5.3"
	}
	if board.At(w.to[0], w.to[1]) == rules.NoSquare {
		return rules.Illegal, missing(w.to), "M1"
	}
	to := board.At(w.to[0], w.to[1])
	if !w.hasFrom {
		what := "piece"
		if w.kind != 0 {
			what = names[w.kind]
		} else {
			what = "pawn"
		}
		return rules.Illegal, fmt.Sprintf("no %s of yours can move to %s here; write the move in full, such as Nb1-c3, to be told why", what, board.Name(to)), "M7"
	}
	from := board.At(w.from[0], w.from[1])
	if from == rules.NoSquare {
		return rules.Illegal, missing(w.from), "M1"
	}
	w.input = strings.TrimSpace(input)
	reason, ruling := s.why(&w, from, to)
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
