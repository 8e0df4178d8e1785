package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// Conditional moves: "if my opponent plays THEIRS, play MINE for me at once". A line is
// `if THEIRS then MINE`, chained one full move deeper with further `if … then …` pairs:
//
//	if e5 then Nf3 if Nc6 then Bb5
//
// Several lines are alternatives for different replies. This file is the pure part: the
// syntax of a line and its bounds. conditional.go checks lines against the game and plays
// them.

// CondPair is one step of a conditional line: the opponent's move and the answer to it,
// each as written in the variant's notation.
type CondPair struct {
	Theirs, Mine string
}

// Bounds of conditional moves, so that one mail or one game cannot grow without limit.
const (
	maxCondPairs  = 10 // pairs in one line
	maxCondLines  = 20 // pending lines of one side in one game
	maxCondMove   = 32 // characters of one move text
	condHiddenAny = "(h)"
)

// neverConditional are words that are not moves: draw offers, resignation and claims are
// answered by the player, never by a conditional line.
var neverConditional = map[string]bool{"draw": true, "resign": true, "resigns": true, "claim": true, "accept": true, "decline": true}

// ParseConditional reads a conditional line ("if e5 then Nf3 if Nc6 then Bb5"; the words
// if and then in any case; a move may be numbered, "1... e5", and may hold spaces, as the
// Seachess forms "Ce5 - M" do). It checks the shape only: what the moves mean is checked
// against the game. Errors are phrased for the player (user errors: messages of the
// catalogs, written in the reply's language).
func ParseConditional(line string) ([]CondPair, error) {
	fields := strings.Fields(line)
	var pairs []CondPair
	var cur []string
	want := "if" // the keyword expected next
	var theirs string
	flush := func(after string) (string, error) {
		text := cleanMove(strings.Join(cur, " "))
		cur = cur[:0]
		for _, w := range strings.Fields(text) {
			if kw := strings.ToLower(strings.TrimRight(w, ",;:")); kw == "if" || kw == "then" {
				return "", userf("%q is not a move: write if THEIRS then MINE", text)
			}
		}
		switch {
		case text == "":
			if after == "after if" {
				return "", userf("a move is missing after if")
			}
			return "", userf("a move is missing after then")
		case len(text) > maxCondMove:
			return "", userf("%q is too long for a move (at most %d characters)", text, maxCondMove)
		case neverConditional[strings.ToLower(text)] || strings.HasPrefix(strings.ToLower(text), "draw "):
			return "", userf("%q: draw offers, resignations and claims are never conditional; only moves are", text)
		}
		return text, nil
	}
	for i, f := range fields {
		kw := strings.ToLower(strings.TrimRight(f, ",;:"))
		switch {
		case i == 0:
			if kw != "if" {
				return nil, userf("a conditional line starts with if: if THEIRS then MINE")
			}
			want = "then"
		case kw == "then" && want == "then":
			t, err := flush("after if")
			if err != nil {
				return nil, err
			}
			theirs, want = t, "if"
		case kw == "if" && want == "if":
			m, err := flush("after then")
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, CondPair{Theirs: theirs, Mine: m})
			if len(pairs) == maxCondPairs {
				return nil, userf("a conditional line holds at most %d pairs of moves", maxCondPairs)
			}
			want = "then"
		case kw == "if" || kw == "then":
			return nil, userf("%q comes too early: write if THEIRS then MINE, and chain with if … then … again", f)
		default:
			cur = append(cur, f)
		}
	}
	if want == "then" {
		if len(fields) <= 1 || len(cur) == 0 {
			return nil, userf("write if THEIRS then MINE, e.g. if e5 then Nf3")
		}
		return nil, userf("then and your move are missing after %q", strings.Join(cur, " "))
	}
	m, err := flush("after then")
	if err != nil {
		return nil, err
	}
	return append(pairs, CondPair{Theirs: theirs, Mine: m}), nil
}

// cleanMove trims a move's text of separators and its number ("12... e5,"), again until
// nothing changes, so that the result reads back the same.
func cleanMove(text string) string {
	for {
		t := rules.TrimMoveNumber(strings.TrimRight(text, ",; "))
		if t == text {
			return t
		}
		text = t
	}
}

// FormatConditional writes a line the way ParseConditional reads it.
func FormatConditional(pairs []CondPair) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("if " + p.Theirs + " then " + p.Mine)
	}
	return b.String()
}

// condKey is the lenient comparison key of a move text (as the move matcher's last level:
// no case, no check or annotation marks, no "-", "x", ":" or spaces), for comparing the
// lines of a game with hidden information, whose moves are kept as written.
func condKey(s string) string {
	s = strings.ToLower(strings.TrimRight(strings.Join(strings.Fields(s), ""), "+#!?"))
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', 'x', ':':
			return -1
		}
		return r
	}, s)
}
