package seachess

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// View is what viewer v may see (S10.3): every piece afloat; a player's own
// mines and submerged submarines, never the opponent's; the referee sees
// all; the public sees only what both sides know. Status lines carry loads,
// torpedo directions, the aircraft, a player's own submarines' endurance,
// castling and en passant rights, the move count and the announced check.
func (s *State) View(v rules.Viewer) *rules.View {
	view := rules.NewView(s, v)
	p := &s.pos
	sees := func(side rules.Side) bool { return v == rules.ViewReferee || v == rules.ViewerOf(side) }
	both := false
	for _, sq := range brd.Squares() {
		t := p.cellText(sq, sees)
		if len(t) > 3 { // a cruiser on its mine above submarines of both sides
			t = t[:len(t)-2] + "&"
			both = true
		}
		view.Cells[sq] = t
		if ps := p.cellPieces(sq, sees); len(ps) > 0 {
			view.Put(sq, ps...)
		}
		if v != rules.ViewPublic && t != p.cellText(sq, nobody) {
			if view.Hidden == nil {
				view.Hidden = make([]bool, len(view.Cells))
			}
			view.Hidden[sq] = true
		}
	}
	view.Kinds = listKinds
	for _, t := range s.status(v) {
		view.Say(t)
	}
	view.Legend = legend(v, both)
	// A cell holds at most three characters ("C*U", "bUu", "C*&"): every
	// viewer's board is drawn that wide, so both players' boards of one
	// position line up, whatever each of them keeps hidden.
	view.CellWidth = 3
	return view
}

// listKinds are the pieces in the order of a piece list: the commando
// ship first, as chess's king, then the larger ships, and what only its
// owner sees last.
var listKinds = []string{"commando ship", "aircraft carrier", "destroyer", "cruiser", "torpedo boat",
	"submarine", "boat", "mine", "submerged submarine"}

// nobody is the sight of a viewer who sees nothing hidden.
func nobody(rules.Side) bool { return false }

// The directions a torpedo boat faces (only the orthogonals) are messages.
var _ = lang.Keys("N", "E", "S", "W")

