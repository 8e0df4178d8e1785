package rules

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
)

// View is what one viewer may see of a state: the only input of every
// rendering, so a test of View is a test of everything a viewer is sent.
type View struct {
	Variant Variant
	Viewer  Viewer
	// Cells holds, per grid cell (index = Square), the text of what the
	// viewer sees there: a piece ("K", "p"), a stack ("C2"), a mark the
	// viewer owns ("*" for an own mine); "" for an empty square.
	Cells []string
	// Hidden marks, per cell, what the viewer sees there that the other
	// side cannot: the viewer's own mine or submerged submarine (in the
	// referee's view, either side's). Nil when no cell holds anything
	// hidden; a public view never sets it. Renderers mark these cells so a
	// player knows what the opponent does not.
	Hidden []bool
	// Contents holds, per cell, what the viewer sees there in structured
	// form (Put), from the top down: the source of the piece list (List)
	// and of the HTML board's accessible names (SquareName). The View
	// function that fills Cells fills it from the same sight, so it shows
	// exactly what Cells shows. Nil on a board with nothing on it.
	Contents [][]Piece
	// Stacked says that several pieces on a square are one stack, listed
	// as such (Baltic B3); otherwise each is listed with its own side and
	// kind (Seachess: a ship, the mine below it, a submerged submarine).
	Stacked bool
	// Kinds are the variant's kinds of piece in the order a piece list
	// names them (chess: king, queen, rook, bishop, knight, pawn).
	Kinds []string
	// Special lists the board's special squares a piece list names
	// (Submachine's teleports, Transporter's transporter squares).
	Special []Special
	ToMove  Side
	Outcome Outcome
	// TurnSaid leaves out of the renderings the line after the board that
	// says whose move it is or how the game ended: for a text that says it
	// already (a game's final mail, above its board).
	TurnSaid bool
	// Status lines follow the board: loads, scores, what is airborne, …
	Status []string
	// Said are the status lines as messages, where the variant wrote them
	// so (Say): StatusIn writes them in a language.
	Said []lang.Text
	// Legend explains the letters and symbols used.
	Legend []string
	// CellWidth, when not 0, is the least width of a cell in ASCII boards.
	// A variant whose cells grow with what a viewer may see (Seachess: "C*",
	// "bU") sets it to its widest cell, so that the boards of one position
	// share one layout whoever reads them.
	CellWidth int
}

// NewView returns a view of an empty board for the viewer, ready to fill.
func NewView(s State, v Viewer) *View {
	return &View{
		Variant: s.Variant(), Viewer: v,
		Cells:  make([]string, s.Variant().Board().Size()),
		ToMove: s.ToMove(), Outcome: s.Outcome(),
	}
}

// Say adds a status line as a message: Status has it in English, StatusIn
// in a language.
func (v *View) Say(t lang.Text) {
	for len(v.Said) < len(v.Status) {
		v.Said = append(v.Said, lang.Raw(v.Status[len(v.Said)]))
	}
	v.Status = append(v.Status, t.String())
	v.Said = append(v.Said, t)
}

// StatusIn are the status lines in the words w's language (English when
// nil): the lines said as messages are written in it, the others stand.
func (v *View) StatusIn(w *Words) []string {
	if w == nil || w.Lang == "" || w.Lang == lang.English || len(v.Said) == 0 {
		return v.Status
	}
	out := make([]string, len(v.Status))
	for i, s := range v.Status {
		if i < len(v.Said) {
			s = v.Said[i].In(w.Lang)
		}
		out[i] = s
	}
	return out
}

// Title is the first line of a rendering, in English ("Chess, as White
// sees it"): the ASCII board's and the HTML board's.
func (v *View) Title() string { return v.TitleIn(nil) }

// TitleIn is Title in the words w (English when nil).
func (v *View) TitleIn(w *Words) string {
	if w == nil {
		w = English
	}
	return w.Title(v.Variant.Name(), v.Variant.Sides(), v.Viewer)
}

