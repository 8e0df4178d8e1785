// Package htmlboard draws a rules.View as an HTML table: the one board
// renderer of the HTML mail part and of the web view.
//
// The output uses HTML attributes and short inline styles only (mail
// clients strip <style> elements, classes' CSS and SVG) and no images; it
// is kept compact, as it travels in every board mail (a chess table is
// about 8.6 kB). Light and dark squares are cell backgrounds, the
// pieces are letters on white or black discs, coordinates run along all
// four sides, and a legend says what every colour and letter means, so the
// board reads the same in a browser, in webmail and as plain HTML text.
// Like the ASCII board it is drawn from a View alone, so it shows exactly
// what that viewer may see; the last move is highlighted only as the
// caller passes it (LastMove gives the squares a viewer may know).
package htmlboard

import (
	"fmt"
	"html"
	"html/template"
	"strings"
	"unicode"

	"github.com/bottlepost/bottlepost/rules"
)

// Options adjust a rendering.
type Options struct {
	// Last lists the squares of the last move to highlight. Pass what
	// LastMove returns for the viewer: never the squares of a move the
	// viewer may not know.
	Last []rules.Square
	// Square is the side of a square in CSS pixels; 0 means 34.
	Square int
}

// The palette. Exported through Colours for tests that look at pictures.
const (
	light      = "#f0d9b5"
	dark       = "#b58863"
	lastLight  = "#f4e869"
	lastDark   = "#d2bb3c"
	seaLight   = "#cfe3f0"
	seaDark    = "#96bcd6"
	coordText  = "#555555"
	hiddenEdge = "#d00000"
)

// Colours are the square backgrounds the renderer paints, as "#rrggbb":
// plain light and dark squares (Seachess's havens too), the last move's,
// and the open sea's on a board with havens.
var Colours = struct {
	Light, Dark, LastLight, LastDark, SeaLight, SeaDark string
}{light, dark, lastLight, lastDark, seaLight, seaDark}

// LastMove returns the squares of a move's report that viewer v may see
// highlighted: none for a secret move (Seachess S10.1) unless v made it or
// is the referee; otherwise its from, to and auxiliary squares that exist.
func LastMove(r *rules.Report, b *rules.Board, v rules.Viewer) []rules.Square {
	if r == nil {
		return nil
	}
	if r.Secret && v != rules.ViewReferee && v != rules.ViewerOf(r.Mover) {
		return nil
	}
	var out []rules.Square
	for _, sq := range []rules.Square{r.Move.From, r.Move.To, r.Move.Aux} {
		if b.Exists(sq) && !contains(out, sq) {
			out = append(out, sq)
		}
	}
	return out
}

func contains(sqs []rules.Square, sq rules.Square) bool {
	for _, s := range sqs {
		if s == sq {
			return true
		}
	}
	return false
}

// Render draws the whole board block: a title line, the table, whose turn
// it is or how the game ended, the view's status lines, and a legend of
// the colours and of the view's letters.
func Render(v *rules.View, opt Options) template.HTML {
	var out strings.Builder
	out.WriteString(`<div style="font-family:sans-serif;color:#000">` + "\n")
	out.WriteString(`<p style="margin:0 0 6px 0;font-weight:bold">` + html.EscapeString(title(v)) + "</p>\n")
	writeTable(&out, v, opt)
	sides := v.Variant.Sides()
	out.WriteString(`<p style="margin:6px 0 0 0"><strong>`)
	if v.Outcome.Over() {
		out.WriteString(html.EscapeString("Game over: " + v.Outcome.Describe(sides) + "."))
	} else {
		out.WriteString(html.EscapeString(sides[v.ToMove] + " to move."))
	}
	out.WriteString("</strong></p>\n")
	for _, s := range v.Status {
		out.WriteString(`<p style="margin:2px 0">` + html.EscapeString(s) + "</p>\n")
	}
	out.WriteString(`<p style="margin:8px 0 0 0;font-size:13px;color:#333333">`)
	for i, s := range boardLegend(v, opt) {
		if i > 0 {
			out.WriteString("<br>\n")
		}
		out.WriteString(html.EscapeString(s))
	}
	out.WriteString("</p>\n")
	if len(v.Legend) > 0 {
		// The view's legend is wrapped for the text part; here it flows.
		out.WriteString(`<p style="margin:4px 0 0 0;font-size:13px;color:#333333;max-width:40em">` +
			html.EscapeString(strings.Join(v.Legend, " ")) + "</p>\n")
	}
	out.WriteString("</div>\n")
	return template.HTML(out.String())
}

