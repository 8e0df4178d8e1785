package rules

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/bottlepost/bottlepost/lang"
)

// ErrorKind sorts a MoveError.
type ErrorKind uint8

// Kinds of move errors.
const (
	// Unreadable: the text is not a move in the variant's notation.
	Unreadable ErrorKind = iota + 1
	// Illegal: a readable move the side to move may not make here.
	Illegal
	// Ambiguous: the text fits more than one legal move.
	Ambiguous
	// Refused: a move the side could submit, refused by the referee with full
	// information (Seachess S5.8, S8.3): it has to be replaced.
	Refused
	// GameOver: the game has ended; no move is accepted.
	GameOver
)

func (k ErrorKind) String() string {
	switch k {
	case Unreadable:
		return "unreadable move"
	case Illegal:
		return "illegal move"
	case Ambiguous:
		return "ambiguous move"
	case Refused:
		return "refused move"
	case GameOver:
		return "game over"
	}
	return "move error"
}

// MoveError is a user error about a submitted move: it is phrased for the
// player and cites the ruling behind it.
type MoveError struct {
	Input  string
	Kind   ErrorKind
	Reason string // for a player, in English: "the king would be in check"
	// Why is the reason as a message of the catalogs (lang), which the
	// game service writes in the player's language (Text); Reason is it
	// in English. A MoveError made without it has only Reason.
	Why    lang.Text
	Ruling string // "FIDE 3.9", "S8.3"
	// Options are, for an ambiguous move, the moves it could be; for an
	// illegal or unreadable one, the nearest legal moves.
	Options []string
}

// Error is the log form: "rules: illegal move "e2e5": … (ruling)".
func (e *MoveError) Error() string {
	return "rules: " + e.Kind.String() + " " + e.Player()
}

// Player phrases the error for the reply mail, without the package prefix:
// `"e2e5": a pawn moves straight forward (FIDE 3.7.1)`.
func (e *MoveError) Player() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q: %s", e.Input, e.Reason)
	if e.Ruling != "" {
		fmt.Fprintf(&b, " (%s)", e.Ruling)
	}
	return b.String()
}

// Text is the error as Player phrases it, as a message to write in the
// player's language.
func (e *MoveError) Text() lang.Text {
	why := e.Why
	if why.IsZero() {
		why = lang.Raw(e.Reason)
	}
	if e.Ruling != "" {
		return lang.Msg("%q: %s (%s)", e.Input, why, e.Ruling)
	}
	return lang.Msg("%q: %s", e.Input, why)
}

// Errorf builds a MoveError; format is a message of the catalogs (lang),
// its English the Reason.
func Errorf(kind ErrorKind, input, ruling, format string, args ...any) *MoveError {
	why := lang.Msg(format, args...)
	return &MoveError{Input: input, Kind: kind, Ruling: ruling, Reason: why.String(), Why: why}
}

// SetWhy replaces the error's reason (a message of the catalogs, lang) and
// ruling.
func (e *MoveError) SetWhy(why lang.Text, ruling string) {
	e.Why, e.Reason, e.Ruling = why, why.String(), ruling
}

// ambiguous is the error for a text that fits each of opts (sorted).
func ambiguous(input string, opts []string) *MoveError {
	e := Errorf(Ambiguous, input, "", "it could be %s; please write it in full", OneOf(opts))
	e.Options = opts
	return e
}

// OneOf lists alternatives as a message: "a or b or c".
func OneOf(alts []string) lang.Text {
	if len(alts) == 0 {
		return lang.Raw("")
	}
	t := lang.Raw(alts[0])
	for _, a := range alts[1:] {
		t = lang.Msg("%s or %s", t, a)
	}
	return t
}

// Candidate is a known move with the texts that name it, for Match:
// Forms[0] is the canonical notation, the rest are accepted aliases (the
// record's line, say).
type Candidate struct {
	Move  Move
	Forms []string
}

// Diagnose explains why a text that names no legal move is wrong, with
// the ruling (the reason a message of the catalogs, lang), given the readings of the text (none when it is not shaped
// like a move); kind is Unreadable when the text is not a move at all, 0
// to keep Illegal.
type Diagnose func(input string, readings []Written) (kind ErrorKind, reason lang.Text, ruling string)

// Spelled is a legal move as Notation.Match sees it: its canonical text
// and its full spellings (every part written). Most moves have one
// spelling; chess's castling has two, O-O and Ke1-g1.
type Spelled struct {
	Move  Move
	Text  string
	Parts []Written
}

// Match finds the legal move that input names. The canonical text of a
// move names it; otherwise the text is read (Read) and a move is the one
// when it is the only move some reading fits (Fits). A text that fits
// several is refused as Ambiguous, listing them as the variant writes
// them; one that fits none is explained by diagnose (when not nil) and
// answered with the nearest legal moves. A text is never taken for a move
// it cannot be read as, and never for one of two it could be.
func (n *Notation) Match(input string, moves []Spelled, diagnose Diagnose) (Move, error) {
	text := strings.Join(strings.Fields(input), "")
	if text == "" {
		return Move{}, Errorf(Unreadable, input, "", "no move was given")
	}
	for _, m := range moves {
		if m.Text == text {
			return m.Move, nil
		}
	}
	readings := n.Read(input)
	found := n.Fitting(readings, moves)
	switch {
	case len(found) == 1:
		return found[0].Move, nil
	case len(found) > 1:
		opts := make([]string, len(found))
		for i, m := range found {
			opts[i] = m.Text
		}
		sort.Strings(opts)
		return Move{}, ambiguous(input, opts)
	}
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text
	}
	return Move{}, noMove(input, readings, diagnose, texts)
}

