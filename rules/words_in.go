package rules

import (
	"strings"
	"sync"

	"github.com/bottlepost/bottlepost/lang"
)

// WordsIn are the words of the piece list, the boards' titles, turn and
// status lines, legends and the squares' accessible names in language l:
// English (the table above) for English, and for another language the
// same phrases written from its catalog (package lang), so that every
// word a board shows lives in one catalog per language.
func WordsIn(l lang.Lang) *Words {
	if l == lang.English || l == "" {
		return English
	}
	translated.Lock()
	defer translated.Unlock()
	if w, ok := translated.words[l]; ok {
		return w
	}
	w := wordsOf(l)
	translated.words[l] = w
	return w
}

var translated = struct {
	sync.Mutex
	words map[lang.Lang]*Words
}{words: map[lang.Lang]*Words{}}

// The kinds of piece of every variant as a View's Piece carries them, and
// their plurals (plural; "KIND (plural)" where English has one word for
// both), looked up as words; "disc" is a Baltic disc whose animal is not
// known.
var _ = lang.Keys(
	"king", "kings", "queen", "queens", "rook", "rooks", "bishop", "bishops", "knight", "knights",
	"pawn", "pawns", "cardinal", "cardinals", "marshall", "marshalls",
	"boat", "boats", "cruiser", "cruisers", "torpedo boat", "torpedo boats", "submarine", "submarines",
	"submerged submarine", "submerged submarines", "destroyer", "destroyers",
	"aircraft carrier", "aircraft carriers", "aircraft", "aircrafts", "commando ship", "commando ships",
	"mine", "mines", "cockle", "cockles", "starfish", "starfish (plural)", "seal", "seals", "gull", "gulls", "disc", "discs",
	"headquarter", "headquarters", "bomber", "bombers", "tank", "tanks", "gun", "guns",
	"machine-gun", "machine-guns", "cavalry", "cavalry (plural)", "soldier", "soldiers",
	"admiral", "admirals", "commodore", "commodores", "commander", "commanders", "assistant", "assistants",
	"first mate", "first mates", "advisor", "advisors", "fighter", "fighters", "super fighter", "super fighters",
	"interference", "interference (plural)",
	// The special squares (Special), singular and plural.
	"teleport square", "teleport squares", "transporter square", "transporter squares")

// wordsOf are the words in a language other than English, from its
// catalog: a piece is written with its side after it ("Bauer (Weiß)"), so
// that no adjective has to agree with the noun.
func wordsOf(l lang.Lang) *Words {
	kind := func(kind string, n int) string {
		if kind == "" {
			kind = "disc"
		}
		if n != 1 {
			if p := plural(kind); p != kind {
				kind = p
			} else {
				kind += " (plural)" // starfish: the plural has a key of its own
			}
		}
		return l.Word(kind)
	}
	piece := func(side, k string, promoted bool) string {
		if promoted {
			return l.Tr("%s, promoted (%s)", kind(k, 1), l.Word(side))
		}
		return l.Tr("%s (%s)", kind(k, 1), l.Word(side))
	}
	return &Words{
		Side: func(side string, you bool) string {
			if you {
				return l.Tr("%s (you)", l.Word(side))
			}
			return l.Word(side)
		},
		Kind: func(k string, n int, promoted bool) string {
			if promoted {
				return l.Tr("%s (promoted)", kind(k, n))
			}
			return kind(k, n)
		},
		Piece:  piece,
		Name:   piece,
		Hidden: func(other string) string { return l.Tr("hidden from %s", l.Word(other)) },
		Stack:  func(pieces []string) string { return strings.Join(pieces, " "+l.Tr("on")+" ") },
		Stacks: l.Tr("Stacks"),
		Special: func(k string, n int) string {
			if n != 1 {
				return l.Word(k + " squares")
			}
			return l.Word(k + " square")
		},
		None: l.Tr("no pieces"),
		Title: func(variant string, sides [2]string, v Viewer) string {
			switch v {
			case ViewWhite, ViewBlack:
				return l.Tr("%s, as %s sees it", variant, l.Word(sides[v]))
			case ViewReferee:
				return l.Tr("%s, the referee's full view", variant)
			case ViewPublic:
				return l.Tr("%s, what both sides know", variant)
			}
			return variant
		},
		Turn: func(sides [2]string, toMove Side, o Outcome) string {
			if o.Over() {
				return l.Tr("Game over: %s.", o.Text(sides))
			}
			return l.Tr("%s to move.", l.Word(sides[toMove]))
		},
		Legend: l.Word,
		Lang:   l,
	}
}