// Table draws the board table alone, for pages that set the title, turn
// and legend themselves.
func Table(v *rules.View, opt Options) template.HTML {
	var out strings.Builder
	writeTable(&out, v, opt)
	return template.HTML(out.String())
}

// title is the line above the board, as in the ASCII rendering.
func title(v *rules.View) string {
	sides := v.Variant.Sides()
	who := ""
	switch v.Viewer {
	case rules.ViewWhite, rules.ViewBlack:
		who = "as " + sides[v.Viewer] + " sees it"
	case rules.ViewReferee:
		who = "the referee's full view"
	case rules.ViewPublic:
		who = "what both sides know"
	}
	return v.Variant.Name() + ", " + who
}

// Legend lists, for a player, what the rendering's colours and marks mean,
// followed by the view's own legend of letters.
func Legend(v *rules.View, opt Options) []string {
	return append(boardLegend(v, opt), v.Legend...)
}

// boardLegend explains the colours and marks of the rendering.
func boardLegend(v *rules.View, opt Options) []string {
	b := v.Variant.Board()
	sides := v.Variant.Sides()
	out := []string{fmt.Sprintf("%s's pieces: dark letters on white discs; %s's: white letters on black discs.", sides[0], sides[1])}
	if hasHavens(b) {
		out = append(out, "Blue squares: the open sea; sand-coloured squares: the havens.")
	}
	if b.Count() < b.Size() {
		out = append(out, "A white gap is no square: a hole or outside the board.")
	}
	if len(opt.Last) > 0 {
		out = append(out, "Yellow squares: the last move ("+b.Names(opt.Last)+").")
	}
	if anyHidden(v) {
		if v.Viewer == rules.ViewReferee {
			out = append(out, "Red dashed frame: hidden from the other side (a mine or a submerged submarine).")
		} else {
			out = append(out, "Red dashed frame: only you see it; your opponent does not.")
		}
	}
	return out
}

func hasHavens(b *rules.Board) bool {
	return len(b.Marked(rules.MarkHavenWhite)) > 0
}

func anyHidden(v *rules.View) bool {
	for _, h := range v.Hidden {
		if h {
			return true
		}
	}
	return false
}

// order returns the files left to right and the ranks top to bottom as the
// viewer sees them: Black's view turned 180°, as in the ASCII board.
func order(v *rules.View) (files, ranks []int) {
	b := v.Variant.Board()
	flip := v.Viewer == rules.ViewBlack
	files = make([]int, b.Files())
	for i := range files {
		files[i] = i
		if flip {
			files[i] = b.Files() - 1 - i
		}
	}
	ranks = make([]int, b.Ranks())
	for i := range ranks {
		ranks[i] = b.Ranks() - 1 - i
		if flip {
			ranks[i] = i
		}
	}
	return files, ranks
}

