package rules

import (
	"slices"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
)

// Piece is one piece a viewer sees on a square, in words rather than
// letters: the structured content of a View's cell, from which the piece
// list and the HTML board's accessible names are written. A cell may hold
// several: a Baltic stack (View.Stacked), or what floats on a Seachess
// square above its owner's mine and a submerged submarine.
type Piece struct {
	Side Side
	// Kind is the variant's name of the piece in English, lower case and
	// singular ("king", "torpedo boat", "submerged submarine"): the key
	// under which a Words table finds its words.
	Kind string
	// Hidden marks what the other side cannot see (Seachess S10.3: a
	// mine, a submerged submarine): in a player's view, their own; in the
	// referee's, either side's. A public view never sets it.
	Hidden bool
	// Promoted marks a piece that was promoted and never promotes again
	// (Transporter T5).
	Promoted bool
}

// Special is a kind of special square of a board, named in the piece list
// after the pieces: Submachine's teleports (M3), Transporter's
// transporter squares (T4).
type Special struct {
	Kind    string // the key a Words table names: "teleport", "transporter"
	Ruling  string // the ruling that makes the squares special: "M3"
	Squares []Square
}

// Put sets the structured contents of sq, from the top down; a View
// function calls it for every square it fills.
func (v *View) Put(sq Square, pieces ...Piece) {
	if v.Contents == nil {
		v.Contents = make([][]Piece, len(v.Cells))
	}
	v.Contents[sq] = pieces
}

// Words are the words of one language for writing a View as a piece list
// and for naming its squares. English is bottlepost's; another language
// gives a Words value of its own (each field set), and the list and the
// HTML board take it in place of English's.
type Words struct {
	// Side is a side as a line of the list begins ("White"); you says
	// the viewer is that side ("White (you)").
	Side func(side string, you bool) string
	// Kind is a kind of piece heading its squares in a side's line:
	// singular for n = 1, plural otherwise ("King", "Rooks"; "Promoted
	// fighters").
	Kind func(kind string, n int, promoted bool) string
	// Piece is one piece of a side in a running phrase, as a stack's
	// discs are listed ("White seal"); Name is the same in a square's
	// accessible name ("white pawn"). A kind "" is a piece whose kind is
	// not known (a Baltic disc under a stack from before the covered
	// disc's animal was kept).
	Piece func(side, kind string, promoted bool) string
	Name  func(side, kind string, promoted bool) string
	// Hidden follows the squares of what other cannot see ("hidden from
	// Black").
	Hidden func(other string) string
	// Stack joins a stack's pieces, from the top down ("White seal on
	// Black cockle").
	Stack func(pieces []string) string
	// Stacks heads the line of stacks ("Stacks").
	Stacks string
	// Special names a kind of special square, singular or plural, as in
	// a running phrase ("teleport squares"); the list's line begins with
	// it capitalised.
	Special func(kind string, n int) string
	// None is a side's line when it has no piece on the board.
	None string
	// Title is the line above the list, as the ASCII board's ("Chess, as
	// White sees it"); Turn the line after it ("White to move.", "Game
	// over: White wins: checkmate (FIDE 5.1.1).").
	Title func(variant string, sides [2]string, v Viewer) string
	Turn  func(sides [2]string, toMove Side, o Outcome) string
	// Legend writes a line of a view's legend (nil: as it stands, in
	// English); the diagram's letters stay the variant's.
	Legend func(line string) string
	// Lang is the words' language, in which the views' status lines said
	// as messages are written ("" is English).
	Lang lang.Lang
}

// English are the words of the piece list in English, the service's
// default; a game service with other languages passes another table.
var English = &Words{
	Side: func(side string, you bool) string {
		if you {
			return side + " (you)"
		}
		return side
	},
	Kind: func(kind string, n int, promoted bool) string {
		w := kind
		if n != 1 {
			w = plural(kind)
		}
		if promoted {
			w = "promoted " + w
		}
		return capitalise(w)
	},
	Piece: englishPiece,
	Name: func(side, kind string, promoted bool) string {
		return strings.ToLower(side) + englishPiece(side, kind, promoted)[len(side):]
	},
	Hidden: func(other string) string { return "hidden from " + other },
	Stack:  func(pieces []string) string { return strings.Join(pieces, " on ") },
	Stacks: "Stacks",
	Special: func(kind string, n int) string {
		if n != 1 {
			return kind + " squares"
		}
		return kind + " square"
	},
	None:  "no pieces",
	Title: func(variant string, sides [2]string, v Viewer) string { return variant + ", " + viewerPhrase(sides, v) },
	Turn: func(sides [2]string, toMove Side, o Outcome) string {
		if o.Over() {
			return "Game over: " + o.Describe(sides) + "."
		}
		return sides[toMove] + " to move."
	},
}