func (s *State) status(v rules.Viewer) []lang.Text {
	p := &s.pos
	var out []lang.Text
	if s.inCheck && !s.outcome.Over() {
		who := rules.Word(sideNames[p.toMove])
		switch {
		case !s.subCheck:
			out = append(out, lang.Msg("%s is in check.", who))
		case p.visibleCheck(p.toMove):
			out = append(out, lang.Msg("%s is in check, also by a submarine (S5.8).", who))
		default:
			out = append(out, lang.Msg("%s is in check by a submarine (S5.8).", who))
		}
	}
	for side := rules.White; side <= rules.Black; side++ {
		if c := p.airborne(side); c != noSq {
			out = append(out, lang.Msg("%s's aircraft is in flight from the carrier on %s: it captures on the outline or returns (S7.3).",
				rules.Word(sideNames[side]), sqName(c)))
		}
	}
	var torps []lang.Text
	for side := rules.White; side <= rules.Black; side++ {
		for _, sq := range brd.Squares() {
			if p.sq[sq] == mk(torpedo, side) {
				dir := rules.Word(facing(p.attr[sq]).String())
				if p.attr[sq]&attrLoaded != 0 {
					torps = append(torps, lang.Msg("%s %s loaded, facing %s", rules.Word(sideNames[side]), sqName(sq), dir))
				} else {
					torps = append(torps, lang.Msg("%s %s fired, facing %s", rules.Word(sideNames[side]), sqName(sq), dir))
				}
			}
		}
	}
	if len(torps) > 0 {
		out = append(out, lang.Msg("Torpedo boats (S4): %s.", lang.Join(torps, "; ")))
	}
	for side := rules.White; side <= rules.Black; side++ {
		if v != rules.ViewReferee && v != rules.ViewerOf(side) {
			continue
		}
		yours := v == rules.ViewerOf(side)
		var cr, subs []lang.Text
		for _, sq := range brd.Squares() {
			c := p.sq[sq]
			switch {
			case c == mk(cruiser, side):
				if p.attr[sq]&attrLoaded == 0 {
					cr = append(cr, lang.Msg("%s empty", sqName(sq)))
				} else {
					cr = append(cr, lang.Msg("%s loaded", sqName(sq)))
				}
			case c == mk(submarine, side):
				vv := p.attr[sq]
				subs = append(subs, lang.Msg("%s visible, V=%d (may dive for %d)", sqName(sq), int(vv), int(endurance(vv))))
			}
			if u := p.uw[side][sq]; u != 0 {
				switch {
				case u == 1 && yours:
					subs = append(subs, lang.Msg("%s submerged, comes up at the start of your next turn", sqName(sq)))
				case u == 1:
					subs = append(subs, lang.Msg("%s submerged, comes up at the start of its owner's next turn", sqName(sq)))
				case yours:
					subs = append(subs, lang.Msg("%s submerged, stays down %d more of your turns", sqName(sq), u-1))
				default:
					subs = append(subs, lang.Msg("%s submerged, stays down %d more of its owner's turns", sqName(sq), u-1))
				}
			}
		}
		who := rules.Word(sideNames[side])
		if len(cr) > 0 {
			if yours {
				out = append(out, lang.Msg("Your cruisers (S3.2): %s.", lang.Join(cr, ", ")))
			} else {
				out = append(out, lang.Msg("%s's cruisers (S3.2): %s.", who, lang.Join(cr, ", ")))
			}
		}
		if len(subs) > 0 {
			if yours {
				out = append(out, lang.Msg("Your submarines (S5.3): %s.", lang.Join(subs, "; ")))
			} else {
				out = append(out, lang.Msg("%s's submarines (S5.3): %s.", who, lang.Join(subs, "; ")))
			}
		}
	}
	var rights []lang.Text
	for side := rules.White; side <= rules.Black; side++ {
		var r []string
		if p.castle&castleBit(side, true) != 0 {
			r = append(r, "O-O")
		}
		if p.castle&castleBit(side, false) != 0 {
			r = append(r, "O-O-O")
		}
		if len(r) > 0 {
			rights = append(rights, lang.Msg("%s %s", rules.Word(sideNames[side]), strings.Join(r, " ")))
		}
	}
	if len(rights) > 0 {
		out = append(out, lang.Msg("Castling (S8.2): %s.", lang.Join(rights, "; ")))
	}
	if p.ep != noSq {
		out = append(out, lang.Msg("En passant (S2.3): onto %s, taking the boat on %s.",
			sqName(epTarget(p.ep, p.toMove.Other())), sqName(p.ep)))
	}
	out = append(out, lang.Msg("Moves without capture or boat move: %d of 150 (S9).", p.clock))
	return out
}

func legend(v rules.Viewer, both bool) []string {
	out := lang.Keys(
		"B boat, C cruiser, T torpedo boat, S submarine, D destroyer,",
		"A aircraft carrier, K commando ship: White upper case, Black lower.",
		"':' a haven square, '.' open sea.",
	)
	switch v {
	case rules.ViewWhite:
		out = append(out, lang.Keys("M your mine; C* your cruiser on its own mine;",
			"U your submerged submarine, after what floats above it (bU).",
			"Black's mines and submerged submarines are not shown.")...)
	case rules.ViewBlack:
		out = append(out, lang.Keys("m your mine; c* your cruiser on its own mine;",
			"u your submerged submarine, after what floats above it (Bu).",
			"White's mines and submerged submarines are not shown.")...)
	case rules.ViewReferee:
		out = append(out, lang.Keys("M White's mine, m Black's; C*/c* a cruiser on its own mine;",
			"U/u a White/Black submerged submarine, after what floats above it.")...)
		if both {
			out = append(out, lang.Keys("& submerged submarines of both sides.")...)
		}
	case rules.ViewPublic:
		out = append(out, lang.Keys("Mines and submerged submarines are not shown.")...)
	}
	return out
}