// TurnIn is the line after the board, in the words w (English when nil):
// whose turn it is or how the game ended.
func (v *View) TurnIn(w *Words) string {
	if w == nil {
		w = English
	}
	return w.Turn(v.Variant.Sides(), v.ToMove, v.Outcome)
}

// LegendIn are the legend's lines in the words w (English when nil): the
// diagram's letters stay the variant's, only the words are w's.
func (v *View) LegendIn(w *Words) []string {
	if w == nil || w.Legend == nil {
		return v.Legend
	}
	out := make([]string, len(v.Legend))
	for i, s := range v.Legend {
		out[i] = w.Legend(s)
	}
	return out
}

// ASCII renders the board as the viewer receives it by mail: coordinates on
// all four sides, the viewer's own side at the bottom (Black's and side 1's
// views are turned 180°), missing squares blank, then whose turn it is, the
// status lines and the legend.
func (v *View) ASCII() string { return v.ASCIIIn(nil) }

// ASCIIIn is ASCII with the title, the turn line and the legend in the
// words given (English when nil).
func (v *View) ASCIIIn(words *Words) string {
	b := v.Variant.Board()
	w := max(1, v.CellWidth)
	for _, sq := range b.Squares() {
		w = max(w, utf8.RuneCountInString(v.Cells[sq]), utf8.RuneCountInString(b.Glyph(sq)))
	}
	flip := v.Viewer == ViewBlack
	files := make([]int, b.Files())
	for i := range files {
		files[i] = i
		if flip {
			files[i] = b.Files() - 1 - i
		}
	}
	ranks := make([]int, b.Ranks())
	for i := range ranks {
		ranks[i] = b.Ranks() - 1 - i
		if flip {
			ranks[i] = i
		}
	}
	var out strings.Builder
	// Room for the grid (a cell and a space, four columns of coordinates
	// each side, per rank), the title and a few lines of status and legend.
	out.Grow((b.Files()*(w+1)+10)*(b.Ranks()+2) + 512)
	pad := func(s string) {
		out.WriteString(s)
		for n := utf8.RuneCountInString(s); n < w; n++ {
			out.WriteByte(' ')
		}
	}
	out.WriteString(v.TitleIn(words))
	out.WriteString("\n\n")
	var fl strings.Builder
	fl.WriteString("    ")
	for i, f := range files {
		if i > 0 {
			fl.WriteByte(' ')
		}
		name := FileName(f)
		fl.WriteString(name + strings.Repeat(" ", w-len(name)))
	}
	fileLine := strings.TrimRight(fl.String(), " ") + "\n"
	out.WriteString(fileLine)
	var num [20]byte // strconv.AppendInt's room
	for _, r := range ranks {
		n := strconv.AppendInt(num[:0], int64(r+1), 10)
		for i := len(n); i < 3; i++ {
			out.WriteByte(' ') // as "%3d"
		}
		out.Write(n)
		out.WriteByte(' ')
		for i, f := range files {
			if i > 0 {
				out.WriteByte(' ')
			}
			sq := b.At(f, r)
			switch {
			case sq == NoSquare:
				pad("")
			case v.Cells[sq] != "":
				pad(v.Cells[sq])
			default:
				pad(b.Glyph(sq))
			}
		}
		out.WriteByte(' ')
		out.Write(n)
		out.WriteByte('\n')
	}
	out.WriteString(fileLine)
	out.WriteString("\n")
	if !v.TurnSaid {
		out.WriteString(v.TurnIn(words))
		out.WriteByte('\n')
	}
	for _, s := range v.StatusIn(words) {
		out.WriteString(s)
		out.WriteByte('\n')
	}
	if len(v.Legend) > 0 {
		out.WriteString("\n")
		for _, s := range v.LegendIn(words) {
			out.WriteString(s)
			out.WriteByte('\n')
		}
	}
	return out.String()
}
