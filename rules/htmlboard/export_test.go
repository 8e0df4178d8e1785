package htmlboard

import (
	"html/template"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
)

// Table draws the board table alone (what Render draws between the title and
// the turn), for the tests of its cells.
func Table(v *rules.View, opt Options) template.HTML {
	var out strings.Builder
	out.Grow(tableSize(v))
	writeTable(&out, v, opt, v.Title())
	return template.HTML(out.String())
}

// Legend is what Render explains below the board, for a player: what the
// rendering's colours and marks mean, then the view's own legend of letters.
func Legend(v *rules.View, opt Options) []string {
	return append(boardLegend(v, opt), v.Legend...)
}