func englishPiece(side, kind string, promoted bool) string {
	if kind == "" {
		kind = "disc"
	}
	if promoted {
		kind = "promoted " + kind
	}
	return side + " " + kind
}

// viewerPhrase is whose board it is: "as White sees it", "the referee's
// full view", "what both sides know".
func viewerPhrase(sides [2]string, v Viewer) string {
	switch v {
	case ViewWhite, ViewBlack:
		return "as " + sides[v] + " sees it"
	case ViewReferee:
		return "the referee's full view"
	case ViewPublic:
		return "what both sides know"
	}
	return ""
}

// plural is an English noun's plural, for the kinds of bottlepost's
// variants: "cavalry", "starfish" and "headquarter"… are their own words.
func plural(kind string) string {
	switch kind {
	case "starfish", "cavalry", "interference":
		return kind
	case "cockle", "seal", "gull":
		return kind + "s"
	}
	if strings.HasSuffix(kind, "s") || strings.HasSuffix(kind, "sh") {
		return kind + "es"
	}
	return kind + "s"
}

func capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// ListWidth is the longest line of a piece list; longer lines are wrapped
// with an indent of two spaces, so that a list fits a mail's 78 columns.
const ListWidth = 78

// List writes the view as a piece list in words, for screen readers: the
// title, then one line per side (the viewer's own first; the referee's
// and the public's side 0 first) giving its pieces grouped by kind, in the
// variant's order (View.Kinds), each kind's squares sorted by file and
// rank; a line of stacks, each with its discs from the top down; the
// special squares; then whose turn it is and the view's status lines
// (wrapped, as every line, at ListWidth). A
// side's hidden pieces say whom they are hidden from; a viewer sees in the
// list exactly what the view holds, so the list, like the diagram, shows
// nothing of the opponent's secrets. w is the language's words (English
// when nil).
func (v *View) List(w *Words) string {
	if w == nil {
		w = English
	}
	sides := v.Variant.Sides()
	var out strings.Builder
	out.WriteString(w.Title(v.Variant.Name(), sides, v.Viewer))
	out.WriteString("\n\n")
	for _, line := range v.ListLines(w) {
		out.WriteString(line)
		out.WriteByte('\n')
	}
	out.WriteString("\n")
	if !v.TurnSaid {
		out.WriteString(w.Turn(sides, v.ToMove, v.Outcome))
		out.WriteByte('\n')
	}
	for _, s := range v.StatusIn(w) {
		for _, line := range wrapWords(s, "  ", ListWidth) {
			out.WriteString(line)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// ListLines are the lines of the list proper (List without the title,
// the turn and the status), wrapped at ListWidth.
func (v *View) ListLines(w *Words) []string {
	if w == nil {
		w = English
	}
	var out []string
	for _, e := range v.entries(w) {
		out = append(out, wrapWords(e, "  ", ListWidth)...)
	}
	return out
}

// group is one kind of piece of a side and where they stand.
type group struct {
	kind     string
	promoted bool
	hidden   bool
	squares  []Square
}

// entries are the list's lines before wrapping.
func (v *View) entries(w *Words) []string {
	b := v.Variant.Board()
	sides := v.Variant.Sides()
	order := [2]Side{White, Black}
	if v.Viewer == ViewBlack {
		order = [2]Side{Black, White}
	}
	var stacks []string
	var groups [2][]*group
	for _, sq := range v.sortedSquares() {
		pieces := v.Contents[sq]
		if len(pieces) == 0 {
			continue
		}
		if v.Stacked && len(pieces) > 1 {
			words := make([]string, len(pieces))
			for i, p := range pieces {
				words[i] = w.Piece(sides[p.Side], p.Kind, p.Promoted)
			}
			stacks = append(stacks, b.Name(sq)+": "+w.Stack(words))
			continue
		}
		for _, p := range pieces {
			g := find(groups[p.Side], p)
			if g == nil {
				g = &group{kind: p.Kind, promoted: p.Promoted, hidden: p.Hidden}
				groups[p.Side] = append(groups[p.Side], g)
			}
			g.squares = append(g.squares, sq)
		}
	}
	var out []string
	for _, side := range order {
		gs := groups[side]
		slices.SortStableFunc(gs, func(a, b *group) int { return v.rank(a) - v.rank(b) })
		parts := make([]string, 0, len(gs))
		for _, g := range gs {
			p := w.Kind(g.kind, len(g.squares), g.promoted) + " " + names(b, g.squares)
			if g.hidden {
				p += " (" + w.Hidden(sides[side.Other()]) + ")"
			}
			parts = append(parts, p)
		}
		you := v.Viewer == ViewerOf(side)
		line := w.Side(sides[side], you) + ": "
		if len(parts) == 0 {
			line += w.None
		} else {
			line += strings.Join(parts, "; ")
		}
		out = append(out, line+".")
	}
	if len(stacks) > 0 {
		out = append(out, w.Stacks+": "+strings.Join(stacks, "; ")+".")
	}
	for _, s := range v.Special {
		sqs := slices.Clone(s.Squares)
		slices.SortFunc(sqs, func(a, c Square) int { return squareOrder(b, a, c) })
		line := capitalise(w.Special(s.Kind, len(sqs)))
		if s.Ruling != "" {
			line += " (" + s.Ruling + ")"
		}
		out = append(out, line+": "+names(b, sqs)+".")
	}
	return out
}

// names lists squares as the list writes them: "a1, f1".
func names(b *Board, sqs []Square) string {
	parts := make([]string, len(sqs))
	for i, sq := range sqs {
		parts[i] = b.Name(sq)
	}
	return strings.Join(parts, ", ")
}

// find returns the group of p's kind (and marks) among gs, or nil.
func find(gs []*group, p Piece) *group {
	for _, g := range gs {
		if g.kind == p.Kind && g.promoted == p.Promoted && g.hidden == p.Hidden {
			return g
		}
	}
	return nil
}

// rank is a group's place in the variant's order of kinds: unknown kinds
// last, a promoted kind after its own, a hidden one after a visible one.
func (v *View) rank(g *group) int {
	i := slices.Index(v.Kinds, g.kind)
	if i < 0 {
		i = len(v.Kinds)
	}
	i *= 4
	if g.promoted {
		i += 2
	}
	if g.hidden {
		i++
	}
	return i
}

// sortedSquares are the board's squares by file, then rank: a1, a2, …, b1.
func (v *View) sortedSquares() []Square {
	b := v.Variant.Board()
	sqs := slices.Clone(b.Squares())
	slices.SortFunc(sqs, func(a, c Square) int { return squareOrder(b, a, c) })
	return sqs
}

func squareOrder(b *Board, a, c Square) int {
	if fa, fc := b.File(a), b.File(c); fa != fc {
		return fa - fc
	}
	return b.Rank(a) - b.Rank(c)
}

// SquareName is the accessible name of a square as the HTML board gives
// it: the square, then what the viewer sees there in the list's words
// ("e4, white pawn"; "e4, white seal on black cockle"; "e5, white
// cruiser, white mine hidden from Black"; "c3, teleport square, white
// knight"), or the square (and what is special about it) when it is
// empty.
func (v *View) SquareName(sq Square, w *Words) string {
	if w == nil {
		w = English
	}
	name := v.Variant.Board().Name(sq)
	for _, s := range v.Special {
		if slices.Contains(s.Squares, sq) {
			name += ", " + w.Special(s.Kind, 1)
		}
	}
	if v.Contents == nil || len(v.Contents[sq]) == 0 {
		return name
	}
	sides := v.Variant.Sides()
	pieces := v.Contents[sq]
	words := make([]string, len(pieces))
	for i, p := range pieces {
		words[i] = w.Name(sides[p.Side], p.Kind, p.Promoted)
		if p.Hidden {
			words[i] += " " + w.Hidden(sides[p.Side.Other()])
		}
	}
	if v.Stacked && len(pieces) > 1 {
		return name + ", " + w.Stack(words)
	}
	return name + ", " + strings.Join(words, ", ")
}
