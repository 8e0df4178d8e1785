package baltic

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// Format writes m as its author does (B6): "b1-c2" onto an empty square,
// "b1xc2" onto an opposing piece.
func (s *State) Format(m rules.Move) string {
	return s.safeFormat(m)
}

func (s *State) safeFormat(m rules.Move) string {
	if !board.Exists(m.From) || !board.Exists(m.To) || m.Kind > KindOnto {
		return "?-?"
	}
	return moveText[m.Kind][m.From][m.To]
}

// moveText[kind][from][to] is every move's text, built once.
var moveText [2][64][64]string

func init() {
	for _, from := range board.Squares() {
		for _, to := range board.Squares() {
			moveText[KindStep][from][to] = board.Name(from) + "-" + board.Name(to)
			moveText[KindOnto][from][to] = board.Name(from) + "x" + board.Name(to)
		}
	}
}

// recordText is the move in the game record (B6): "+1" for each point, as
// one number ("d7-d8+1", "c7xd8+2").
func recordText(text string, pts int) string {
	if pts == 0 {
		return text
	}
	return fmt.Sprintf("%s+%d", text, pts)
}

// candidates gives every legal move with its canonical text and its record
// form.
func (s *State) candidates() []rules.Candidate {
	moves := s.Moves()
	out := make([]rules.Candidate, len(moves))
	for i, m := range moves {
		text := s.Format(m)
		forms := []string{text}
		if pts, _, _ := s.gain(m.From, m.To); pts > 0 {
			forms = append(forms, recordText(text, pts))
		}
		out[i] = rules.Candidate{Move: m, Forms: forms}
	}
	return out
}

// Parse reads a move: "b1-c2", "b1xc2", "b1c2", "B1 C2", and the record
// form "d7-d8+1".
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, &rules.MoveError{Input: text, Kind: rules.GameOver,
			Reason: "the game is over: " + s.outcome.Describe(Variant.Sides())}
	}
	if m, ok := s.exact(text); ok {
		return m, nil
	}
	return rules.Match(text, s.candidates(), s.diagnose)
}

// exact finds the legal move whose canonical or record text is exactly
// text, as rules.Match's first level would, without building every
// candidate.
func (s *State) exact(text string) (rules.Move, bool) {
	from, n := board.ParsePrefix(text)
	if n == 0 || len(text) < n+3 {
		return rules.Move{}, false
	}
	to, k := board.ParsePrefix(text[n+1:])
	if k == 0 {
		return rules.Move{}, false
	}
	m := s.move(from, to)
	if !s.legal(m) {
		return rules.Move{}, false
	}
	canon := s.Format(m)
	if text == canon {
		return m, true
	}
	if pts, _, _ := s.gain(from, to); pts > 0 && text == recordText(canon, pts) {
		return m, true
	}
	return rules.Move{}, false
}

// readMove reads "from[-x:]to[+N]" loosely; ok is false when the text is
// not shaped like a move.
func readMove(text string) (from, to rules.Square, suffix string, ok bool) {
	t := strings.ToLower(strings.Join(strings.Fields(text), ""))
	from, n := board.ParsePrefix(t)
	if n == 0 {
		return 0, 0, "", false
	}
	t = t[n:]
	if t != "" && strings.ContainsRune("-x:", rune(t[0])) {
		t = t[1:]
	}
	to, n = board.ParsePrefix(t)
	if n == 0 {
		return 0, 0, "", false
	}
	t = t[n:]
	if t != "" && t[0] != '+' && t[0] != '#' && t[0] != '!' && t[0] != '?' {
		return 0, 0, "", false
	}
	return from, to, t, true
}

var moveRuling = [5]string{"", "a cockle moves one square diagonally forward", "a starfish moves one square forward or one square diagonally",
	"a seal makes a knight's leap: one square straight, then one diagonally outward", "a gull moves one square left, right, forward or back"}

// diagnose explains, for the player, why text is not a legal move here:
// an unreadable text here, a move by why.
func (s *State) diagnose(text string) (rules.ErrorKind, string, string) {
	if s.outcome.Over() {
		return rules.GameOver, "the game is over: " + s.outcome.Describe(Variant.Sides()), ""
	}
	from, to, suffix, ok := readMove(text)
	if !ok {
		return rules.Unreadable, "write a move as the two squares, from and to, such as b1-c2 or b1xc2", "B6"
	}
	reason, ruling := s.why(from, to, suffix)
	return rules.Illegal, reason, ruling
}
