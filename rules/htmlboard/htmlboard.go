// Package htmlboard draws a rules.View as an HTML table: the one board
// renderer of the HTML mail part and of the web view.
//
// The output uses HTML attributes and short inline styles only (mail
// clients strip <style> elements, classes' CSS and SVG) and no images; it
// is kept compact, as it travels in every board mail (a chess table is
// about 7.8 kB). Light and dark squares are cell backgrounds, the
// pieces are letters on white or black discs (chess's are figurines,
// ♔ to ♟), coordinates run along all four sides, and a legend says what
// every colour and letter means, so the board reads the same in a
// browser, in webmail and as plain HTML text.
//
// It is drawn for screen readers too (WCAG 2.1 AA): the title is the
// table's caption, the coordinates of the top row and the left column are
// header cells (th scope="col" and scope="row"; their copies on the other
// sides are hidden from assistive technology), every square has an
// accessible name in words, the piece list's (View.SquareName: "e4,
// white pawn"; a stack or a hidden piece as the list says it), with the
// letters or figurines drawn for the eye hidden from it, and every text
// colour has a contrast of at least 4.5:1 on its background.
// Like the ASCII board it is drawn from a View alone, so it shows exactly
// what that viewer may see; the last move is highlighted only as the
// caller passes it (LastMove gives the squares a viewer may know).
package htmlboard

import (
	"html"
	"html/template"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
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
	// Lang is the language of the board's words (the caption, the turn
	// line, the legends, the squares' accessible names); "" is English,
	// as the web pages draw it. Another language marks the block with its
	// lang attribute.
	Lang lang.Lang
}

// The palette. Exported through Colours for tests that look at pictures.
const (
	light      = "#f0d9b5"
	dark       = "#b58863"
	lastLight  = "#f4e869"
	lastDark   = "#d2bb3c"
	seaLight   = "#cfe3f0"
	seaDark    = "#96bcd6"
	coordText  = "#555555" // 7.5:1 on white, where the coordinates stand
	hiddenEdge = "#d00000"
	markText   = "#000000" // a mark on a square ("o"): 6.9:1 on the dark square, 5.3:1 on the sea
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
	out.Grow(tableSize(v) + 1024)
	words := rules.WordsIn(opt.Lang)
	if opt.Lang == "" || opt.Lang == lang.English {
		out.WriteString(`<div style="font-family:sans-serif;color:#000">` + "\n")
	} else {
		out.WriteString(`<div lang="` + string(opt.Lang) + `" style="font-family:sans-serif;color:#000">` + "\n")
	}
	writeTable(&out, v, opt, v.TitleIn(words))
	if !v.TurnSaid {
		out.WriteString(`<p style="margin:6px 0 0 0"><strong>`)
		writeEscaped(&out, v.TurnIn(words))
		out.WriteString("</strong></p>\n")
	}
	for _, s := range v.StatusIn(words) {
		out.WriteString(`<p style="margin:2px 0">`)
		writeEscaped(&out, s)
		out.WriteString("</p>\n")
	}
	out.WriteString(`<p style="margin:8px 0 0 0;font-size:13px;color:#333333">`)
	for i, s := range boardLegend(v, opt) {
		if i > 0 {
			out.WriteString("<br>\n")
		}
		writeEscaped(&out, s)
	}
	out.WriteString("</p>\n")
	if len(v.Legend) > 0 && !figurines(v) {
		// The view's legend is wrapped for the text part; here it flows.
		// It explains letters, which a board of figurines does not draw.
		out.WriteString(`<p style="margin:4px 0 0 0;font-size:13px;color:#333333;max-width:40em">`)
		writeEscaped(&out, strings.Join(v.LegendIn(words), " "))
		out.WriteString("</p>\n")
	}
	out.WriteString("</div>\n")
	return template.HTML(out.String())
}

// tableSize estimates the bytes of a view's table, a little more than it
// takes, so that it is written into one allocation: some 60 bytes a cell,
// and 160 for each byte of a cell's text (a piece's disc is some 140).
func tableSize(v *rules.View) int {
	n := 512 + 60*len(v.Cells)
	for _, c := range v.Cells {
		if c != "" {
			n += 160 * len(c)
		}
	}
	return n
}

// writeEscaped writes s escaped as html.EscapeString does, without
// allocating when there is nothing to escape.
func writeEscaped(out *strings.Builder, s string) {
	if strings.ContainsAny(s, `<>&'"`) {
		s = html.EscapeString(s)
	}
	out.WriteString(s)
}