// noMove is the error for an input that names no move: Illegal, or what
// diagnose (when not nil) says of it, with the nearest of texts.
func noMove(input string, readings []Written, diagnose Diagnose, texts []string) *MoveError {
	e := Errorf(Illegal, input, "", "that is not a legal move here")
	if diagnose != nil {
		k, reason, ruling := diagnose(strings.TrimSpace(input), readings)
		if k != 0 {
			e.Kind = k
		}
		if !reason.IsZero() {
			e.SetWhy(reason, ruling)
		}
	}
	e.Options = Nearest(input, texts, 5)
	return e
}

// Fitting lists the moves that some reading fits, each once, in the order
// of moves.
func (n *Notation) Fitting(readings []Written, moves []Spelled) []Spelled {
	var found []Spelled
	for _, m := range moves {
		if n.fitsAny(readings, m.Parts) {
			found = append(found, m)
		}
	}
	return found
}

func (n *Notation) fitsAny(readings, parts []Written) bool {
	for _, w := range readings {
		for _, f := range parts {
			if n.Fits(w, f) {
				return true
			}
		}
	}
	return false
}

// Match compares a text with the written forms of known moves, leniently:
// the exact text, then without check or mate marks, ignoring case, and
// without "-" and "x"; the first level with exactly one move wins, and a
// level with several gives an Ambiguous error. It knows no notation (a
// piece letter and a file are alike to it), so it is for comparing a text
// with the texts of one known move, as the game service does with a
// conditional line and the move it answers; players' moves are read with
// Notation.Match. When nothing matches, diagnose (if not nil) says why.
func Match(input string, cands []Candidate, diagnose Diagnose) (Move, error) {
	text := strings.Join(strings.Fields(input), "")
	if text == "" {
		return Move{}, Errorf(Unreadable, input, "", "no move was given")
	}
	// The exact text first, without building any key: the common case.
	var found []Candidate
	for _, c := range cands {
		for _, f := range c.Forms {
			if f == text {
				if !containsMove(found, c.Move) {
					found = append(found, c)
				}
				break
			}
		}
	}
	if len(found) == 1 {
		return found[0].Move, nil
	}
	levels := []func(string) string{
		func(s string) string { return s },
		stripMarks,
		func(s string) string { return strings.ToLower(stripMarks(s)) },
		looseKey,
	}
	// Forms are compacted once, not at every level.
	compact := make([][]string, len(cands))
	for i, c := range cands {
		compact[i] = make([]string, len(c.Forms))
		for j, f := range c.Forms {
			compact[i][j] = strings.Join(strings.Fields(f), "")
		}
	}
	for _, key := range levels {
		want := key(text)
		found = found[:0]
		for i, c := range cands {
			for _, f := range compact[i] {
				if key(f) == want {
					if !containsMove(found, c.Move) {
						found = append(found, c)
					}
					break
				}
			}
		}
		if len(found) == 1 {
			return found[0].Move, nil
		}
		if len(found) > 1 {
			opts := make([]string, len(found))
			for i, c := range found {
				opts[i] = c.Forms[0]
			}
			sort.Strings(opts)
			return Move{}, ambiguous(input, opts)
		}
	}
	texts := make([]string, 0, len(cands))
	for _, c := range cands {
		if len(c.Forms) > 0 {
			texts = append(texts, c.Forms[0])
		}
	}
	return Move{}, noMove(input, nil, diagnose, texts)
}

func containsMove(cs []Candidate, m Move) bool {
	for _, c := range cs {
		if c.Move == m {
			return true
		}
	}
	return false
}

// stripMarks removes trailing check, mate and annotation marks.
func stripMarks(s string) string {
	return strings.TrimRight(s, "+#!?")
}

// looseKey is the most lenient comparison key: lower case, no marks, no
// separators.
func looseKey(s string) string {
	s = strings.ToLower(stripMarks(s))
	return strings.Map(func(r rune) rune {
		if r == '-' || r == 'x' || r == ':' || unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// Nearest returns up to n of texts closest to the input, by edit distance
// on their loose keys (lower case, no marks, no separators; ties in
// alphabetical order), each once.
func Nearest(input string, texts []string, n int) []string {
	key := looseKey(strings.Join(strings.Fields(input), ""))
	type scored struct {
		text string
		d    int
	}
	all := make([]scored, 0, len(texts))
	for _, t := range texts {
		all = append(all, scored{t, editDistance(key, looseKey(t))})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].text < all[j].text
	})
	var out []string
	for _, s := range all {
		if len(out) == n {
			break
		}
		if !contains(out, s.text) {
			out = append(out, s.text)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
