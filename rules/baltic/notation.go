package baltic

import (
	"fmt"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
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

// notation is how Baltic Sea Chess moves are read (B6): the two squares,
// no letters, with the record's "+N" for the points a move scores.
var notation = rules.Notation{Board: board, Tail: points}

// points reads the record's "+N" after a move's squares.
func points(rest string) (string, bool) {
	n := strings.TrimPrefix(rest, "+")
	if n == rest || n == "" || strings.Trim(n, "0123456789") != "" {
		return "", false
	}
	return rest, true
}

// spelled lists the legal moves with every part written, the record's
// points as the Mark of a second spelling, for notation.Match.
func (s *State) spelled() []rules.Spelled {
	moves := s.Moves()
	out := make([]rules.Spelled, len(moves))
	for i, m := range moves {
		w := rules.NewWritten()
		w.From, w.To, w.Capture = m.From, m.To, m.Kind == KindOnto
		parts := []rules.Written{w}
		if pts, _, _ := s.gain(m.From, m.To); pts > 0 {
			w.Mark = fmt.Sprintf("+%d", pts)
			parts = append(parts, w)
		}
		out[i] = rules.Spelled{Move: m, Text: s.Format(m), Parts: parts}
	}
	return out
}

// Parse reads a move: "b1-c2", "b1xc2", "b1c2", "B1 C2", and the record
// form "d7-d8+1".
func (s *State) Parse(text string) (rules.Move, error) {
	if s.outcome.Over() {
		return rules.Move{}, rules.GameOverError(text, "", s.outcome, Variant.Sides())
	}
	if m, ok := s.exact(text); ok {
		return m, nil
	}
	return notation.Match(text, s.spelled(), s.diagnose)
}

// exact finds the legal move whose canonical or record text is exactly
// text, without spelling every legal move: Parse's fast path, which gives
// what notation.Match would.
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

var moveRuling = [5]lang.Text{{}, lang.Msg("a cockle moves one square diagonally forward"), lang.Msg("a starfish moves one square forward or one square diagonally"),
	lang.Msg("a seal makes a knight's leap: one square straight, then one diagonally outward"), lang.Msg("a gull moves one square left, right, forward or back")}

// diagnose explains, for the player, why text is not a legal move here:
// an unreadable text here, a move by why.
func (s *State) diagnose(text string, readings []rules.Written) (rules.ErrorKind, lang.Text, string) {
	if s.outcome.Over() {
		return rules.GameOver, lang.Msg("the game is over: %s", s.outcome.Text(Variant.Sides())), ""
	}
	if len(readings) == 0 || readings[0].From == rules.NoSquare {
		return rules.Unreadable, lang.Msg("write a move as the two squares, from and to, such as b1-c2 or b1xc2"), "B6"
	}
	r := readings[0]
	reason, ruling := s.why(r.From, r.To, r.Mark)
	return rules.Illegal, reason, ruling
}
