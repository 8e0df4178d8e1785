package seachess

import (
	"fmt"
	"strconv"
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
	view.Status = s.status(v)
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

func (s *State) status(v rules.Viewer) []string {
	p := &s.pos
	var out []string
	if s.inCheck && !s.outcome.Over() {
		t := sideNames[p.toMove] + " is in check"
		if s.subCheck {
			if p.visibleCheck(p.toMove) {
				t += ", also by a submarine (S5.8)"
			} else {
				t += " by a submarine (S5.8)"
			}
		}
		out = append(out, t+".")
	}
	for side := rules.White; side <= rules.Black; side++ {
		if c := p.airborne(side); c != noSq {
			out = append(out, fmt.Sprintf("%s's aircraft is in flight from the carrier on %s: it captures on the outline or returns (S7.3).",
				sideNames[side], sqName(c)))
		}
	}
	var torps []string
	for side := rules.White; side <= rules.Black; side++ {
		for _, sq := range brd.Squares() {
			if p.sq[sq] == mk(torpedo, side) {
				load := "fired"
				if p.attr[sq]&attrLoaded != 0 {
					load = "loaded"
				}
				torps = append(torps, sideNames[side]+" "+sqName(sq)+" "+load+", facing "+facing(p.attr[sq]).String())
			}
		}
	}
	if len(torps) > 0 {
		out = append(out, "Torpedo boats (S4): "+strings.Join(torps, "; ")+".")
	}
	for side := rules.White; side <= rules.Black; side++ {
		if v != rules.ViewReferee && v != rules.ViewerOf(side) {
			continue
		}
		var cr, subs []string
		for _, sq := range brd.Squares() {
			c := p.sq[sq]
			switch {
			case c == mk(cruiser, side):
				t := sqName(sq) + " loaded"
				if p.attr[sq]&attrLoaded == 0 {
					t = sqName(sq) + " empty"
				}
				cr = append(cr, t)
			case c == mk(submarine, side):
				vv := p.attr[sq]
				subs = append(subs, sqName(sq)+" visible, V="+strconv.Itoa(int(vv))+" (may dive for "+strconv.Itoa(int(endurance(vv)))+")")
			}
			if u := p.uw[side][sq]; u != 0 {
				whose := "its owner's"
				if v == rules.ViewerOf(side) {
					whose = "your"
				}
				if u == 1 {
					subs = append(subs, sqName(sq)+" submerged, comes up at the start of "+whose+" next turn")
				} else {
					subs = append(subs, fmt.Sprintf("%s submerged, stays down %d more of %s turns", sqName(sq), u-1, whose))
				}
			}
		}
		who := ownerOf(v, side)
		who = strings.ToUpper(who[:1]) + who[1:]
		if len(cr) > 0 {
			out = append(out, who+" cruisers (S3.2): "+strings.Join(cr, ", ")+".")
		}
		if len(subs) > 0 {
			out = append(out, who+" submarines (S5.3): "+strings.Join(subs, "; ")+".")
		}
	}
	var rights []string
	for side := rules.White; side <= rules.Black; side++ {
		var r []string
		if p.castle&castleBit(side, true) != 0 {
			r = append(r, "O-O")
		}
		if p.castle&castleBit(side, false) != 0 {
			r = append(r, "O-O-O")
		}
		if len(r) > 0 {
			rights = append(rights, sideNames[side]+" "+strings.Join(r, " "))
		}
	}
	if len(rights) > 0 {
		out = append(out, "Castling (S8.2): "+strings.Join(rights, "; ")+".")
	}
	if p.ep != noSq {
		out = append(out, fmt.Sprintf("En passant (S2.3): onto %s, taking the boat on %s.",
			sqName(epTarget(p.ep, p.toMove.Other())), sqName(p.ep)))
	}
	out = append(out, "Moves without capture or boat move: "+strconv.Itoa(p.clock)+" of 150 (S9).")
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