// boardLegend explains the colours and marks of the rendering.
func boardLegend(v *rules.View, opt Options) []string {
	b := v.Variant.Board()
	sides := v.Variant.Sides()
	l := opt.Lang
	white, black := rules.Word(sides[0]), rules.Word(sides[1])
	out := []string{l.Tr("%s's pieces: dark letters on white discs; %s's: white letters on black discs.", white, black)}
	if figurines(v) {
		out[0] = l.Tr("%s's pieces are the outlined figures (♔ ♕ ♖ ♗ ♘ ♙), %s's the filled ones (♚ ♛ ♜ ♝ ♞ ♟).", white, black)
	}
	if hasHavens(b) {
		out = append(out, l.Tr("Blue squares: the open sea; sand-coloured squares: the havens."))
	}
	if b.Count() < b.Size() {
		out = append(out, l.Tr("A white gap is no square: a hole or outside the board."))
	}
	if len(opt.Last) > 0 {
		out = append(out, l.Tr("Yellow squares: the last move (%s).", b.Names(opt.Last)))
	}
	if anyHidden(v) {
		if v.Viewer == rules.ViewReferee {
			out = append(out, l.Tr("Red dashed frame: hidden from the other side (a mine or a submerged submarine)."))
		} else {
			out = append(out, l.Tr("Red dashed frame: only you see it; your opponent does not."))
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

// writeTable draws the table, captioned t (the title line's text). It is
// sent in every board mail, so it is kept small: sizes, alignment and
// square colours are HTML attributes (width, height, align, bgcolor,
// cellspacing, cellpadding), which every mail client honours, and the
// inherited font settings are set once on the table; only the caption,
// the coordinates, a square's mark and each piece's disc carry a short
// inline style. The columns take their width from the file row and the
// rows their height from the rank coordinate, so squares need neither.
// It is written piece by piece, without fmt: it is the bulk of a board
// mail's HTML.
func writeTable(out *strings.Builder, v *rules.View, opt Options, t string) {
	b := v.Variant.Board()
	size := opt.Square
	if size <= 0 {
		size = 34
	}
	coord := size * 2 / 3
	coordFont := `style="font-size:` + strconv.Itoa(size/3+1) + `px;line-height:1"`
	files, ranks := order(v)
	havens := hasHavens(b)
	discs := newDiscStyles(size)
	figs := figurines(v)
	var num [20]byte // strconv.AppendInt's room
	writeInt := func(n int) { out.Write(strconv.AppendInt(num[:0], int64(n), 10)) }
	out.WriteString(`<table cellspacing="0" cellpadding="0" style="font-family:sans-serif;font-size:`)
	if figs {
		writeInt(size * 4 / 5)
	} else {
		writeInt(size*2/5 + 2)
	}
	out.WriteString(`px;line-height:1.1;color:` + coordText + `">` + "\n")
	out.WriteString(`<caption style="text-align:left;font-size:16px;font-weight:bold;color:#000;padding:0 0 6px 0">`)
	writeEscaped(out, t)
	out.WriteString("</caption>\n")
	// The top row and the left column are the headers; their copies at the
	// bottom and on the right are for the eye only.
	fileRow := func(header bool) {
		out.WriteString(`<tr align="center" `)
		out.WriteString(coordFont)
		out.WriteString(`><td width="`)
		writeInt(coord)
		out.WriteString(`" height="`)
		writeInt(coord)
		out.WriteString(`"></td>`)
		for _, f := range files {
			if header {
				out.WriteString(`<th scope="col" width="`)
			} else {
				out.WriteString(`<td aria-hidden="true" width="`)
			}
			writeInt(size)
			out.WriteString(`">`)
			out.WriteString(rules.FileName(f))
			if header {
				out.WriteString(`</th>`)
			} else {
				out.WriteString(`</td>`)
			}
		}
		out.WriteString(`<td width="`)
		writeInt(coord)
		out.WriteString(`"></td></tr>` + "\n")
	}
	fileRow(true)
	for _, r := range ranks {
		out.WriteString(`<tr align="center"><th scope="row" height="`)
		writeInt(size)
		out.WriteString(`" `)
		out.WriteString(coordFont)
		out.WriteString(`>`)
		writeInt(r + 1)
		out.WriteString("</th>\n")
		for _, f := range files {
			sq := b.At(f, r)
			if sq == rules.NoSquare {
				out.WriteString(`<td bgcolor="#ffffff"></td>` + "\n")
				continue
			}
			out.WriteString(`<td aria-label="`)
			writeEscaped(out, v.SquareName(sq, rules.WordsIn(opt.Lang)))
			out.WriteString(`" bgcolor="`)
			out.WriteString(background(b, sq, contains(opt.Last, sq), havens))
			out.WriteString(`"`)
			hidden := v.Hidden != nil && v.Hidden[sq]
			switch cell := v.Cells[sq]; {
			case cell != "" && figs:
				out.WriteString(`><span aria-hidden="true" style="color:#000">`)
				out.WriteString(figurine(v, sq, cell))
				out.WriteString("</span>")
			case cell != "":
				out.WriteString(">")
				writePieces(out, cell, hidden, &discs)
			default:
				if g := b.Glyph(sq); g != "." && g != ":" {
					// A mark is plain text, set like the coordinates.
					out.WriteString(` style="line-height:1"><span aria-hidden="true" style="color:` + markText + `">`)
					writeEscaped(out, g)
					out.WriteString("</span>")
				} else {
					out.WriteString(">")
				}
			}
			// A line per square keeps the table's lines short, so that a mail
			// can carry it as it is (mailfmt's 7bit parts), not quoted-printable.
			out.WriteString("</td>\n")
		}
		out.WriteString(`<td aria-hidden="true" `)
		out.WriteString(coordFont)
		out.WriteString(">")
		writeInt(r + 1)
		out.WriteString("</td></tr>\n")
	}
	fileRow(false)
	out.WriteString("</table>\n")
}

// figurines reports whether a view's pieces are drawn as chess figurines:
// on the chess board, whose pieces have them (Unicode's chess symbols).
func figurines(v *rules.View) bool {
	return v.Variant.ID() == "chess" && v.Contents != nil
}

// figurineRefs are the chess figurines by kind, White's and Black's, as
// character references, so that the table stays ASCII (a mail part of
// 7bit lines); the black pawn is followed by VARIATION SELECTOR-15, as it
// alone is also an emoji.
var figurineRefs = map[string][2]string{
	"king":   {"&#9812;", "&#9818;"},
	"queen":  {"&#9813;", "&#9819;"},
	"rook":   {"&#9814;", "&#9820;"},
	"bishop": {"&#9815;", "&#9821;"},
	"knight": {"&#9816;", "&#9822;"},
	"pawn":   {"&#9817;", "&#9823;&#65038;"},
}

// figurine is a chess square's figurine, or its letter escaped when the
// view holds a kind without one.
func figurine(v *rules.View, sq rules.Square, cell string) string {
	if ps := v.Contents[sq]; len(ps) == 1 {
		if f, ok := figurineRefs[ps[0].Kind]; ok && ps[0].Side <= rules.Black {
			return f[ps[0].Side]
		}
	}
	return html.EscapeString(cell)
}

// background is a square's colour: dark when file + rank is even (a1 is
// dark, as in chess and Chess-Battle C1.2), the open sea of a board with
// havens in blue (havens is hasHavens(b), asked once per table), the last
// move in yellow.
func background(b *rules.Board, sq rules.Square, last, havens bool) string {
	f, r := b.Coords(sq)
	isDark := (f+r)%2 == 0
	sea := havens && b.Marks(sq)&(rules.MarkHavenWhite|rules.MarkHavenBlack) == 0
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

// nextToken returns the length in bytes of the first piece of a cell's
// text (valid UTF-8): a letter with the digits and marks that follow it
// ("C2", "C*", "R+"), or a lone symbol ("&").
func nextToken(cell string) int {
	letter := false
	for i, r := range cell {
		switch {
		case i == 0:
			letter = unicode.IsLetter(r)
		case !letter || unicode.IsLetter(r):
			return i
		}
	}
	return len(cell)
}

// discStyles are the opening tags of a piece's disc for one square size:
// by colour (upper case, lower case, other), framed as hidden or not, in
// the table's letter size or the smaller one of a cell of several pieces.
type discStyles struct {
	size int
	tags [3][2][2]string // [colour][hidden][small]
}

// newDiscStyles returns the disc tags of a square size; those of the
// usual size are made once.
func newDiscStyles(size int) discStyles {
	if size == defaultDiscs.size {
		return defaultDiscs
	}
	return makeDiscStyles(size)
}

var defaultDiscs = makeDiscStyles(34)

func makeDiscStyles(size int) discStyles {
	d := discStyles{size: size}
	colours := [3][3]string{ // fg, bg, edge
		{"#000", "#fff", "#000"},
		{"#fff", "#1a1a1a", "#000"},
		{"#000", "#c8c8c8", "#555"},
	}
	for c, col := range colours {
		for h := range 2 {
			for small := range 2 {
				font := size*2/5 + 2
				fontStyle := ""
				if small == 1 {
					font = size/3 + 1
					fontStyle = ";font-size:" + strconv.Itoa(font) + "px"
				}
				border := "1px solid " + col[2]
				if h == 1 {
					border = "2px dashed " + hiddenEdge
				}
				d.tags[c][h][small] = `<b aria-hidden="true" style="display:inline-block;min-width:` + strconv.Itoa(font) + `px;padding:2px 3px;border:` +
					border + `;border-radius:` + strconv.Itoa(size/2) + `px;background:` + col[1] + `;color:` + col[0] + fontStyle + `">`
			}
		}
	}
	return d
}

// writePieces draws each piece of a cell as a bold letter on a disc:
// upper case (side 0) dark on white, lower case (side 1) white on black,
// other symbols grey; a hidden cell's discs get a red dashed frame. A
// cell of several pieces uses a smaller letter than the table's.
func writePieces(out *strings.Builder, cell string, hidden bool, discs *discStyles) {
	if !utf8.ValidString(cell) {
		cell = string([]rune(cell)) // each invalid byte drawn as U+FFFD
	}
	small := 0
	if n := nextToken(cell); n < len(cell) || utf8.RuneCountInString(cell) > 2 {
		small = 1
	}
	h := 0
	if hidden {
		h = 1
	}
	for rest := cell; rest != ""; {
		n := nextToken(rest)
		t := rest[:n]
		rest = rest[n:]
		c := 2
		switch r, _ := utf8.DecodeRuneInString(t); {
		case unicode.IsLower(r):
			c = 1
		case unicode.IsUpper(r):
			c = 0
		}
		out.WriteString(discs.tags[c][h][small])
		writeEscaped(out, t)
		out.WriteString("</b>")
	}
}