// writeTable draws the table. It is sent in every board mail, so it is
// kept small: sizes, alignment and square colours are HTML attributes
// (width, height, align, bgcolor, cellspacing, cellpadding), which every
// mail client honours, and the inherited font settings are set once on
// the table; only the coordinates, a square's mark and each piece's disc
// carry a short inline style. The columns take their width from the file row and the
// rows their height from the rank coordinate, so squares need neither.
func writeTable(out *strings.Builder, v *rules.View, opt Options) {
	b := v.Variant.Board()
	size := opt.Square
	if size <= 0 {
		size = 34
	}
	coord := size * 2 / 3
	coordFont := fmt.Sprintf(`style="font-size:%dpx;line-height:1"`, size/3+1)
	files, ranks := order(v)
	fmt.Fprintf(out, `<table aria-label="%s" cellspacing="0" cellpadding="0" style="font-family:sans-serif;font-size:%dpx;line-height:1.1;color:%s">`+"\n",
		html.EscapeString(title(v)), size*2/5+2, coordText)
	fileRow := func() {
		fmt.Fprintf(out, `<tr align="center" %s><td width="%d" height="%d"></td>`, coordFont, coord, coord)
		for _, f := range files {
			fmt.Fprintf(out, `<td width="%d">%s</td>`, size, rules.FileName(f))
		}
		fmt.Fprintf(out, `<td width="%d"></td></tr>`+"\n", coord)
	}
	fileRow()
	for _, r := range ranks {
		fmt.Fprintf(out, `<tr align="center"><td height="%d" %s>%d</td>`, size, coordFont, r+1)
		for _, f := range files {
			sq := b.At(f, r)
			if sq == rules.NoSquare {
				out.WriteString(`<td bgcolor="#ffffff"></td>`)
				continue
			}
			fmt.Fprintf(out, `<td title="%s" bgcolor="%s"`, b.Name(sq), background(b, sq, contains(opt.Last, sq)))
			hidden := v.Hidden != nil && v.Hidden[sq]
			switch cell := v.Cells[sq]; {
			case cell != "":
				out.WriteString(">")
				writePieces(out, cell, hidden, size)
			default:
				if g := b.Glyph(sq); g != "." && g != ":" {
					// A mark is plain text, set like the coordinates.
					out.WriteString(` style="line-height:1"><span style="color:#333">` + html.EscapeString(g) + "</span>")
				} else {
					out.WriteString(">")
				}
			}
			out.WriteString("</td>")
		}
		fmt.Fprintf(out, "<td %s>%d</td></tr>\n", coordFont, r+1)
	}
	fileRow()
	out.WriteString("</table>\n")
}

// background is a square's colour: dark when file + rank is even (a1 is
// dark, as in chess and Chess-Battle C1.2), the open sea of a board with
// havens in blue, the last move in yellow.
func background(b *rules.Board, sq rules.Square, last bool) string {
	f, r := b.Coords(sq)
	isDark := (f+r)%2 == 0
	sea := b.Marks(sq)&(rules.MarkHavenWhite|rules.MarkHavenBlack) == 0 && hasHavens(b)
	switch {
	case last && isDark:
		return lastDark
	case last:
		return lastLight
	case sea && isDark:
		return seaDark
	case sea:
		return seaLight
	case isDark:
		return dark
	}
	return light
}

// tokens splits a cell's text into pieces: a letter with the digits and
// marks that follow it ("C2", "C*", "R+"), or a lone symbol ("&").
func tokens(cell string) []string {
	var out []string
	for _, r := range cell {
		if len(out) > 0 && !unicode.IsLetter(r) && startsWithLetter(out[len(out)-1]) {
			out[len(out)-1] += string(r)
			continue
		}
		out = append(out, string(r))
	}
	return out
}

func startsWithLetter(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r)
	}
	return false
}

// writePieces draws each piece of a cell as a bold letter on a disc:
// upper case (side 0) dark on white, lower case (side 1) white on black,
// other symbols grey; a hidden cell's discs get a red dashed frame. A
// cell of several pieces uses a smaller letter than the table's.
func writePieces(out *strings.Builder, cell string, hidden bool, size int) {
	toks := tokens(cell)
	font := size*2/5 + 2
	fontStyle := ""
	if len(toks) > 1 || len([]rune(cell)) > 2 {
		font = size/3 + 1
		fontStyle = fmt.Sprintf(";font-size:%dpx", font)
	}
	for _, t := range toks {
		fg, bg, edge := "#000", "#fff", "#000"
		r := []rune(t)[0]
		switch {
		case unicode.IsLower(r):
			fg, bg, edge = "#fff", "#1a1a1a", "#000"
		case !unicode.IsUpper(r):
			fg, bg, edge = "#000", "#c8c8c8", "#555"
		}
		border := "1px solid " + edge
		if hidden {
			border = "2px dashed " + hiddenEdge
		}
		fmt.Fprintf(out, `<b style="display:inline-block;min-width:%dpx;padding:2px 3px;border:%s;border-radius:%dpx;background:%s;color:%s%s">%s</b>`,
			font, border, size/2, bg, fg, fontStyle, html.EscapeString(t))
	}
}
